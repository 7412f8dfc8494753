// A job's state as the extension shows it, from the platform's three status fields (docs/platform.md
// "Batch jobs"): one phase, pod counts, elapsed time and the running cost.
// Cost = price (points per second per pod) × pod-seconds, computed in points and rounded once.

import type { JobSummary } from './operations';
import { parseJobTime } from './time';

export type JobPhase = 'queued' | 'pending' | 'running' | 'succeeded' | 'failed' | 'stopped';

export interface JobView {
  id: number;
  name: string;
  phase: JobPhase;
  /** No more polling needed: Complete/Failed, or status Paused/End. */
  ended: boolean;
  spot: boolean;
  /** The raw fields, for detail displays. */
  status: string;
  execution: string;
  schedule: string | null;
  completions: number;
  parallelism: number;
  active: number;
  succeeded: number;
  failed: number;
  /** Seconds since the job started running (until it ended); 0 before it runs. */
  elapsedSeconds: number;
  /** What the platform has billed so far (points). */
  billedPoints: number;
}

export function jobPhase(job: Pick<JobSummary, 'status' | 'schedule_status' | 'job_status'>): JobPhase {
  const execution = job.job_status?.status;
  if (execution === 'Complete') return 'succeeded';
  if (execution === 'Failed') return 'failed';
  if (execution === 'Manual' || job.status === 'End' || job.status === 'Paused') return 'stopped';
  if (job.schedule_status === 'Queued') return 'queued';
  if (execution === 'Running' || job.status === 'Running') return 'running';
  return 'pending';
}

export function isEnded(phase: JobPhase): boolean {
  return phase === 'succeeded' || phase === 'failed' || phase === 'stopped';
}

export function jobView(job: JobSummary & { last_update_time?: string }, nowMs: number): JobView {
  const phase = jobPhase(job);
  const ended = isEnded(phase);
  const started = parseJobTime(job.job_status?.create_time);
  const finished = parseJobTime(job.job_status?.completion_time) ?? (ended ? parseJobTime(job.last_update_time) : undefined);
  const until = finished ?? (ended ? started : nowMs);
  const elapsedSeconds = started === undefined || until === undefined ? 0 : Math.max(0, Math.floor((until - started) / 1000));
  return {
    id: job.task_id,
    name: job.task_name,
    phase,
    ended,
    spot: job.sub_type === 'Spot',
    status: job.status,
    execution: job.job_status?.status ?? 'Pending',
    schedule: job.schedule_status ?? null,
    completions: job.points,
    parallelism: job.job_support?.parallelism ?? 1,
    active: job.job_status?.active_pods ?? job.runing_points ?? 0,
    succeeded: job.job_status?.succeeded_pods ?? 0,
    failed: job.job_status?.failed_pods ?? 0,
    elapsedSeconds,
    billedPoints: job.billing_value ?? 0,
  };
}

/** Points for `podSeconds` at `pointsPerSecond` per pod: the one rounding happens here. */
export function costPointsFor(pointsPerSecond: number, podSeconds: number): number {
  return Math.round(pointsPerSecond * podSeconds);
}

/**
 * The cost so far: the larger of what the platform billed and price × pod-seconds (the pods' running
 * time from the node list, else active pods × elapsed), so a bill posted late never reads as ¥0.
 */
export function jobCostPoints(view: JobView, pointsPerSecond: number | undefined, podSeconds?: number): number {
  if (pointsPerSecond === undefined) return view.billedPoints;
  const seconds = podSeconds ?? view.elapsedSeconds * Math.max(1, view.active);
  return Math.max(view.billedPoints, costPointsFor(pointsPerSecond, seconds));
}

/**
 * A container's exit code as the node list gives it: typed string by the docs, seen as a number or null
 * (docs/sandbox-rules.md), so both parse; anything else (text, fractions, absurd sizes) is no code.
 */
export function parseExitCode(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return /^[-+]?\d{1,10}$/.test(text) ? Number(text) : null;
}
