// Drives the remote-state store against a real sandbox on a fake clock: one PollScheduler per
// "profile" (each its own client), and the list requests (tasks, jobs, volumes) the sandbox received per interval.
// Shared by the contract test (test/contract/state-polling.test.ts) and the benchmark.

import type { ComputeClient, Device, TaskCreateBody, TaskSummary } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import type { StateChange } from '../../src/core/state/definition';
import { JOB_STATE } from '../../src/core/jobs/jobState';
import { VOLUME_STATE } from '../../src/core/nas/volumeState';
import { PollScheduler } from '../../src/core/state/pollScheduler';
import { TASK_STATE } from '../../src/core/tasks/taskState';
import type { RecordedRequest, Sandbox } from '../sandbox/types';
import { FakeTime } from './fakeTimers';

export const INTERVAL_MS = 15_000;
export const TASK_LIST_PATH = '/api/deployment/task/search';
export const JOB_LIST_PATH = '/api/task/job/search';
export const VOLUME_LIST_PATH = '/api/storage/nas/v1/list';

export function sandboxClient(sandbox: Sandbox): ComputeClient {
  return createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }) });
}

/** Counts requests the sandbox recorded since the last call (its log keeps the newest 200, newest first). */
export function requestCounter(sandbox: Sandbox): (prefix: string) => number {
  let newest: RecordedRequest | undefined = sandbox.requests[0];
  return (prefix) => {
    const log = sandbox.requests;
    const index = newest === undefined ? log.length : log.indexOf(newest);
    if (index < 0) throw new Error('more than 200 requests between two counts: count more often');
    const fresh = log.slice(0, index);
    newest = log[0];
    return fresh.filter((request) => request.path.startsWith(prefix)).length;
  };
}

export interface Watched {
  time: FakeTime;
  schedulers: PollScheduler<ComputeClient>[];
  changes: StateChange<TaskSummary>[];
  /** Lets real I/O the schedulers started finish (bounded; never an assertion about time). */
  settle(): Promise<void>;
  dispose(): void;
}

/** `profiles` schedulers on one fake clock, each with its own client to the sandbox; `allKinds` adds jobs and volumes to tasks (as the extension does). */
export function watchProfiles(sandbox: Sandbox, profiles: number, allKinds = false): Watched {
  const time = new FakeTime();
  const changes: StateChange<TaskSummary>[] = [];
  const schedulers = Array.from({ length: profiles }, (_, index) => {
    const client = sandboxClient(sandbox);
    const scheduler = new PollScheduler(`profile-${index + 1}`, () => client, { intervalMs: INTERVAL_MS }, { now: () => time.now, setTimer: time.setTimer, clearTimer: time.clearTimer });
    scheduler.store(TASK_STATE).onChange((change) => {
      changes.push(change);
    });
    if (allKinds) {
      scheduler.store(JOB_STATE);
      scheduler.store(VOLUME_STATE);
    }
    return scheduler;
  });
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 2000 && schedulers.some((scheduler) => scheduler.busy); i++) await new Promise((resolve) => setTimeout(resolve, 2));
  };
  return { time, schedulers, changes, settle, dispose: () => schedulers.forEach((scheduler) => scheduler.dispose()) };
}

/** Task-list requests per interval over `intervals` intervals, after a first look. */
export async function listRequestsPerInterval(sandbox: Sandbox, profiles: number, intervals: number): Promise<number[]> {
  return (await kindRequestsPerInterval(sandbox, profiles, intervals, false)).tasks;
}

/** List requests per interval for each kind (tasks, jobs, volumes), every kind watched, after a first look. */
export async function kindRequestsPerInterval(sandbox: Sandbox, profiles: number, intervals: number, allKinds = true): Promise<{ tasks: number[]; jobs: number[]; volumes: number[] }> {
  const watched = watchProfiles(sandbox, profiles, allKinds);
  const counters = { tasks: requestCounter(sandbox), jobs: requestCounter(sandbox), volumes: requestCounter(sandbox) };
  const paths = { tasks: TASK_LIST_PATH, jobs: JOB_LIST_PATH, volumes: VOLUME_LIST_PATH };
  const kinds = ['tasks', 'jobs', 'volumes'] as const;
  try {
    for (const scheduler of watched.schedulers) scheduler.wake();
    await watched.time.advance(0, watched.settle);
    for (const kind of kinds) counters[kind](paths[kind]);
    const perInterval = { tasks: [] as number[], jobs: [] as number[], volumes: [] as number[] };
    for (let i = 0; i < intervals; i++) {
      await watched.time.advance(INTERVAL_MS, watched.settle);
      for (const kind of kinds) perInterval[kind].push(counters[kind](paths[kind]));
    }
    return perInterval;
  } finally {
    watched.dispose();
  }
}

/** Creates `n` running tasks through the platform (1 node each). */
export async function createTasks(client: ComputeClient, n: number, prefix = 'state'): Promise<number[]> {
  const devices = await client.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
  const region = devices.results.flatMap((device: Device) => device.regions).find((candidate) => candidate.inventory > 0);
  if (!region) throw new Error('the sandbox has no free region');
  const body = (index: number): TaskCreateBody => ({
    task_name: `${prefix}-${index}`,
    points: 1,
    resources: [{ mark: region.mark.mark, resource: region.mark.resource, region_name: region.region_name }],
    services: [{ service_name: 'web', service_image: 'nginx', remote_ports: [{ service_port: 80 }] }],
  });
  const ids: number[] = [];
  for (let index = 0; index < n; index++) ids.push((await client.call('task.create', body(index))).task_id);
  return ids;
}
