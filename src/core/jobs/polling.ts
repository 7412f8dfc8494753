// Following ONE job the user watches (a log terminal, Run on GPU): its detail, its pods and their logs,
// until it ends. The jobs list is not read here: it is a kind of remote state (JOB_STATE in jobState.ts)
// listed on each profile's one poll loop. Callers see `followJob` (lines and the end) and `listPods`.
// Rates (docs/platform.md): the running pods' logs every `intervalMs` (default 3 s) while someone watches;
// the job's detail and its pod list no more often than the platform's 10 s floor; nothing once it ended
// or the terminal closed.

import type { ComputeClient, NodeDetail } from '../compute/api';
import { POLL_FLOOR_MS } from '../state/pollScheduler';
import { FOLLOW_INTERVAL_MS, NodeLogTail, type NodeLogRead } from './nodeLogTail';
import type { JobDetail } from './operations';
import { isEnded, jobPhase } from './status';

export { FOLLOW_INTERVAL_MS } from './nodeLogTail';
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

/** What following a job reads: its detail, its pods and their logs (JobService gives all three). */
export interface JobReads {
  detail(jobId: number, signal?: AbortSignal): Promise<JobDetail>;
  pods(jobId: number, signal?: AbortSignal): Promise<NodeDetail[]>;
  nodeLog: NodeLogRead;
}

export interface FollowOptions {
  /** Between two log reads (default FOLLOW_INTERVAL_MS). */
  intervalMs?: number;
  /** Between two reads of the job's detail and pods (default, and in the product always, POLL_FLOOR_MS). */
  statusIntervalMs?: number;
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
export async function followJob(jobs: JobReads, jobId: number, handlers: FollowHandlers, options: FollowOptions = {}): Promise<void> {
  const followers = new Map<string, NodeLogTail>();
  const finishedRead = new Set<string>();
  const signal = options.signal;
  const readLog: NodeLogRead = (node, logSignal) => jobs.nodeLog(node, logSignal);
  let serviceId: number | undefined;

  const readLogs = async (pods: readonly NodeDetail[], final: boolean): Promise<void> => {
    if (serviceId === undefined) return;
    let gap = false;
    const lines: PodLine[] = [];
    for (const [position, pod] of pods.entries()) {
      const key = String(pod.point_id);
      if (pod.status === 'Pending' || finishedRead.has(key)) continue;
      let follower = followers.get(key);
      if (!follower) followers.set(key, (follower = new NodeLogTail(readLog, { task_id: jobId, point_id: pod.point_id, service_id: serviceId })));
      const update = await follower.read(signal);
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

  const statusEvery = options.statusIntervalMs ?? POLL_FLOOR_MS;
  let job: JobDetail | undefined;
  let pods: NodeDetail[] = [];
  let ended = false;
  let statusAt = 0;
  for (;;) {
    if (signal?.aborted) return;
    try {
      if (job === undefined || Date.now() - statusAt >= statusEvery) {
        statusAt = Date.now();
        job = await jobs.detail(jobId, signal);
        serviceId ??= job.services[0]?.service_id ?? undefined;
        handlers.onStatus?.(job);
        ended = isEnded(jobPhase(job));
        pods = await jobs.pods(jobId, signal);
      }
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
