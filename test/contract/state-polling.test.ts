// The remote-state store against the strict sandbox, requests counted at the sandbox: with 150
// running and 2,000 ended tasks a new task is one "started" and no "ended"; every running task is
// in the store (the burn rate's input); each interval costs one listing (its pages) per profile;
// nothing is sent at rest; batch jobs and NAS volumes ride the same loop (listed only while they
// move). Timers are fake, requests are real.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ComputeClient, Device } from '../../src/core/compute/api';
import { burnRate } from '../../src/core/spend/spend';
import type { TaskEvent } from '../../src/core/tasks/taskEvents';
import { TaskWatcher } from '../../src/core/tasks/taskWatcher';
import { TASK_STATE } from '../../src/core/tasks/taskState';
import { buildJobBody } from '../../src/core/jobs/jobBody';
import { INTERVAL_MS, TASK_LIST_PATH, createTasks, kindRequestsPerInterval, listRequestsPerInterval, requestCounter, sandboxClient, watchProfiles } from '../helpers/statePolling';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';

/** Every Running task, read independently of the store (the test's own truth). */
async function runningIds(client: ComputeClient): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const result = await client.call('task.list', { type: 'Deployment', status: 'Running', page, page_size: 100 });
    ids.push(...result.results.map((task) => task.task_id));
    if (result.results.length < 100) return ids.sort((a, b) => a - b);
  }
}

describe('remote-state store on a heavy account (150 running, 2,000 ended)', () => {
  let sandbox: Sandbox;
  let client: ComputeClient;

  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0 });
    sandbox.seedTasks({ running: 150, ended: 2000 });
    client = sandboxClient(sandbox);
  });
  after(() => sandbox.close());

  it('a new task: exactly one "started", no "ended"; every running task is in the store', async () => {
    const watched = watchProfiles(sandbox, 1);
    const scheduler = watched.schedulers[0];
    assert.ok(scheduler);
    const events: TaskEvent[] = [];
    const watcher = new TaskWatcher({ now: () => watched.time.now }, 10 * 60_000);
    scheduler.store(TASK_STATE).onChange(async (change) => {
      events.push(...(await watcher.take(change)).events);
    });
    try {
      scheduler.wake();
      await watched.time.advance(0, watched.settle);
      const [created] = await createTasks(client, 1, 'fresh');
      scheduler.wake();
      await watched.time.advance(INTERVAL_MS, watched.settle);
      await watched.time.advance(3 * INTERVAL_MS, watched.settle);
      assert.deepEqual(
        events.map((event) => `${event.kind} ${event.taskId}`),
        [`started ${created}`],
      );
      const store = scheduler.store(TASK_STATE);
      const inStore = store.items.filter((task) => task.status === 'Running').map((task) => task.task_id).sort((a, b) => a - b);
      assert.deepEqual(inStore, await runningIds(client));
      assert.ok(inStore.length > 150);
      // The burn rate counts every running task the store holds (priced or not).
      const rate = burnRate(store.items, () => 1);
      assert.equal(rate.running, inStore.length);
    } finally {
      watched.dispose();
    }
  });

  it('costs one listing per profile per interval (its pages), two profiles twice that, nothing for ended tasks', async () => {
    const active = (await client.call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused', page: 1, page_size: 1 })).count;
    const pages = Math.ceil(active / 100);
    assert.deepEqual(await listRequestsPerInterval(sandbox, 1, 4), [pages, pages, pages, pages]);
    assert.deepEqual(await listRequestsPerInterval(sandbox, 2, 4), [2 * pages, 2 * pages, 2 * pages, 2 * pages]);
  });
});

describe('remote-state store on a small account', () => {
  let sandbox: Sandbox;
  let client: ComputeClient;

  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0 });
    client = sandboxClient(sandbox);
  });
  after(() => sandbox.close());

  it('one list request per profile per interval while a task runs', async () => {
    assert.deepEqual(await listRequestsPerInterval(sandbox, 1, 3), [1, 1, 1]);
    assert.deepEqual(await listRequestsPerInterval(sandbox, 2, 3), [2, 2, 2]);
  });

  it('no request at all while every task is at rest, until woken', async () => {
    const moving = await client.call('task.list', { type: 'Deployment', status: 'Pending,Running', page: 1, page_size: 100 });
    for (const task of moving.results) await client.call('task.pause', { task_id: task.task_id });
    const watched = watchProfiles(sandbox, 2);
    const count = requestCounter(sandbox);
    try {
      for (const scheduler of watched.schedulers) scheduler.wake();
      await watched.time.advance(0, watched.settle);
      assert.equal(count(TASK_LIST_PATH), 2, 'one look per profile');
      await watched.time.advance(240 * INTERVAL_MS, watched.settle); // an hour of intervals
      assert.equal(count(TASK_LIST_PATH), 0, 'then quiet');
      assert.equal(watched.time.pending, 0);
    } finally {
      watched.dispose();
    }
  });
});

describe('batch jobs and NAS volumes on the same poll loop', () => {
  let sandbox: Sandbox;
  let client: ComputeClient;

  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0, jobPendingMs: 0 });
    client = sandboxClient(sandbox);
  });
  after(() => sandbox.close());

  it('a running job costs one job listing per interval, volumes at rest none; once it ended, nothing', async () => {
    const devices = await client.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
    const region = devices.results.filter((device: Device) => device.gpu_count === 1).flatMap((device: Device) => device.regions).find((candidate) => candidate.inventory > 0);
    assert.ok(region);
    const resource = { resource: region.mark.resource, region_name: region.region_name, mark: region.mark.mark };
    const body = buildJobBody({ name: 'watched', resource, image: 'img', command: 'sleep 30', spot: false, timeoutSec: 60, completions: 1, parallelism: 1, indexed: false, retries: 0, env: [] });
    const { task_id: id } = await client.call('job.create', body);
    try {
      const moving = await kindRequestsPerInterval(sandbox, 1, 3);
      assert.deepEqual(moving.jobs, [1, 1, 1], 'one job listing (one page) per interval while it runs');
      assert.deepEqual(moving.volumes, [0, 0, 0], 'volumes at rest are not listed by the timer');
      assert.deepEqual((await kindRequestsPerInterval(sandbox, 2, 2)).jobs, [2, 2], 'two profiles: twice that');
    } finally {
      await client.call('job.stop', { task_id: id });
    }
    const rest = await kindRequestsPerInterval(sandbox, 1, 3);
    assert.deepEqual(rest.jobs, [0, 0, 0], 'every job ended: no job listing');
    assert.deepEqual(rest.volumes, [0, 0, 0]);
  });
});
