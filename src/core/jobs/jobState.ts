// Batch jobs as a kind of remote state (core/state, CONTRIBUTING "Add a kind of remote state"). The
// only job listing that polls (test/unit/state/jobVolumeListCallers.test.ts keeps it so). At rest once
// every job has ended (Complete/Failed, or status Paused/End: docs/platform.md "Batch jobs" says polling
// stops there).
//
// What a poll reads (docs/platform.md "Batch jobs", "What the job store reads"): an account keeps every
// job it ever ran, so the ended ones are not read each poll as the moving ones are.
// - Every poll: the jobs that move (status Pending, Running), every page.
// - A look (first poll, wake, refresh): also the newest RECENT_ENDED ended jobs (status Paused, End), one
//   page: what the Jobs view shows below the moving jobs, and a job created and ended between two polls.
// - A timer poll keeps the ended jobs it held (at most RECENT_ENDED, newest first). A job that moved at
//   the last poll and is missing from the moving list now has ended: it is found in that one page of
//   recent ended jobs, else read by its detail (at most DETAIL_LOOKUPS a poll; the rest keep their last
//   look and are read at the next poll). So each ending is seen once, as the change from moving to ended.

import type { ComputeClient } from '../compute/api';
import type { ListContext, Listing, StateChange, StateDefinition } from '../state/definition';
import { checkPage, listAll } from '../tasks/listing';
import type { JobLifecycle, JobSummary } from './operations';
import { isEnded, jobPhase } from './status';
import { parseJobTime } from './time';

/** Jobs that can still change on their own (or by the user's stop). */
export const MOVING_JOB_STATUSES = ['Pending', 'Running'] as const satisfies readonly JobLifecycle[];
/** Jobs that are over: the platform has no pause or recover for jobs. */
export const ENDED_JOB_STATUSES = ['Paused', 'End'] as const satisfies readonly JobLifecycle[];
/** Ended jobs the store holds: the newest, one page of the ended list. */
export const RECENT_ENDED = 50;
/** Jobs read by their detail in one poll (ended since the last one and not among the newest ended). */
export const DETAIL_LOOKUPS = 10;

/** The fields whose change is news to the Jobs view or a notification. */
function sameJob(a: JobSummary, b: JobSummary): boolean {
  return (
    a.status === b.status &&
    a.task_name === b.task_name &&
    a.schedule_status === b.schedule_status &&
    a.runing_points === b.runing_points &&
    a.billing_value === b.billing_value &&
    JSON.stringify(a.job_status) === JSON.stringify(b.job_status)
  );
}

export function jobEnded(job: JobSummary): boolean {
  return isEnded(jobPhase(job));
}

/**
 * The jobs a change of the store tells of as ended, each once: seen moving before and ended now, or
 * first seen already ended (started and ended between two polls). Never on a first look, which only
 * learns what exists.
 */
export function jobsEndedIn(change: StateChange<JobSummary>): JobSummary[] {
  if (change.first) return [];
  const ended = change.changed.filter(({ before, after }) => !jobEnded(before) && jobEnded(after)).map(({ after }) => after);
  return [...ended, ...change.added.filter(jobEnded)];
}

/**
 * Job ends that another surface announces itself: Run on GPU's terminal ends with its own summary and
 * notification (exit code, time, cost, Open Outputs / Run Again), so the store's end notification skips
 * that job, once. A run that is detached or fails before its summary releases its claim, and the store
 * announces the end as for any job.
 */
export class ClaimedEnds {
  private readonly ids = new Set<number>();

  claim(jobId: number): void {
    this.ids.add(jobId);
  }

  release(jobId: number): void {
    this.ids.delete(jobId);
  }

  /** The ended jobs the store announces: those not claimed (a claim is used up by its job's end). */
  unclaimed(ended: readonly JobSummary[]): JobSummary[] {
    return ended.filter((job) => !this.ids.delete(job.task_id));
  }
}

type Page = (statuses: readonly JobLifecycle[], page: number, size: number, signal?: AbortSignal) => Promise<{ count: number; results: JobSummary[] }>;

function pageReader(client: ComputeClient): Page {
  return async (statuses, page, size, signal) =>
    checkPage<JobSummary>(await client.call('job.list', { status: statuses.join(','), page, page_size: size }, signal ? { signal } : undefined), 'job.list');
}

/** Newest first, as the platform lists jobs: by creation time, then by id (each time parsed once). */
function newestFirst(jobs: readonly JobSummary[]): JobSummary[] {
  return jobs
    .map((job) => ({ job, at: parseJobTime(job.create_time) ?? -Infinity }))
    .sort((a, b) => (a.at === b.at ? b.job.task_id - a.job.task_id : b.at - a.at))
    .map(({ job }) => job);
}

async function listJobs(client: ComputeClient, signal: AbortSignal, context: ListContext<JobSummary> = { previous: [], look: true }): Promise<Listing<JobSummary>> {
  const read = pageReader(client);
  const moving = await listAll((page, size, pageSignal) => read(MOVING_JOB_STATUSES, page, size, pageSignal), { key: (job) => job.task_id, signal });
  const held = new Set(moving.items.map((job) => job.task_id));
  // Moving at the last poll, not moving now: ended in between (only a complete read can say so).
  const vanished = moving.truncated ? [] : context.previous.filter((job) => !jobEnded(job) && !held.has(job.task_id));
  const ended: JobSummary[] = [];
  const take = (job: JobSummary): void => {
    if (held.has(job.task_id)) return;
    held.add(job.task_id);
    ended.push(job);
  };
  let endedCount: number | undefined;
  if (context.look || vanished.length > 0) {
    const recent = await read(ENDED_JOB_STATUSES, 1, RECENT_ENDED, signal);
    endedCount = recent.count;
    for (const job of recent.results.slice(0, RECENT_ENDED)) take(job);
  }
  const unseen = vanished.filter((job) => !held.has(job.task_id));
  for (const [index, job] of unseen.entries()) {
    if (index >= DETAIL_LOOKUPS) {
      // Read at the next poll; until then it stays as last seen (so it is still news then).
      take(job);
      continue;
    }
    const detail = await client.call('job.detail', { task_id: job.task_id }, { signal });
    // null: the platform no longer knows the job; it leaves the store (a complete listing removes it).
    if (detail) take(detail);
  }
  // A timer poll keeps the ended jobs it held, newest first, as many as a look would show.
  if (!context.look) {
    const kept = context.previous.filter((job) => jobEnded(job) && !held.has(job.task_id));
    for (const job of kept.slice(0, Math.max(0, RECENT_ENDED - ended.length))) take(job);
  }
  const items = newestFirst([...moving.items, ...ended]);
  const total = moving.count + (endedCount ?? ended.length);
  return { items, complete: !moving.truncated, total };
}

export const JOB_STATE: StateDefinition<JobSummary, number, ComputeClient> = {
  kind: 'jobs',
  key: (job) => job.task_id,
  list: listJobs,
  atRest: (jobs) => jobs.every(jobEnded),
  equal: sameJob,
};
