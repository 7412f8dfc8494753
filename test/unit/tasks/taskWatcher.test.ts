import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ComputeClient, TaskStatus, TaskSummary } from '../../../src/core/compute/api';
import type { NodeLook, TaskEvent } from '../../../src/core/tasks/taskEvents';
import { diffNodes, diffTasks } from '../../../src/core/tasks/taskEvents';
import { TaskWatcher } from '../../../src/core/tasks/taskWatcher';
import { TASK_STATE } from '../../../src/core/tasks/taskState';
import { PollScheduler } from '../../../src/core/state/pollScheduler';
import { FakeTime, flush } from '../../helpers/fakeTimers';
import { assertLinearWork, CountingMap, countReads, type WorkTally } from '../../helpers/linearTime';

function task(id: number, status: TaskStatus, url?: string): TaskSummary {
  return {
    task_id: id,
    task_name: `task-${id}`,
    status,
    points: 1,
    runing_points: status === 'Running' ? 1 : 0,
    billing_value: 0,
    forecast_value: 0,
    create_time: '2026-11-24T12:00:00+08:00',
    resources: [],
    services: [{ service_id: 1, service_name: 's', service_image: 'i', remote_ports: [{ service_port: 80, url: url ?? null }] }],
  };
}

interface Harness {
  time: FakeTime;
  scheduler: PollScheduler<ComputeClient>;
  events: TaskEvent[];
  calls: { list: number; nodes: number };
  tasks: Map<number, TaskSummary>;
  nodes: Map<number, NodeLook[]>;
  dispose(): void;
}

/** A platform that pages `task.list` like the real one (status filter, page, page_size ≤ 100, count). */
function fakeClient(tasks: Map<number, TaskSummary>, calls: { list: number; nodes: number }): ComputeClient {
  const call = (operation: string, params: Record<string, unknown>): Promise<unknown> => {
    if (operation !== 'task.list') throw new Error(`unexpected ${operation}`);
    calls.list++;
    const statuses = String(params.status).split(',');
    const size = Math.min(100, Number(params.page_size ?? 10));
    const page = Number(params.page ?? 1);
    const matching = [...tasks.values()].filter((t) => statuses.includes(t.status)).sort((a, b) => b.task_id - a.task_id);
    return Promise.resolve({ count: matching.length, results: matching.slice((page - 1) * size, page * size) });
  };
  return { call } as unknown as ComputeClient;
}

function harness(options: { withNodes?: boolean } = {}): Harness {
  const time = new FakeTime();
  const events: TaskEvent[] = [];
  const calls = { list: 0, nodes: 0 };
  const tasks = new Map<number, TaskSummary>();
  const nodes = new Map<number, NodeLook[]>();
  const client = fakeClient(tasks, calls);
  const scheduler = new PollScheduler('p1', () => client, { intervalMs: 15_000 }, { now: () => time.now, setTimer: time.setTimer, clearTimer: time.clearTimer });
  const watcher = new TaskWatcher(
    {
      ...(options.withNodes === false
        ? {}
        : {
            listNodes: (taskId: number) => {
              calls.nodes++;
              return Promise.resolve(nodes.get(taskId) ?? []);
            },
          }),
      now: () => time.now,
    },
    10 * 60_000,
  );
  scheduler.store(TASK_STATE).onChange(async (change) => {
    events.push(...(await watcher.take(change)).events);
  });
  return { time, scheduler, events, calls, tasks, nodes, dispose: () => scheduler.dispose() };
}

