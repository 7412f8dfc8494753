// ALL job polling lives in this file (the one place to swap for the shared remote-state store and its
// one poll loop later): the jobs list on an interval, and following one job — its detail, its pods and
// their logs — until it ends. Callers only see `JobsFeed` (list snapshots) and `followJob` (lines and
// the end), so moving the loop into a store changes nothing else.
// Rates (docs/platform.md): the list at most every 10 s; a followed job's detail and logs every
// `followIntervalMs` (default 3 s) while someone watches it.

import type { ComputeClient, NodeDetail } from '../compute/api';
import { LogFollower } from './logFollower';
import type { JobDetail, JobSummary } from './operations';
import { isEnded, jobPhase } from './status';

export const LIST_INTERVAL_MS = 10_000;
export const FOLLOW_INTERVAL_MS = 3_000;
const MAX_POD_PAGES = 10;
const POD_PAGE_SIZE = 100;

export interface PodLine {
  pod: string;
  /** The pod's position in the node list (oldest first). */
  podIndex: number;
  text: string;
}

export interface FollowHandlers {
  /** New lines of every pod, in order per pod; `gap` when the platform dropped lines in between. */
  onLines(lines: readonly PodLine[], gap: boolean): void;
  onStatus?(job: JobDetail): void;
  /** The job ended; the logs were read once more and flushed before this. */
  onEnd(job: JobDetail, pods: readonly NodeDetail[]): void;
  onError?(error: unknown): void;
}

export interface FollowOptions {
  intervalMs?: number;
  signal?: AbortSignal;
  /** Stop following after the first fetch (for one-shot tool reads). */
  once?: boolean;
}

/** Every pod of a job (the node list, paged), oldest first. */
export async function listPods(client: ComputeClient, jobId: number, signal?: AbortSignal): Promise<NodeDetail[]> {
  const pods: NodeDetail[] = [];
  for (let page = 1; page <= MAX_POD_PAGES; page++) {
    const result = await client.call('node.list', { task_id: jobId, page, page_size: POD_PAGE_SIZE }, signal ? { signal } : undefined);
    pods.push(...(result.results as NodeDetail[]));
    if (pods.length >= result.count || result.results.length === 0) break;
  }
  return pods;
}

/**
 * Follows a job until it ends or `signal` aborts: per tick one detail, one pod list and one log read per
 * pod that is running or has not been read since it finished.
 */
export async function followJob(client: ComputeClient, jobId: number, handlers: FollowHandlers, options: FollowOptions = {}): Promise<void> {
  const followers = new Map<string, LogFollower>();
  const finishedRead = new Set<string>();
  const signal = options.signal;
  const callOptions = signal ? { signal } : undefined;
  let serviceId: number | undefined;

  const readLogs = async (pods: readonly NodeDetail[], final: boolean): Promise<void> => {
    if (serviceId === undefined) return;
    let gap = false;
    const lines: PodLine[] = [];
    for (const [position, pod] of pods.entries()) {
      const key = String(pod.point_id);
      if (pod.status === 'Pending' || finishedRead.has(key)) continue;
      const { logs } = await client.call('node.log', { task_id: jobId, point_id: pod.point_id, service_id: serviceId }, callOptions);
      let follower = followers.get(key);
      if (!follower) followers.set(key, (follower = new LogFollower()));
      const update = follower.update(logs);
      gap ||= update.gap;
      const podIndex = position;
      for (const text of update.lines) lines.push({ pod: pod.name, podIndex, text });
      const done = pod.status !== 'Running';
      if (done || final) {
        for (const text of follower.flush()) lines.push({ pod: pod.name, podIndex, text });
        if (done) finishedRead.add(key);
      }
    }
    if (lines.length > 0 || gap) handlers.onLines(lines, gap);
  };

  for (;;) {
    if (signal?.aborted) return;
    try {
      const job = await client.call('job.detail', { task_id: jobId }, callOptions);
      serviceId ??= job.services[0]?.service_id ?? undefined;
      handlers.onStatus?.(job);
      const ended = isEnded(jobPhase(job));
      const pods = await listPods(client, jobId, signal);
      await readLogs(pods, ended);
      if (ended) {
        handlers.onEnd(job, pods);
        return;
      }
      if (options.once) return;
    } catch (error) {
      if (signal?.aborted) return;
      handlers.onError?.(error);
    }
    await sleep(options.intervalMs ?? FOLLOW_INTERVAL_MS, signal);
  }
}

/** The jobs list, polled while anyone listens; transitions of a job into an ended phase are announced. */
export class JobsFeed {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Set<(jobs: readonly JobSummary[]) => void>();
  private readonly endListeners = new Set<(job: JobSummary) => void>();
  private readonly phases = new Map<number, string>();
  private latest: readonly JobSummary[] = [];
  private running = false;
  private inFlight: Promise<void> | undefined;

  constructor(
    private readonly client: () => ComputeClient | undefined,
    private readonly intervalMs = LIST_INTERVAL_MS,
    private readonly pageSize = 50,
  ) {}

  get jobs(): readonly JobSummary[] {
    return this.latest;
  }

  onJobs(listener: (jobs: readonly JobSummary[]) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Called once when a job seen running (or pending) is next seen ended. */
  onJobEnded(listener: (job: JobSummary) => void): { dispose(): void } {
    this.endListeners.add(listener);
    return { dispose: () => this.endListeners.delete(listener) };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.tick();
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Reads now (a user's refresh or right after a create/stop); throws what the read threw. */
  refresh(): Promise<void> {
    this.inFlight ??= this.read().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  /** Forget what was seen (a profile switch). */
  reset(): void {
    this.phases.clear();
    this.latest = [];
  }

  private async read(): Promise<void> {
    const client = this.client();
    if (!client) return;
    const page = await client.call('job.list', { page: 1, page_size: this.pageSize });
    this.latest = page.results;
    for (const job of page.results) {
      const phase = jobPhase(job);
      const before = this.phases.get(job.task_id);
      this.phases.set(job.task_id, phase);
      if (before !== undefined && !isEnded(before as never) && isEnded(phase)) for (const listener of this.endListeners) listener(job);
    }
    for (const listener of this.listeners) listener(this.latest);
  }

  private async tick(): Promise<void> {
    if (!this.running) return;
    try {
      await this.refresh();
    } catch {
      // The view shows the failure from its own refresh; the loop carries on.
    }
    if (!this.running) return;
    this.timer = setTimeout(() => void this.tick(), this.intervalMs);
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
