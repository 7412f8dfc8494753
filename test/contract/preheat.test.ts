// Image preheat against the strict sandbox (docs/platform.md "Image preheat"): a cluster preheat followed
// by the preheat store to ready and stopped out of the list; a node preheat with an issued mark; one
// refusal per documented rule (exactly one mode, at least one region/resource/service, issued marks,
// the status enum, stop only while Running or Paused), a start that skips the image pull only where a
// finished preheat cached the image, and, for an account that has not applied, every
// preheat call refused in a way the editor words as "not enabled".

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Device } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import { ComputeApiError } from '../../src/core/compute/errors';
import type { PreheatCreateBody, PreheatTask } from '../../src/core/preheat/operations';
import { PREHEAT_STATE, preheatNotEnabled, preheatProgress } from '../../src/core/preheat/preheatState';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';
import { waitUntil } from '../helpers/eventually';
import { inStockTaskBody } from './helpers/inStockTaskBody';

describe('image preheat against the sandbox', () => {
  let sandbox: Sandbox;
  let client: ReturnType<typeof createComputeClient>;
  let mark: string;

  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0 });
    sandbox.preheat.setSyncMs(0);
    client = createComputeClient({
      baseUrl: sandbox.computeBaseUrl,
      credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }),
      retry: { baseDelayMs: 5, maxDelayMs: 100 },
    });
    const devices = await client.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
    const region = devices.results.flatMap((device: Device) => device.regions).find((candidate) => candidate.inventory > 0);
    assert.ok(region);
    mark = region.mark.mark;
  });
  after(() => sandbox.close());

  const service = { service_name: 'main', service_image: 'registry.example.com/team/app:1.0' };
  const cluster = (overrides: Partial<PreheatCreateBody> = {}): PreheatCreateBody => ({ task_name: 'app', regions: [{ region: 'bj-jxq-t1' }], services: [service], ...overrides });
  const refused = (field: RegExp, code = 'C999') => (error: unknown) => error instanceof ComputeApiError && error.code === code && field.test(error.serverMessage);
  const listed = async (): Promise<readonly PreheatTask[]> => (await PREHEAT_STATE.list(client, new AbortController().signal)).items;

  it('lists the regions, and follows a cluster preheat to ready through the store, then out of the list once stopped', async () => {
    const { regions } = await client.call('preheat.regions', {});
    assert.ok(regions.some((region) => region.region === 'bj-jxq-t1'));
    const { task_id } = await client.call('preheat.create', cluster({ regions: regions.map(({ region }) => ({ region })) }));
    const ready = await waitUntil('the preheat to be ready', async () => (await listed()).find((task) => task.task_id === task_id && preheatProgress(task).done));
    assert.deepEqual(preheatProgress(ready), { mode: 'cluster', completed: regions.length, regions: regions.length, done: true });
    assert.equal(PREHEAT_STATE.atRest([ready]), true, 'a ready preheat is at rest: the store stops polling it');
    await client.call('preheat.stop', { task_id });
    assert.equal((await listed()).some((task) => task.task_id === task_id), false, 'a stopped preheat leaves the list');
    await assert.rejects(client.call('preheat.stop', { task_id }), refused(/Running or Paused/, 'C010'), 'only Running or Paused preheats stop');
    assert.equal((await client.call('preheat.detail', { task_id }))?.status, 'End');
  });

  it('a task starts without the image pull where a finished cluster preheat cached its image; other images and a stopped preheat wait for it', async () => {
    sandbox.preheat.setImagePullMs(10 * 60_000);
    try {
      const warmImage = 'registry.example.com/team/warm:1.0';
      const { regions } = await client.call('preheat.regions', {});
      const { task_id: preheatId } = await client.call('preheat.create', cluster({ regions: regions.map(({ region }) => ({ region })), services: [{ service_name: 'main', service_image: warmImage }] }));
      await waitUntil('the preheat to be ready', async () => (await listed()).find((task) => task.task_id === preheatId && preheatProgress(task).done));
      const cold = await client.call('task.create', await inStockTaskBody(client, 'cold', { service_name: 'main', service_image: 'registry.example.com/team/cold:1.0', remote_ports: [] }));
      const warm = await client.call('task.create', await inStockTaskBody(client, 'warm', { service_name: 'main', service_image: warmImage, remote_ports: [] }));
      await waitUntil('the preheated image to run', async () => ((await client.call('task.detail', { task_id: warm.task_id })).status === 'Running' ? true : undefined));
      assert.equal((await client.call('task.detail', { task_id: cold.task_id })).status, 'Pending', 'an image no preheat cached is still being pulled (10 minutes)');
      await client.call('preheat.stop', { task_id: preheatId });
      const afterStop = await client.call('task.create', await inStockTaskBody(client, 'after-stop', { service_name: 'main', service_image: warmImage, remote_ports: [] }));
      assert.equal((await client.call('task.detail', { task_id: afterStop.task_id })).status, 'Pending', 'a stopped preheat caches nothing');
      for (const task_id of [cold.task_id, warm.task_id, afterStop.task_id]) await client.call('task.stop', { task_id });
    } finally {
      sandbox.preheat.setImagePullMs(0);
    }
  });

  it('creates a node preheat with a mark the resource search issued, done when the preheated nodes reach the count', async () => {
    const { task_id } = await client.call('preheat.create', { task_name: 'nodes', resources: [{ mark }], points: 2, services: [service] });
    const ready = await waitUntil('the nodes to be preheated', async () => (await listed()).find((task) => task.task_id === task_id && preheatProgress(task).done));
    assert.deepEqual(preheatProgress(ready), { mode: 'node', available: 2, used: 0, desired: 2, done: true });
  });

  it('refuses each body the docs rule out, naming the field', async () => {
    const create = (body: unknown) => client.call('preheat.create', body as PreheatCreateBody);
    await assert.rejects(create(cluster({ resources: [{ mark }], points: 1 })), refused(/exactly one/), 'both modes');
    await assert.rejects(create({ task_name: 'x', services: [service] }), refused(/exactly one/), 'neither mode');
    await assert.rejects(create(cluster({ regions: [] })), refused(/^regions/), 'no region');
    await assert.rejects(create(cluster({ regions: [{ region: 'mars-1' }] })), refused(/regions\[0\]\.region/), 'a region get_regions does not list');
    await assert.rejects(create(cluster({ points: 1 })), refused(/^points/), 'points in cluster mode');
    await assert.rejects(create({ task_name: 'x', resources: [{ mark: 'hand-made' }], points: 1, services: [service] }), refused(/resources\[0\]\.mark/), 'a mark built by hand');
    await assert.rejects(create({ task_name: 'x', resources: [{ mark }], services: [service] }), refused(/^points/), 'node mode without points');
    await assert.rejects(create({ task_name: 'x', resources: [{ mark }], points: 1, scheduler_strategy: { mode: 'Anywhere' }, services: [service] }), refused(/scheduler_strategy/));
    await assert.rejects(create(cluster({ services: [] })), refused(/^services/), 'no service');
    await assert.rejects(create(cluster({ services: [{ service_name: 'main' } as never] })), refused(/services\[0\]\.service_image/), 'no image');
    await assert.rejects(create(cluster({ task_name: ' ' })), refused(/^task_name/), 'an empty name');
    await assert.rejects(client.call('preheat.list', { status: 'Sleeping' }), refused(/^status/), 'a status outside the enum');
    await assert.rejects(client.call('preheat.list', { task_ids: '1,x' }), refused(/^task_ids/), 'ids that are not ids');
    await assert.rejects(client.call('preheat.stop', { task_id: 999_999 }), refused(/^task_id/), 'an unknown preheat');
  });

  it('refuses every preheat call of an account that has not applied, and the store fails in a way the editor words as "not enabled"', async () => {
    sandbox.preheat.setEnabled(false);
    try {
      const calls: Promise<unknown>[] = [
        client.call('preheat.regions', {}),
        client.call('preheat.create', cluster()),
        client.call('preheat.detail', { task_id: 1 }),
        client.call('preheat.stop', { task_id: 1 }),
        PREHEAT_STATE.list(client, new AbortController().signal),
      ];
      for (const call of calls) await assert.rejects(call, (error: unknown) => preheatNotEnabled(error));
      // Another kind's failure with the same code is not read as "not enabled".
      assert.equal(preheatNotEnabled(new ComputeApiError('C008', 'x', 'job.list', { kind: 'none' } as never, 200, 'List batch jobs')), false);
    } finally {
      sandbox.preheat.setEnabled(true);
    }
  });
});
