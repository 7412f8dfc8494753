// The compute area's pure rules (prices, labels, wizard validation, the create body), run in-host
// with the rest of the compute suites.
import * as assert from 'node:assert/strict';
import type { Region } from '../../../src/core/compute/api';
import { deviceLabel, formatMiB, formatRegionPrice, taskStatusIcon, yuanPerHour } from '../../../src/vscode/ui/format';
import { buildTaskCreateBody, parseEnv, parsePoints, parsePorts, serviceNameFor, validateTaskName } from '../../../src/vscode/tasks/taskInput';

const region: Region = {
  region: 'beijing-jxq-p1',
  region_name: '北京一区',
  price: 800,
  discount_price: 640,
  inventory: 3,
  mark: {
    resource: { device_name: 'RTX 4090 x 1', region: 'beijing-jxq-p1', gpu_name: 'RTX 4090', gpu_count: 1, gpu_memory: 24560, memory: 64512, cpu_cores: 16 },
    mark: 'bWFyay1leGFtcGxl',
  },
};

describe('compute: formatting and wizard rules', () => {
  it('prices are points per second shown as yuan per hour', () => {
    assert.equal(yuanPerHour(16416).toFixed(2), '59.10'); // 8×H20 in the platform's example
    assert.equal(formatRegionPrice(region), '¥2.304/h (−20%, was ¥2.88/h)');
    assert.equal(formatRegionPrice({ ...region, discount_price: null }), '¥2.88/h');
    assert.equal(formatRegionPrice({ ...region, price: null, discount_price: null }), 'price n/a');
  });

  it('labels devices by GPU and count, sizes in GB from MiB', () => {
    assert.equal(deviceLabel({ device_name: 'RTX 4090 x 2', gpu_name: 'RTX 4090', gpu_count: 2 }), 'RTX 4090 × 2');
    assert.equal(deviceLabel({ device_name: 'CPU 16C', gpu_name: '', gpu_count: 0 }), 'CPU 16C');
    assert.equal(formatMiB(24560), '24 GB');
    assert.equal(formatMiB(1536), '1.5 GB');
  });

  it('maps every task status to its icon', () => {
    assert.deepEqual(
      (['Pending', 'Running', 'Paused', 'End', 'Other'] as const).map(taskStatusIcon),
      ['sync~spin', 'pass', 'debug-pause', 'circle-slash', 'question'],
    );
  });

  it('validates ports, node counts, env and names as the wizard does', () => {
    assert.deepEqual(parsePorts('8080, 80'), { ports: [8080, 80] });
    assert.ok('error' in parsePorts('0'));
    assert.ok('error' in parsePorts('65536'));
    assert.ok('error' in parsePorts('80,80'));
    assert.ok('error' in parsePorts('http'));
    assert.ok('error' in parsePorts(''));
    assert.deepEqual(parsePoints(' 2 '), { points: 2 });
    assert.ok('error' in parsePoints('0'));
    assert.ok('error' in parsePoints('1.5'));
    assert.deepEqual(parseEnv('A=1; B = x=y ;'), { env: { A: '1', B: 'x=y' } });
    assert.ok('error' in parseEnv('1A=2'));
    assert.ok('error' in parseEnv('NOEQUALS'));
    assert.deepEqual(parseEnv(''), { env: {} });
    assert.equal(validateTaskName('  '), 'Enter a task name.');
    assert.equal(validateTaskName('推理-服务'), undefined);
  });

  it('builds the platform body: resources copied from the region, one service with ports, env and start command', () => {
    const body = buildTaskCreateBody({
      name: ' demo ',
      region,
      image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0',
      ports: [6688, 80],
      points: 2,
      env: { A: '1', B: '2' },
      startCommand: 'python serve.py',
    });
    assert.deepEqual(body, {
      task_type: 'Deployment',
      task_name: 'demo',
      points: 2,
      resources: [{ mark: region.mark.mark, resource: region.mark.resource, region_name: '北京一区' }],
      services: [
        {
          service_name: 'dailyhot',
          service_image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0',
          remote_ports: [{ service_port: 6688 }, { service_port: 80 }],
          env: 'A=1\nB=2',
          start_script_v2: { command: 'python serve.py', args: [] },
        },
      ],
    });
    const bare = buildTaskCreateBody({ name: 'x', region, image: 'nginx', ports: [80], points: 1 });
    assert.equal(bare.services[0]?.env, null);
    assert.deepEqual(bare.services[0]?.start_script_v2, { command: null, args: [] });
    assert.equal(serviceNameFor('registry.example.com/team/My_Model@sha256:abc'), 'my-model');
  });
});
