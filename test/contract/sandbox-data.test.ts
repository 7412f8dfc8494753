// The sandbox's data behaves like the platform's: catalogue shapes and filters, task create
// validation, list filters and paging, nodes that follow the node count, logs that grow while a
// task runs, and the storage list.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Device, StorageItem, TaskDetail, TaskNode, TaskSummary } from '../../src/core/compute/api';
import { sendToken, type HandResponse } from '../sandbox/handClient';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';
import { waitUntil } from '../helpers/eventually';

type Paged<T> = { count: number; results: T[] };

describe('sandbox data (interface A)', () => {
  let sandbox: Sandbox;
  const get = (path: string): Promise<HandResponse> => sendToken(sandbox.url, sandbox.credentials.tokenMode.token, { path });
  const post = (path: string, body: unknown): Promise<HandResponse> =>
    sendToken(sandbox.url, sandbox.credentials.tokenMode.token, { path, body: JSON.stringify(body) });
  const ok = <T>(response: HandResponse): T => {
    assert.equal(response.code, '0000', String(response.message));
    return response.data as T;
  };

  let devices: Device[];
  const offer = () => {
    const region = devices.flatMap((device) => device.regions).find((candidate) => candidate.inventory > 0 && candidate.price !== null);
    assert.ok(region);
    return { mark: region.mark.mark, resource: region.mark.resource, region_name: region.region_name };
  };
  const taskBody = (overrides: Record<string, unknown> = {}) => ({
    task_name: '数据任务',
    points: 2,
    resources: [offer()],
    services: [
      { service_name: 'web', service_image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0', remote_ports: [{ service_port: 6688 }, { service_port: 80 }], env: null, start_script_v2: { command: null, args: [] } },
    ],
    ...overrides,
  });

  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0 });
    devices = ok<Paged<Device>>(await get('/api/deployment/resource/search?task_type=Deployment&device_type=GpuDevice,CpuDevice')).results;
  });
  after(() => sandbox.close());

  it('the catalogue has GPU and CPU devices over several regions with marks, prices and inventory', () => {
    assert.ok(devices.length >= 8);
    const regionTags = new Set(devices.flatMap((device) => device.regions.map((region) => region.region)));
    assert.ok(regionTags.has('hebeif-1') && regionTags.has('beijing-jxq-p1') && regionTags.has('guangdong'));
    const regions = devices.flatMap((device) => device.regions);
    assert.ok(regions.some((region) => region.inventory === 0), 'some offers are sold out');
    assert.ok(regions.some((region) => region.price === null), 'some offers are not sold');
    for (const region of regions) {
      assert.match(region.mark.mark, /^[A-Za-z0-9+/]+={0,2}$/);
      assert.equal(region.mark.resource.region, region.region);
    }
    assert.equal(new Set(regions.map((region) => region.mark.mark)).size, regions.length, 'marks are unique');
  });

  it('the same seed gives the same catalogue; another seed other prices', async () => {
    const again = await startSandbox({});
    const other = await startSandbox({ seed: 7 });
    try {
      const search = (target: Sandbox) => sendToken(target.url, target.credentials.tokenMode.token, { path: '/api/deployment/resource/search?task_type=Deployment&device_type=GpuDevice,CpuDevice' });
      assert.deepEqual((await search(again)).data, { count: devices.length, results: devices });
      assert.notDeepEqual((await search(other)).data, { count: devices.length, results: devices });
    } finally {
      await Promise.all([again.close(), other.close()]);
    }
  });

  it('resource search filters device_type (comma-separated) and validates values', async () => {
    const gpu = ok<Paged<Device>>(await get('/api/deployment/resource/search?task_type=Deployment&device_type=GpuDevice'));
    const cpu = ok<Paged<Device>>(await get('/api/deployment/resource/search?task_type=Deployment&device_type=CpuDevice'));
    const both = ok<Paged<Device>>(await get('/api/deployment/resource/search?task_type=Deployment&device_type=GpuDevice,CpuDevice'));
    assert.ok(gpu.results.every((device) => device.gpu_count > 0));
    assert.ok(cpu.count >= 1 && cpu.results.every((device) => device.gpu_count === 0));
    assert.equal(both.count, gpu.count + cpu.count);
    const bad = await get('/api/deployment/resource/search?task_type=Deployment&device_type=TpuDevice');
    assert.equal(bad.code, 'C999');
    assert.match(String(bad.message), /^device_type:/);
  });

  describe('task create validation names the field', () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['missing task_name', { task_name: undefined }, /^task_name:/],
      ['points 0', { points: 0 }, /^points:/],
      ['points as a string', { points: '2' }, /^points:/],
      ['no resources', { resources: [] }, /^resources:/],
      ['a mark the sandbox never issued', { resources: [{ mark: 'bm9wZQ==' }] }, /^resources\[0\]\.mark:/],
      ['missing services', { services: undefined }, /^services:/],
      ['a port as a string', { services: [{ service_name: 'a', service_image: 'b', remote_ports: [{ service_port: '80' }] }] }, /^services\[0\]\.remote_ports\[0\]\.service_port:/],
      ['no image', { services: [{ service_name: 'a', remote_ports: [] }] }, /^services\[0\]\.service_image:/],
    ];
    for (const [name, overrides, field] of cases) {
      it(name, async () => {
        const response = await post('/api/deployment/task/create', taskBody(overrides));
        assert.equal(response.code, 'C999');
        assert.equal(response.data, null);
        assert.match(String(response.message), field);
      });
    }
    it('a sold-out offer', async () => {
      const soldOut = devices.flatMap((device) => device.regions).find((region) => region.inventory === 0);
      assert.ok(soldOut);
      const response = await post('/api/deployment/task/create', taskBody({ resources: [{ mark: soldOut.mark.mark }] }));
      assert.equal(response.code, 'C999');
      assert.match(String(response.message), /sold out/);
    });
    it('body that is not JSON', async () => {
      const response = await sendToken(sandbox.url, sandbox.credentials.tokenMode.token, { path: '/api/deployment/task/create', body: '{"task_name":' });
      assert.equal(response.code, 'C999');
      assert.match(String(response.message), /^body:/);
    });
  });

  it('a created task appears in the list, with services, public URLs once Running, and filters', async () => {
    const { task_id: taskId } = ok<{ task_id: number }>(await post('/api/deployment/task/create', taskBody({ task_name: 'findme-列表' })));
    const detail = ok<TaskDetail>(await get(`/api/deployment/task/detail?task_id=${taskId}`));
    assert.equal(detail.status, 'Running');
    assert.equal(detail.points, 2);
    assert.equal(detail.runing_points, 2);
    assert.deepEqual(
      detail.services[0]?.remote_ports.map((port) => port.url),
      [`https://${taskId}-6688.sandbox.invalid`, `https://${taskId}-80.sandbox.invalid`],
    );
    assert.equal(typeof detail.services[0]?.service_id, 'number');
    assert.match(detail.create_time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/);

    const byName = ok<Paged<TaskSummary>>(await get(`/api/deployment/task/search?type=Deployment&status=Running,Pending,Paused,End&search_value=${encodeURIComponent('findme')}`));
    assert.deepEqual(byName.results.map((task) => task.task_id), [taskId]);
    const running = ok<Paged<TaskSummary>>(await get('/api/deployment/task/search?type=Deployment&status=Running,Pending'));
    assert.ok(running.results.every((task) => task.status === 'Running' || task.status === 'Pending'));
    assert.ok(running.results.some((task) => task.task_id === taskId));
    const paused = ok<Paged<TaskSummary>>(await get('/api/deployment/task/search?type=Deployment&status=Paused'));
    assert.ok(paused.count >= 1, 'a paused task is seeded');
    const page = ok<Paged<TaskSummary>>(await get('/api/deployment/task/search?type=Deployment&status=Running,Pending,Paused,End&page=2&page_size=1'));
    assert.equal(page.results.length, 1);
    assert.ok(page.count >= 3);
    assert.equal((await get('/api/deployment/task/search?type=Deployment&status=Broken')).code, 'C999');
    assert.equal((await get('/api/deployment/task/search?type=Deployment&status=End&page=0')).code, 'C999');
  });

  it('change_points changes the node count; nodes have ids and statuses', async () => {
    const { task_id: taskId } = ok<{ task_id: number }>(await post('/api/deployment/task/create', taskBody()));
    const nodes = async () => ok<Paged<TaskNode>>(await get(`/api/deployment/task/points?task_id=${taskId}`)).results;
    assert.equal((await nodes()).length, 2);
    ok(await post('/api/deployment/task/change_points', { task_id: taskId, points: 3 }));
    const three = await nodes();
    assert.equal(three.length, 3);
    assert.ok(three.every((node) => node.status === 'Running' && node.point_id > 0));
    ok(await post('/api/deployment/task/change_points', { task_id: taskId, points: 1 }));
    assert.equal((await nodes()).length, 1);
    assert.equal(ok<TaskDetail>(await get(`/api/deployment/task/detail?task_id=${taskId}`)).points, 1);
    const bad = await post('/api/deployment/task/change_points', { task_id: taskId, points: 0 });
    assert.equal(bad.code, 'C999');
    assert.match(String(bad.message), /^points:/);
  });

  it('node logs grow while the task runs and name unknown ids', async () => {
    const { task_id: taskId } = ok<{ task_id: number }>(await post('/api/deployment/task/create', taskBody({ points: 1 })));
    const node = ok<Paged<TaskNode>>(await get(`/api/deployment/task/points?task_id=${taskId}`)).results[0];
    const service = ok<TaskDetail>(await get(`/api/deployment/task/detail?task_id=${taskId}`)).services[0];
    assert.ok(node && service);
    const logPath = `/api/deployment/task/point_log?task_id=${taskId}&point_id=${node.point_id}&service_id=${service.service_id}`;
    const first = ok<{ logs: string }>(await get(logPath)).logs;
    assert.match(first, /Pulling image "harbor\.suanleme\.cn\/public-hub\/dailyhot:1\.0"/);
    let grown = first;
    // Logs gain a line per second of running time.
    grown = await waitUntil('the log to grow', async () => {
      const logs = ok<{ logs: string }>(await get(logPath)).logs;
      return logs.length > first.length ? logs : undefined;
    }, { everyMs: 100 });
    assert.ok(grown.length > first.length, 'the log grew');
    assert.ok(grown.startsWith(first.split('\n')[0] ?? ''), 'earlier lines are kept');

    const missing = await get(`/api/deployment/task/point_log?task_id=${taskId}&point_id=1&service_id=${service.service_id}`);
    assert.equal(missing.code, 'C999');
    assert.match(String(missing.message), /^point_id:/);
    assert.match(String((await get(`/api/deployment/task/point_log?task_id=${taskId}`)).message), /^point_id: is required/);
  });

  it('the seeded Running task has nodes with logs already', async () => {
    const tasks = ok<Paged<TaskSummary>>(await get('/api/deployment/task/search?type=Deployment&status=Running&search_value=qwen3')).results;
    const seeded = tasks[0];
    assert.ok(seeded);
    const node = ok<Paged<TaskNode>>(await get(`/api/deployment/task/points?task_id=${seeded.task_id}`)).results[0];
    const service = seeded.services[0];
    assert.ok(node && service);
    const logs = ok<{ logs: string }>(await get(`/api/deployment/task/point_log?task_id=${seeded.task_id}&point_id=${node.point_id}&service_id=${service.service_id}`)).logs;
    assert.ok(logs.split('\n').length >= 100);
    assert.ok(seeded.billing_value > 0);
  });

  it('storage list filters storage_type and status', async () => {
    const juicefs = ok<Paged<StorageItem>>(await get('/api/storage/get_storage?storage_type=Juicefs&status=Activate,Unactivated,Delete'));
    assert.ok(juicefs.count >= 2 && juicefs.results.every((item) => item.storage_type === 'Juicefs'));
    const active = ok<Paged<StorageItem>>(await get('/api/storage/get_storage?storage_type=Juicefs&status=Activate&page=1&page_size=10'));
    assert.ok(active.results.every((item) => item.status === 'Activate'));
    assert.ok(active.count < juicefs.count);
    const shared = ok<Paged<StorageItem>>(await get('/api/storage/get_storage?storage_type=ShareStorage&status=Activate,Unactivated,Delete'));
    assert.equal(shared.count, 1);
    assert.equal((await get('/api/storage/get_storage?storage_type=S3&status=Activate')).code, 'C999');
  });

  it('a missing or unknown task_id is a C999 naming task_id', async () => {
    assert.match(String((await get('/api/deployment/task/detail')).message), /^task_id: is required/);
    assert.match(String((await get('/api/deployment/task/detail?task_id=abc')).message), /^task_id:/);
    const unknown = await post('/api/deployment/task/pause', { task_id: 99 });
    assert.equal(unknown.code, 'C999');
    assert.match(String(unknown.message), /^task_id: no task/);
  });
});
