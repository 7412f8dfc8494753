// The Tasks view at scale: what it costs before the first rows can show, for an account with 2,000
// tasks (1,950 ended) against one with 20, side by side against the sandbox over loopback.
// "First rows" = the view's load resolved (active tasks and the Ended group's count known); the
// ended tasks themselves load only when the group is expanded. Goal: ≤ 2× the small
// account in requests and in time. For contrast: reading every task before showing anything.
// Run: npm run compile-tests && node out/test/bench/tasksView.js   (or `npm run bench -- tasks`).

import type { ComputeClient } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import { listTasks, TASK_FILTER_STATUSES } from '../../src/core/tasks/listing';
import { TasksViewData } from '../../src/core/tasks/tasksViewData';
import { endedTaskPage, TASK_STATE } from '../../src/core/tasks/taskState';

/** The view's data over the store's task listing (what the remote-state store reads per poll). */
const viewData = (client: ComputeClient): TasksViewData => new TasksViewData((page, size, signal) => endedTaskPage(client, page, size, signal), (signal) => TASK_STATE.list(client, signal ?? new AbortController().signal));
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';

const ROUNDS = 21;
const GOAL = 2;

interface Account {
  name: string;
  sandbox: Sandbox;
  /** Every request the client makes is counted here. */
  counter: { requests: number };
  client: ComputeClient;
}

/** A client whose calls are counted (requests made = calls: the sandbox answers without faults). */
function countingClient(sandbox: Sandbox, counter: { requests: number }): ComputeClient {
  const client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }) });
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'call') {
        return (...args: Parameters<ComputeClient['call']>) => {
          counter.requests += 1;
          return target.call(...args);
        };
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

async function account(name: string, seed: { running: number; pending: number; paused: number; ended: number }): Promise<Account> {
  const sandbox = await startSandbox({ pendingMs: 0 });
  sandbox.seedTasks(seed); // plus the sandbox's two start-up tasks (one Running, one Paused)
  const counter = { requests: 0 };
  return { name, sandbox, counter, client: countingClient(sandbox, counter) };
}

interface Measure {
  ms: number;
  requests: number;
  rows: number;
}

/** Times `run` from its start, or from the moment it calls `restart` (to time a poll after a first load). */
async function measure(target: Account, run: (client: ComputeClient, restart: () => void) => Promise<number>): Promise<Measure> {
  target.counter.requests = 0;
  let started = performance.now();
  const rows = await run(target.client, () => {
    target.counter.requests = 0;
    started = performance.now();
  });
  return { ms: performance.now() - started, requests: target.counter.requests, rows };
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

export async function runTasksViewBench(): Promise<void> {
  const small = await account('20 tasks (5 active)', { running: 2, pending: 1, paused: 0, ended: 15 });
  const large = await account('2,000 tasks (50 active, 1,950 ended)', { running: 30, pending: 10, paused: 8, ended: 1950 });
  try {
    const cases: Record<string, (client: ComputeClient, restart: () => void) => Promise<number>> = {
      // What the view does: active tasks + the Ended group's first page, in parallel.
      'Tasks view first rows': async (client) => (await viewData(client).load(undefined)).tasks.length,
      // A poll of a loaded view where nothing ended: the active list only (its time grows with the
      // active rows, here 10×, not with the ended history).
      'Tasks view poll': async (client, restart) => {
        const model = viewData(client);
        const first = await model.load(undefined);
        restart();
        return (await model.load(first)).tasks.length;
      },
      // Contrast: read every task before showing any.
      'naive: every task first': async (client) => (await listTasks(client, { statuses: TASK_FILTER_STATUSES })).items.length,
    };
    const results = new Map<string, { small: Measure[]; large: Measure[] }>();
    for (let round = -1; round < ROUNDS; round++) {
      for (const [name, run] of Object.entries(cases)) {
        const pair = { small: await measure(small, run), large: await measure(large, run) };
        if (round < 0) continue; // warm-up
        const entry = results.get(name) ?? { small: [], large: [] };
        entry.small.push(pair.small);
        entry.large.push(pair.large);
        results.set(name, entry);
      }
    }

    console.log(`\nTasks view at scale: ${large.name} vs ${small.name}, sandbox over loopback, median of ${ROUNDS} rounds`);
    console.log(`  ${'case'.padEnd(28)}${'requests'.padEnd(16)}${'ms to rows'.padEnd(22)}${'active rows'.padEnd(14)}ratio (requests, time)`);
    for (const [name, entry] of results) {
      const requests = [median(entry.small.map((m) => m.requests)), median(entry.large.map((m) => m.requests))];
      const ms = [median(entry.small.map((m) => m.ms)), median(entry.large.map((m) => m.ms))];
      const rows = [median(entry.small.map((m) => m.rows)), median(entry.large.map((m) => m.rows))];
      const timeRatio = median(entry.large.map((m, i) => m.ms / (entry.small[i]?.ms ?? Number.NaN)));
      const requestRatio = (requests[1] ?? 0) / (requests[0] ?? 1);
      const goal = name === 'Tasks view first rows' ? (requestRatio <= GOAL && timeRatio <= GOAL ? `  goal ≤ ${GOAL}× met` : `  goal ≤ ${GOAL}× MISSED`) : '';
      console.log(
        `  ${name.padEnd(28)}${`${requests[0]} → ${requests[1]}`.padEnd(16)}${`${ms[0]?.toFixed(1)} → ${ms[1]?.toFixed(1)}`.padEnd(22)}${`${rows[0]} → ${rows[1]}`.padEnd(14)}` +
          `${requestRatio.toFixed(2)}×, ${timeRatio.toFixed(2)}×${goal}`,
      );
    }
  } finally {
    await Promise.all([small.sandbox.close(), large.sandbox.close()]);
  }
}

if (require.main === module) {
  runTasksViewBench().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
