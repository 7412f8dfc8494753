// The cost of watching, counted at the sandbox: the task watcher makes one task-list request per
// interval (plus at most one node list) whether a profile has 1 or 40 tasks, and none at all once
// every task is at rest. Timers are fake, requests are real.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ComputeClient, Device, TaskCreateBody } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import type { TaskEvent } from '../../src/core/tasks/taskEvents';
import { TaskWatcher, WATCH_LIST_PARAMS } from '../../src/core/tasks/taskWatcher';
import { FakeTime } from '../helpers/fakeTimers';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';

const INTERVAL_MS = 15_000;

/** Waits for real I/O the watcher started (bounded; never an assertion about time). */
async function settle(watcher: TaskWatcher): Promise<void> {
  for (let i = 0; i < 500 && watcher.busy; i++) await new Promise((resolve) => setTimeout(resolve, 2));
}

describe('polling budget, counted at the sandbox', () => {
  let sandbox: Sandbox;
  let client: ComputeClient;

  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0 });
    client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }) });
  });
  after(() => sandbox.close());

  const count = (prefix: string): number => sandbox.requests.filter((request) => request.path.startsWith(prefix)).length;

  async function createTasks(n: number): Promise<number[]> {
    const devices = await client.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
    const region = devices.results.flatMap((device: Device) => device.regions).find((candidate) => candidate.inventory > 0);
    assert.ok(region);
    const body = (index: number): TaskCreateBody => ({
      task_name: `budget-${index}`,
      points: 1,
      resources: [{ mark: region.mark.mark, resource: region.mark.resource, region_name: region.region_name }],
      services: [{ service_name: 'web', service_image: 'nginx', remote_ports: [{ service_port: 80 }] }],
    });
    const ids: number[] = [];
    for (let index = 0; index < n; index++) ids.push((await client.call('task.create', body(index))).task_id);
    return ids;
  }

  function watcherFor(time: FakeTime, events: TaskEvent[]): TaskWatcher {
    return new TaskWatcher(
      {
        listTasks: async (signal) => (await client.call('task.list', WATCH_LIST_PARAMS, { signal })).results,
        listNodes: async (taskId, signal) => (await client.call('node.list', { task_id: taskId }, { signal })).results,
        now: () => time.now,
        setTimer: time.setTimer,
        clearTimer: time.clearTimer,
      },
      (batch) => events.push(...batch),
      { intervalMs: INTERVAL_MS },
    );
  }

  async function pollFor(intervals: number): Promise<{ lists: number; nodes: number }> {
    const time = new FakeTime();
    const watcher = watcherFor(time, []);
    const lists = count('/api/deployment/task/search');
    const nodes = count('/api/deployment/task/points');
    watcher.wake();
    await settle(watcher);
    await time.advance(intervals * INTERVAL_MS, () => settle(watcher));
    watcher.dispose();
    return { lists: count('/api/deployment/task/search') - lists, nodes: count('/api/deployment/task/points') - nodes };
  }

  it('requests per interval do not depend on the number of tasks', async () => {
    const withSeeds = await pollFor(6);
    await createTasks(40);
    const withForty = await pollFor(6);
    assert.deepEqual(withSeeds, { lists: 7, nodes: 7 });
    assert.deepEqual(withForty, withSeeds, '40 more tasks, the same requests');
  });

  it('makes no request while every task is at rest', async () => {
    const active = await client.call('task.list', { type: 'Deployment', status: 'Pending,Running', page_size: 100 });
    for (const task of active.results) await client.call('task.stop', { task_id: task.task_id });
    const { lists, nodes } = await pollFor(240); // an hour of intervals
    assert.equal(lists, 1, 'one look, then quiet');
    assert.equal(nodes, 0);
  });
});
