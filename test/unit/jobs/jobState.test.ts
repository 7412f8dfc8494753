// Batch jobs as a kind of remote state: every page listed, at rest once every job has ended, and a job
// that ends is one change of the store (what the Jobs view and the end notification follow).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ComputeClient } from '../../../src/core/compute/api';
import { jobEnded, JOB_STATE } from '../../../src/core/jobs/jobState';
import type { JobSummary } from '../../../src/core/jobs/operations';
import { RemoteStore } from '../../../src/core/state/remoteStore';

function job(id: number, status: JobSummary['status'] = 'Running', execution: JobSummary['job_status']['status'] = 'Running', billing = 0): JobSummary {
  return {
    task_id: id,
    task_name: `job-${id}`,
    sub_type: null,
    schedule_status: null,
    resources: [],
    status,
    points: 1,
    runing_points: status === 'Running' ? 1 : 0,
    billing_value: billing,
    forecast_value: 0,
    create_time: '2026-04-21 09:04:20.500576 +08:00',
    job_support: { estimated_exec_sec: null, timeout_sec: 600, parallelism: 1, mod_param: { default: { backoff_limit: 0, restart_policy: 'Never' }, index: null } },
    job_status: { create_time: '2026-04-21T01:00:00Z', status: execution, completion_time: null, active_pods: 1, succeeded_pods: 0, failed_pods: 0, completion_mode: 'NonIndexed' },
    services: [],
  };
}

/** A client whose job list serves `jobs` in pages, counting the requests. */
function pagedClient(jobs: JobSummary[]): { client: ComputeClient; requests: { page: number; page_size: number }[] } {
  const requests: { page: number; page_size: number }[] = [];
  const client = {
    call: async (operation: string, params: { page: number; page_size: number }) => {
      assert.equal(operation, 'job.list');
      requests.push(params);
      const start = (params.page - 1) * params.page_size;
      return { count: jobs.length, results: jobs.slice(start, start + params.page_size) };
    },
  } as unknown as ComputeClient;
  return { client, requests };
}

describe('JOB_STATE', () => {
  it('lists every page (250 jobs = 3 requests), complete', async () => {
    const jobs = Array.from({ length: 250 }, (_, index) => job(index + 1, 'End', 'Complete'));
    const { client, requests } = pagedClient(jobs);
    const listing = await JOB_STATE.list(client, new AbortController().signal);
    assert.equal(listing.items.length, 250);
    assert.equal(listing.complete, true);
    assert.equal(listing.total, 250);
    assert.deepEqual(
      requests.map((request) => request.page),
      [1, 2, 3],
    );
  });

  it('is at rest only when every job has ended (succeeded, failed, stopped)', () => {
    assert.equal(JOB_STATE.atRest([]), true);
    assert.equal(JOB_STATE.atRest([job(1, 'End', 'Complete'), job(2, 'Running', 'Failed'), job(3, 'End', 'Manual')]), true);
    assert.equal(JOB_STATE.atRest([job(1, 'End', 'Complete'), job(2)]), false, 'a running job moves');
    assert.equal(JOB_STATE.atRest([job(1, 'Pending', 'Pending')]), false, 'a pending (or queued) job moves');
  });

  it('compares what a view or a notification shows', () => {
    assert.equal(JOB_STATE.equal(job(1), job(1)), true);
    assert.equal(JOB_STATE.equal(job(1), job(1, 'Running', 'Running', 42)), false, 'the bill');
    assert.equal(JOB_STATE.equal(job(1), job(1, 'Running', 'Complete')), false, 'the execution status');
  });

  it('a job that ends is one change of the store, before live and after ended', async () => {
    const store = new RemoteStore(JOB_STATE, 'profile');
    await store.apply({ items: [job(1), job(2, 'End', 'Complete')], complete: true }, 1);
    const change = await store.apply({ items: [job(1, 'End', 'Complete', 90), job(2, 'End', 'Complete')], complete: true }, 2);
    assert.equal(change.changed.length, 1);
    const [ended] = change.changed;
    assert.ok(ended && !jobEnded(ended.before) && jobEnded(ended.after));
    assert.equal(store.atRest, true);
  });
});
