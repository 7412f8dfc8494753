// Following a deployment until it answers (docs/deployments.md, "Readiness"): the phase from the task's
// status, its nodes, the node log and whether `/v1/models` lists a model; polled with backoff (2 s
// doubling to 15 s) until ready, or until the task is paused or ended.

import type { TaskStatus } from '../compute/api';
import { isAbort } from '../errors';
import { sleep as realSleep } from '../http/retry';
import type { ModelInfo } from '../inference/api';

export type DeployPhase = 'waiting' | 'pulling' | 'loading' | 'ready' | 'stopped';

export interface ReadinessObservation {
  taskStatus: TaskStatus;
  nodeStatuses: readonly string[];
  /** The first node's log (its tail is enough). */
  log?: string;
  /** What `/v1/models` listed at the service URL; undefined when it did not answer. */
  models?: readonly ModelInfo[];
  /** The service URL, once the platform lists one. */
  url?: string;
}

/** Only the end of a log is read: bounded work whatever the node printed. */
const LOG_TAIL_CHARS = 64 * 1024;

export function phaseOf(observation: ReadinessObservation): DeployPhase {
  if (observation.taskStatus === 'Paused' || observation.taskStatus === 'End') return 'stopped';
  if (observation.models !== undefined && observation.models.some((model) => model.chat)) return 'ready';
  const running = observation.nodeStatuses.some((status) => status === 'Running');
  if (observation.taskStatus === 'Pending' || !running) return 'waiting';
  const log = (observation.log ?? '').slice(-LOG_TAIL_CHARS);
  const pulling = log.lastIndexOf('Pulling image');
  const pulled = Math.max(log.lastIndexOf('Successfully pulled'), log.lastIndexOf('Started container'), log.lastIndexOf('load model'), log.lastIndexOf('Loading'));
  return pulling >= 0 && pulled < pulling ? 'pulling' : 'loading';
}

export interface FollowOptions {
  observe(signal: AbortSignal | undefined): Promise<ReadinessObservation>;
  onPhase(phase: DeployPhase, observation: ReadinessObservation): void;
  signal?: AbortSignal;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** Observations that may fail in a row (network trouble) before the follower gives up. */
  maxFailures?: number;
}

export interface FollowResult {
  phase: 'ready' | 'stopped';
  observation: ReadinessObservation;
}

export async function followReadiness(options: FollowOptions): Promise<FollowResult> {
  const sleep = options.sleep ?? realSleep;
  const maxDelay = options.maxDelayMs ?? 15_000;
  let delay = options.firstDelayMs ?? 2_000;
  let failures = 0;
  let last: DeployPhase | undefined;
  for (;;) {
    let observation: ReadinessObservation | undefined;
    try {
      observation = await options.observe(options.signal);
      failures = 0;
    } catch (error) {
      if (isAbort(error) || ++failures > (options.maxFailures ?? 5)) throw error;
    }
    if (observation) {
      const phase = phaseOf(observation);
      if (phase !== last) options.onPhase(phase, observation);
      last = phase;
      if (phase === 'ready' || phase === 'stopped') return { phase, observation };
    }
    await sleep(delay, options.signal);
    delay = Math.min(maxDelay, delay * 2);
  }
}
