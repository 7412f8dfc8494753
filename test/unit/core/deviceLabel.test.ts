// The one device label (core/deviceLabel.ts; the glossary's "RTX 4090 × 1", never the platform's
// "x 1") wherever a platform device is shown: the Jupyter-task picker, the spec stock diagnostics, a
// Run on GPU config that names a device gone, the agent tools. Server and workspace text stays bounded
// and escaped. The raw label "H20 x 8" fails each of these on the code before the one label.
import '../helpers/englishL10n';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ComputeClient } from '../../../src/core/compute/api';
import { countOf, deviceLabel, MAX_DEVICE_LABEL_CHARS } from '../../../src/core/deviceLabel';
import { findRunResource, runServices } from '../../../src/core/jobs/runOnGpu';
import { checkSpec } from '../../../src/core/specs/runner';
import type { TaskSpec } from '../../../src/core/specs/types';
import { specFromTask } from '../../../src/core/specs/fromLive';
import { costLine } from '../../../src/core/tools/pricing';
import { jupyterTaskItem } from '../../../src/vscode/notebooks/jupyterTaskPick';
import { deviceLabel as listLabel, taskPlacement } from '../../../src/vscode/ui/format';
import { DEVICES, liveTask } from '../specs/fixtures';
import { specServicesOver } from '../../../src/core/specs/specServices';

const RAW = /\bx ?\d/;
const searchClient = (devices = DEVICES): ComputeClient => ({ call: async () => ({ count: devices.length, results: devices }) }) as unknown as ComputeClient;

describe('device labels: one formatter, "×" everywhere, untrusted text bounded', () => {
  it('the lists and the core share the one function', () => {
    assert.equal(listLabel, deviceLabel);
  });

  it('reads GPU fields as "model × count"; a device without GPU fields keeps its name with the platform\'s "x 8" written "× 8"', () => {
    assert.equal(deviceLabel({ device_name: 'RTX 4090 x 2', gpu_name: 'RTX 4090', gpu_count: 2 }), 'RTX 4090 × 2');
    assert.equal(deviceLabel({ device_name: 'H20 x 8', gpu_name: null, gpu_count: 8 }), 'H20 × 8');
    assert.equal(deviceLabel({ device_name: 'RTX 4090 X 1' }), 'RTX 4090 × 1');
    assert.equal(deviceLabel({ device_name: 'CPU 16C', gpu_name: '', gpu_count: 0 }), 'CPU 16C');
  });

  it("a count sent as text (the node list types gpu_count and cpu_cores as strings) reads as the number", () => {
    assert.equal(deviceLabel({ device_name: 'A100 x 4', gpu_name: 'A100', gpu_count: '2' }), 'A100 × 2');
    assert.equal(deviceLabel({ device_name: 'A100 x 4', gpu_name: 'A100', gpu_count: ' 8 ' }), 'A100 × 8');
    assert.deepEqual(['16', 16, '0', ' 4', '4.0', 'x', null, undefined, {}, 1e5].map(countOf), [16, 16, 0, 4, undefined, undefined, undefined, undefined, undefined, undefined]);
  });

  it('a count that is not a whole number 1–9999 is no count; a name that is no string reads empty', () => {
    for (const gpu_count of [Number.NaN, -1, 1.5, 1e9, Number.POSITIVE_INFINITY, '2.5', '1e3', '', 'two', '-2', '99999', null]) {
      assert.equal(deviceLabel({ device_name: 'A100 x 4', gpu_name: 'A100', gpu_count }), 'A100 × 4', String(gpu_count));
    }
    assert.equal(deviceLabel({ device_name: 42 as unknown as string, gpu_name: { evil: 1 } as unknown as string, gpu_count: 1 }), '');
  });

  it('escapes control and bidi characters and bounds a long name (one pass)', () => {
    const hostile = deviceLabel({ gpu_name: 'RTX\u001b[31m\n4090\u202e', gpu_count: 1 });
    assert.ok(!/[\u0000-\u001f\u202e]/.test(hostile), hostile);
    assert.match(hostile, /× 1$/);
    const long = deviceLabel({ device_name: `${'A'.repeat(5_000_000)} x 8` });
    assert.ok(long.length < MAX_DEVICE_LABEL_CHARS + 20, `${long.length} characters`);
    const blanks = deviceLabel({ device_name: `${' '.repeat(200_000)}x` });
    assert.ok(blanks.length < MAX_DEVICE_LABEL_CHARS + 20);
  });

  it('the Jupyter-task picker shows where the task runs as the lists do, region bounded', () => {
    const task = liveTask({ resources: [{ resource: { device_name: 'H20 x 8', region: 'hebeif-1', gpu_name: null, gpu_count: 8, gpu_memory: 0, memory: 0, cpu_cores: 0 }, region_name: `河北一区\u0007${'区'.repeat(500)}`, mark: 'm' }] });
    const item = jupyterTaskItem(task, undefined);
    assert.match(item.detail, /^H20 × 8 · 河北一区\\u\{7\}/);
    assert.ok(item.detail.length < 120, item.detail);
    assert.doesNotMatch(item.detail, RAW);
    assert.equal(taskPlacement(liveTask({ resources: [] })), undefined);
  });

  it('the spec stock diagnostics name the device by its label', async () => {
    const saved = specFromTask(liveTask(), 'sandbox');
    const spec: TaskSpec = { ...saved.spec, resource: { gpu: 'H20', gpuCount: 8, region: 'hebeif-1' } };
    const checks = await checkSpec(spec, { services: specServicesOver(() => searchClient()), resolveSecret: async () => undefined });
    const stock = checks.find((check) => check.path[0] === 'resource');
    assert.ok(stock, JSON.stringify(checks));
    assert.match(stock.message, /^H20 × 8 in 河北一区/);
    assert.doesNotMatch(stock.message, RAW);
    const soldOut = DEVICES.map((device) => ({ ...device, regions: device.regions.map((region) => ({ ...region, inventory: 0 })) }));
    const refused = await checkSpec(spec, { services: specServicesOver(() => searchClient(soldOut)), resolveSecret: async () => undefined });
    assert.match(refused.find((check) => check.severity === 'error')?.message ?? '', /^H20 × 8 is sold out/);
  });

  it('a Run on GPU config naming a device no longer offered says its label, and the agent tools price the label', async () => {
    await assert.rejects(findRunResource(runServices(() => searchClient()).resources, { resource: { deviceName: 'RTX 5090 x 1', region: 'nowhere' } }), (error: Error) => error.message === 'RTX 5090 × 1 is no longer offered in nowhere.');
    await assert.rejects(findRunResource(runServices(() => searchClient()).resources, { resource: { deviceName: 'RTX\u001b[2J', region: 'x\u202e' } }), (error: Error) => !/[\u001b\u202e]/.test(error.message));
    assert.match(costLine(2, DEVICES[1]!, '河北一区', 100), /^2 × H20 × 8 in 河北一区/);
  });
});
