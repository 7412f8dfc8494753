import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TaskStatus, TaskSummary } from '../../../src/core/compute/api';
import type { NodeLook, TaskEvent } from '../../../src/core/tasks/taskEvents';
import { diffNodes, diffTasks } from '../../../src/core/tasks/taskEvents';
import { TaskWatcher } from '../../../src/core/tasks/taskWatcher';
import { FakeTime, flush } from '../../helpers/fakeTimers';

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
  watcher: TaskWatcher;
  events: TaskEvent[];
  calls: { list: number; nodes: number };
  tasks: Map<number, TaskSummary>;
  nodes: Map<number, NodeLook[]>;
  failNext: { count: number };
}

function harness(options: { withNodes?: boolean } = {}): Harness {
  const time = new FakeTime();
  const events: TaskEvent[] = [];
  const calls = { list: 0, nodes: 0 };
  const tasks = new Map<number, TaskSummary>();
  const nodes = new Map<number, NodeLook[]>();
  const failNext = { count: 0 };
  const watcher = new TaskWatcher(
    {
      listTasks: () => {
        calls.list++;
        if (failNext.count > 0) {
          failNext.count--;
          return Promise.reject(new Error('503'));
        }
        return Promise.resolve([...tasks.values()].filter((t) => t.status !== 'End'));
      },
      ...(options.withNodes === false
        ? {}
        : {
            listNodes: (taskId: number) => {
              calls.nodes++;
              return Promise.resolve(nodes.get(taskId) ?? []);
            },
          }),
      now: () => time.now,
      setTimer: time.setTimer,
      clearTimer: time.clearTimer,
    },
    (batch) => events.push(...batch),
    { intervalMs: 15_000, stuckAfterMs: 10 * 60_000, unfocusedAfterMs: 5 * 60_000, unfocusedFactor: 4, maxBackoffMs: 240_000 },
  );
  return { time, watcher, events, calls, tasks, nodes, failNext };
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

  it('is linear in the number of tasks: one diff of 8n costs under 3× eight diffs of n (quadratic: 8×)', () => {
    // Normalised per item, so cache effects of the larger maps (about 1.6× here) do not read as growth.
    const setup = (n: number) => {
      const list = Array.from({ length: n }, (_, i) => task(i + 1, i % 2 ? 'Running' : 'Pending'));
      return { list, memory: diffTasks(undefined, list, 0, 1e9).memory };
    };
    const best = (input: ReturnType<typeof setup>, repeats: number): number => {
      let min = Infinity;
      for (let round = 0; round < 9; round++) {
        const started = performance.now();
        for (let r = 0; r < repeats; r++) diffTasks(input.memory, input.list, 10, 1e9);
        min = Math.min(min, performance.now() - started);
      }
      return min;
    };
    const small = setup(1000);
    const large = setup(8000);
    best(small, 8);
    const ratio = best(large, 1) / Math.max(best(small, 8), 0.001);
    assert.ok(ratio < 3, `8n / (8 × n) time ratio ${ratio.toFixed(2)}`);
  });
});

