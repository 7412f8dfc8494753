// Batch jobs as a kind of remote state (core/state, CONTRIBUTING "Add a kind of remote state"): every
// job of the account, every page, up to the listing cap, newest first. The only job listing that polls
// (test/unit/state/jobVolumeListCallers.test.ts keeps it so). At rest once every job has ended
// (Complete/Failed, or status Paused/End: docs/platform.md "Batch jobs" says polling stops there).

import type { ComputeClient } from '../compute/api';
import type { StateDefinition } from '../state/definition';
import { checkPage, listAll } from '../tasks/listing';
import type { JobSummary } from './operations';
import { isEnded, jobPhase } from './status';

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

export const JOB_STATE: StateDefinition<JobSummary, number, ComputeClient> = {
  kind: 'jobs',
  key: (job) => job.task_id,
  list: async (client, signal) => {
    const listed = await listAll(
      async (page, size, pageSignal) => checkPage<JobSummary>(await client.call('job.list', { page, page_size: size }, pageSignal ? { signal: pageSignal } : undefined), 'job.list'),
      { key: (job) => job.task_id, signal },
    );
    return { items: listed.items, complete: !listed.truncated, total: listed.count };
  },
  atRest: (jobs) => jobs.every(jobEnded),
  equal: sameJob,
};