/** Lets the scheduler's poll (listing, then listeners) run to completion. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await flush();
}

describe('task state diff', () => {
  it('announces nothing on the first look, then Pending → Running with URLs, and Running → End', () => {
    const first = diffTasks(undefined, [task(1, 'Pending'), task(2, 'Running')], 0, 60_000);
    assert.deepEqual(first.events, []);
    const second = diffTasks(first.memory, [task(1, 'Running', 'https://1-80.example.test'), task(2, 'Running')], 15_000, 60_000);
    assert.deepEqual(second.events, [{ kind: 'started', taskId: 1, taskName: 'task-1', urls: ['https://1-80.example.test'] }]);
    const third = diffTasks(second.memory, [task(1, 'Running')], 30_000, 60_000);
    assert.deepEqual(third.events, [{ kind: 'ended', taskId: 2, taskName: 'task-2', from: 'Running' }], 'gone from the watched list = ended');
  });

  it('announces restarts of a task it saw start even when the first node check comes after the crash', () => {
    const nodes = [{ point_id: 1, name: 'n1', status: 'Running', describe_dto: { restart_count: 2 } }];
    const task = { taskId: 5, taskName: 't' };
    assert.deepEqual(diffNodes(task, undefined, nodes).events, [], 'a task found running: the first look only records');
    assert.deepEqual(diffNodes(task, undefined, nodes, true).events.map((e) => e.kind), ['nodeRestarted']);
  });

  it('drops URLs that are not http(s)', () => {
    const first = diffTasks(undefined, [task(1, 'Pending')], 0, 60_000);
    const second = diffTasks(first.memory, [task(1, 'Running', 'javascript:alert(1)')], 1, 60_000);
    assert.deepEqual(second.events, [{ kind: 'started', taskId: 1, taskName: 'task-1', urls: [] }]);
  });

  it('is linear in the number of tasks: work counted, n vs 32n', () => {
    // Counted, not timed: every read of a listed task's fields and every lookup in (or step through) the
    // memory of the last look. Linear ≈ 32; searching the list or the memory per task ≈ 1,024.
    const setup = (n: number) => {
      const list = Array.from({ length: n }, (_, i) => task(i + 1, i % 2 ? 'Running' : 'Pending'));
      const later = list.map((t, i) => (i % 3 === 0 ? { ...t, status: 'End' as TaskStatus } : i % 3 === 1 ? { ...t, status: 'Running' as TaskStatus } : t));
      return { later, memory: diffTasks(undefined, list, 0, 1e9).memory };
    };
    assertLinearWork('diffTasks', setup, ({ later, memory }) => {
      const tally: WorkTally = { units: 0 };
      const events = diffTasks(new CountingMap(memory, tally), countReads(later.slice(1), tally), 10, 1e9).events;
      assert.ok(events.length > 0, 'the later look has news');
      return tally.units;
    }, { n: 50 });
  });
});

describe('task watcher fed by the task store (controllable clock)', () => {
  it('makes one listing per interval per 100 tasks, plus at most one node check', async () => {
    for (const count of [1, 10, 200]) {
      const h = harness();
      for (let id = 1; id <= count; id++) h.tasks.set(id, task(id, 'Running'));
      h.scheduler.wake();
      await h.time.advance(0, settle);
      await h.time.advance(10 * 15_000, settle);
      const pages = Math.ceil(count / 100);
      assert.equal(h.calls.list, 11 * pages, `${count} tasks: every page, each interval`);
      assert.equal(h.calls.nodes, 11, `${count} tasks: one node list per interval`);
      h.dispose();
    }
  });

  it('with 150 running and 2,000 ended tasks, a new task is announced started once and nothing ends', async () => {
    const h = harness({ withNodes: false });
    for (let id = 1; id <= 150; id++) h.tasks.set(id, task(id, 'Running'));
    for (let id = 1001; id <= 3000; id++) h.tasks.set(id, task(id, 'End'));
    h.scheduler.wake();
    await h.time.advance(0, settle);
    h.tasks.set(5000, task(5000, 'Pending'));
    h.scheduler.wake();
    await h.time.advance(15_000, settle);
    h.tasks.set(5000, task(5000, 'Running'));
    await h.time.advance(3 * 15_000, settle);
    assert.deepEqual(h.events, [{ kind: 'started', taskId: 5000, taskName: 'task-5000', urls: [] }]);
    assert.equal(h.scheduler.store(TASK_STATE).items.filter((t) => t.status === 'Running').length, 151);
    h.dispose();
  });

  it('sees a crash loop in a task that just started within two polls, even among 300 running tasks', async () => {
    const h = harness();
    for (let id = 1; id <= 300; id++) h.tasks.set(id, task(id, 'Running'));
    h.tasks.set(1000, task(1000, 'Pending'));
    h.scheduler.wake();
    await h.time.advance(0, settle);
    h.tasks.set(1000, task(1000, 'Running'));
    h.nodes.set(1000, [{ point_id: 7, name: 'n7', status: 'Running', describe_dto: { restart_count: 0 } }]);
    await h.time.advance(2 * 15_000, settle);
    assert.ok(h.events.some((e) => e.kind === 'started' && e.taskId === 1000));
    h.nodes.set(1000, [{ point_id: 7, name: 'n7', status: 'Running', describe_dto: { restart_count: 3 } }]);
    const nodesBefore = h.calls.nodes;
    await h.time.advance(2 * 15_000, settle);
    assert.ok(h.events.some((e) => e.kind === 'nodeRestarted' && e.taskId === 1000), 'seen within two polls');
    assert.equal(h.calls.nodes - nodesBefore, 2, 'still one node list per poll');
    h.dispose();
  });

  it('makes no request while every task is Paused or ended, until woken', async () => {
    const h = harness();
    h.tasks.set(1, task(1, 'Paused'));
    h.tasks.set(2, task(2, 'End'));
    h.scheduler.wake();
    await h.time.advance(0, settle);
    assert.equal(h.calls.list, 1);
    assert.equal(h.time.pending, 0, 'nothing scheduled');
    await h.time.advance(3600_000, settle);
    assert.equal(h.calls.list, 1, 'an hour later, still one request');
    h.tasks.set(1, task(1, 'Pending'));
    h.scheduler.wake();
    await h.time.advance(0, settle);
    assert.equal(h.calls.list, 2);
    assert.equal(h.time.nextDelay, 15_000);
    h.dispose();
  });

  it('announces Pending → Running, stuck in Pending, a node restart and a node failure, each once', async () => {
    const h = harness();
    h.tasks.set(1, task(1, 'Pending'));
    h.tasks.set(2, task(2, 'Pending'));
    h.scheduler.wake();
    await h.time.advance(0, settle);
    h.tasks.set(1, task(1, 'Running', 'https://one.example.test'));
    h.nodes.set(1, [{ point_id: 11, name: 'n11', status: 'Running', describe_dto: { restart_count: 0 } }]);
    await h.time.advance(15_000, settle);
    assert.deepEqual(h.events.map((e) => e.kind), ['started']);
    h.nodes.set(1, [{ point_id: 11, name: 'n11', status: 'Running', describe_dto: { restart_count: 1 }, containers: [{ reason: 'Error', message: 'OOMKilled' }] }]);
    await h.time.advance(15_000, settle);
    assert.deepEqual(h.events.at(-1), { kind: 'nodeRestarted', taskId: 1, taskName: 'task-1', pointId: 11, nodeName: 'n11', restartCount: 1, reason: 'Error: OOMKilled' });
    h.nodes.set(1, [{ point_id: 11, name: 'n11', status: 'Failed', describe_dto: { restart_count: 1 } }]);
    await h.time.advance(15_000, settle);
    assert.equal(h.events.at(-1)?.kind, 'nodeFailed');
    await h.time.advance(10 * 60_000, settle);
    const stuck = h.events.filter((e) => e.kind === 'stuckPending');
    assert.equal(stuck.length, 1, 'stuck announced once');
    assert.equal(stuck[0]?.taskId, 2);
    assert.equal(h.events.filter((e) => e.kind === 'nodeRestarted').length, 1);
    h.dispose();
  });
});