describe('task watcher (controllable clock)', () => {
  it('makes one list request per interval whatever the number of tasks, plus at most one node check', async () => {
    for (const count of [1, 10, 200]) {
      const h = harness();
      for (let id = 1; id <= count; id++) h.tasks.set(id, task(id, 'Running'));
      h.watcher.wake();
      await flush();
      await h.time.advance(10 * 15_000, flush);
      assert.equal(h.calls.list, 11, `${count} tasks: one list per interval`);
      assert.equal(h.calls.nodes, 11, `${count} tasks: one node list per interval`);
      h.watcher.dispose();
    }
  });

  it('sees a crash loop in a task that just started within two polls, even among 300 running tasks', async () => {
    const h = harness();
    for (let id = 1; id <= 300; id++) h.tasks.set(id, task(id, 'Running'));
    h.tasks.set(1000, task(1000, 'Pending'));
    h.watcher.wake();
    await flush();
    h.tasks.set(1000, task(1000, 'Running'));
    h.nodes.set(1000, [{ point_id: 7, name: 'n7', status: 'Running', describe_dto: { restart_count: 0 } }]);
    await h.time.advance(2 * 15_000, flush);
    assert.ok(h.events.some((e) => e.kind === 'started' && e.taskId === 1000));
    h.nodes.set(1000, [{ point_id: 7, name: 'n7', status: 'Running', describe_dto: { restart_count: 3 } }]);
    await h.time.advance(2 * 15_000, flush);
    assert.ok(h.events.some((e) => e.kind === 'nodeRestarted' && e.taskId === 1000), 'seen within two polls');
    assert.equal(h.calls.list, h.calls.nodes, 'still one node list per poll');
    h.watcher.dispose();
  });

  it('makes no request while every task is Paused or ended, until woken', async () => {
    const h = harness();
    h.tasks.set(1, task(1, 'Paused'));
    h.tasks.set(2, task(2, 'End'));
    h.watcher.wake();
    await flush();
    assert.equal(h.calls.list, 1);
    assert.equal(h.time.pending, 0, 'nothing scheduled');
    await h.time.advance(3600_000, flush);
    assert.equal(h.calls.list, 1, 'an hour later, still one request');
    h.tasks.set(1, task(1, 'Pending'));
    h.watcher.wake();
    await flush();
    assert.equal(h.calls.list, 2);
    assert.equal(h.time.nextDelay, 15_000);
    h.watcher.dispose();
  });

  it('announces Pending → Running, stuck in Pending, a node restart and a node failure, each once', async () => {
    const h = harness();
    h.tasks.set(1, task(1, 'Pending'));
    h.tasks.set(2, task(2, 'Pending'));
    h.watcher.wake();
    await flush();
    h.tasks.set(1, task(1, 'Running', 'https://one.example.test'));
    h.nodes.set(1, [{ point_id: 11, name: 'n11', status: 'Running', describe_dto: { restart_count: 0 } }]);
    await h.time.advance(15_000, flush);
    assert.deepEqual(h.events.map((e) => e.kind), ['started']);
    h.nodes.set(1, [{ point_id: 11, name: 'n11', status: 'Running', describe_dto: { restart_count: 1 }, containers: [{ reason: 'Error', message: 'OOMKilled' }] }]);
    await h.time.advance(15_000, flush);
    assert.deepEqual(h.events.at(-1), { kind: 'nodeRestarted', taskId: 1, taskName: 'task-1', pointId: 11, nodeName: 'n11', restartCount: 1, reason: 'Error: OOMKilled' });
    h.nodes.set(1, [{ point_id: 11, name: 'n11', status: 'Failed', describe_dto: { restart_count: 1 } }]);
    await h.time.advance(15_000, flush);
    assert.equal(h.events.at(-1)?.kind, 'nodeFailed');
    await h.time.advance(10 * 60_000, flush);
    const stuck = h.events.filter((e) => e.kind === 'stuckPending');
    assert.equal(stuck.length, 1, 'stuck announced once');
    assert.equal(stuck[0]?.taskId, 2);
    assert.equal(h.events.filter((e) => e.kind === 'nodeRestarted').length, 1);
    h.watcher.dispose();
  });

  it('backs off on errors (doubling, capped) and returns to the interval after a success', async () => {
    const h = harness({ withNodes: false });
    h.tasks.set(1, task(1, 'Running'));
    h.failNext.count = 5;
    h.watcher.wake();
    await flush();
    const delays: (number | undefined)[] = [h.time.nextDelay];
    for (let i = 0; i < 5; i++) {
      await h.time.advance(h.time.nextDelay ?? 0, flush);
      delays.push(h.time.nextDelay);
    }
    assert.deepEqual(delays, [30_000, 60_000, 120_000, 240_000, 240_000, 15_000]);
    h.watcher.dispose();
  });

  it('slows down once the window has been unfocused for long, and not before', async () => {
    const h = harness({ withNodes: false });
    h.tasks.set(1, task(1, 'Running'));
    h.watcher.setFocused(false);
    h.watcher.wake();
    await flush();
    assert.equal(h.time.nextDelay, 15_000);
    await h.time.advance(5 * 60_000, flush);
    assert.equal(h.time.nextDelay, 60_000);
    h.watcher.setFocused(true);
    assert.equal(h.watcher.nextDelayMs(), 15_000);
    h.watcher.dispose();
  });

  it('never polls faster than the platform allows (10 s), whatever the setting', () => {
    const time = new FakeTime();
    const watcher = new TaskWatcher(
      { listTasks: () => Promise.resolve([]), now: () => time.now, setTimer: time.setTimer, clearTimer: time.clearTimer },
      () => undefined,
      { intervalMs: 1000 },
    );
    assert.equal(watcher.nextDelayMs(), 10_000);
  });
});
