// Batch jobs as a kind of remote state, on a fake platform that filters by status and counts every
// request: a timer poll reads only the moving jobs' pages (an account's thousands of ended jobs are not
// re-read each interval), a look adds one page of recent ended jobs, and every job that ends — between
// two polls, long after the newest ended ones, or created and ended unseen — is one "ended" (what the
// Jobs view shows and the end notification follows), exactly once. Work is counted, never timed.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ComputeClient } from '../../../src/core/compute/api';
import { ClaimedEnds, DETAIL_LOOKUPS, jobEnded, jobsEndedIn, JOB_STATE, RECENT_ENDED } from '../../../src/core/jobs/jobState';
import type { JobSummary } from '../../../src/core/jobs/operations';
import { PollScheduler } from '../../../src/core/state/pollScheduler';
import { RemoteStore } from '../../../src/core/state/remoteStore';
import { FakeTime, flush } from '../../helpers/fakeTimers';

const INTERVAL = 15_000;

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

interface Request {
  operation: string;
  status?: string;
  page?: number;
  task_id?: number;
}

/** The platform's job list and detail over `jobs` (newest = highest id first), every request recorded. */
function fakePlatform(initial: JobSummary[]) {
  const jobs = new Map(initial.map((item) => [item.task_id, item]));
  const requests: Request[] = [];
  const client = {
    call: async (operation: string, params: { status?: string; page?: number; page_size?: number; task_id?: number }) => {
      requests.push({ operation, ...params });
      if (operation === 'job.detail') return jobs.get(params.task_id ?? -1) ?? null;
      assert.equal(operation, 'job.list');
      const statuses = params.status?.split(',');
      const found = [...jobs.values()].filter((item) => !statuses || statuses.includes(item.status)).sort((a, b) => b.task_id - a.task_id);
      const size = params.page_size ?? 10;
      const start = ((params.page ?? 1) - 1) * size;
      return { count: found.length, results: found.slice(start, start + size) };
    },
  } as unknown as ComputeClient;
  /** The requests since the last call, as "list Pending,Running p1" / "detail 7". */
  const taken = (): string[] => requests.splice(0).map((request) => (request.operation === 'job.detail' ? `detail ${String(request.task_id)}` : `list ${request.status ?? '(all)'} p${String(request.page)}`));
  const end = (id: number, execution: JobSummary['job_status']['status'] = 'Complete'): void => {
    const before = jobs.get(id);
    assert.ok(before);
    jobs.set(id, { ...before, status: 'End', runing_points: 0, job_status: { ...before.job_status, status: execution, active_pods: null } });
  };
  return { jobs, client, taken, end };
}

/** A heavy account: `running` moving jobs among `ended` ended ones (ids 1…n, the running ones the newest unless `runningFirst`). */
function account(running: number, ended: number, runningFirst = false): JobSummary[] {
  return Array.from({ length: running + ended }, (_, index) => {
    const id = index + 1;
    const moving = runningFirst ? id <= running : id > ended;
    return moving ? job(id) : job(id, 'End', id % 7 === 0 ? 'Failed' : 'Complete');
  });
}

/** One scheduler on fake time over the platform, and what the end notification would announce. */
function watch(platform: ReturnType<typeof fakePlatform>) {
  const time = new FakeTime();
  const scheduler = new PollScheduler('profile', () => platform.client, { intervalMs: INTERVAL }, { now: () => time.now, setTimer: time.setTimer, clearTimer: time.clearTimer });
  const store = scheduler.store(JOB_STATE);
  const announced: number[] = [];
  store.onChange((change) => {
    announced.push(...jobsEndedIn(change).map((ended) => ended.task_id));
  });
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 100 && scheduler.busy; i++) await flush();
    await flush();
  };
  const look = async (): Promise<void> => {
    scheduler.wake();
    await time.advance(POLL_FLOOR, settle);
  };
  const interval = (): Promise<void> => time.advance(INTERVAL, settle);
  return { scheduler, store, announced, look, interval };
}
const POLL_FLOOR = 10_000;

const MOVING = 'list Pending,Running';
const ENDED = 'list Paused,End';

describe('JOB_STATE on a heavy account (150 running, 2,000 ended jobs)', () => {
  it('a look reads the moving jobs (every page) and one page of recent ended jobs; a timer poll only the moving pages', async () => {
    const platform = fakePlatform(account(150, 2000));
    const watched = watch(platform);
    try {
      await watched.look();
      assert.deepEqual(platform.taken(), [`${MOVING} p1`, `${MOVING} p2`, `${ENDED} p1`], 'the first look');
      assert.equal(watched.store.items.filter((item) => !jobEnded(item)).length, 150, 'every moving job');
      assert.equal(watched.store.items.filter(jobEnded).length, RECENT_ENDED, 'the recent ended jobs, for the Jobs view');
      for (let i = 0; i < 4; i++) {
        await watched.interval();
        // Reading every job, as before, was 22 pages each interval (2,150 rows, 100 a page).
        assert.deepEqual(platform.taken(), [`${MOVING} p1`, `${MOVING} p2`], `interval ${i + 1}: the moving jobs' two pages, nothing of the ended ones`);
      }
      assert.equal(watched.store.items.filter(jobEnded).length, RECENT_ENDED, 'the view still shows the recent ended jobs');
      assert.deepEqual(watched.announced, []);
    } finally {
      watched.scheduler.dispose();
    }
  });

  it('a job that ends between two polls: one page of recent ended jobs finds it, announced once', async () => {
    const platform = fakePlatform(account(150, 2000));
    const watched = watch(platform);
    try {
      await watched.look();
      platform.taken();
      platform.end(2150);
      await watched.interval();
      assert.deepEqual(platform.taken(), [`${MOVING} p1`, `${MOVING} p2`, `${ENDED} p1`]);
      assert.deepEqual(watched.announced, [2150]);
      const held = watched.store.get(2150);
      assert.ok(held && jobEnded(held), 'the view shows it ended');
      for (let i = 0; i < 3; i++) await watched.interval();
      assert.deepEqual(platform.taken(), Array.from({ length: 3 }, () => [`${MOVING} p1`, `${MOVING} p2`]).flat());
      await watched.look();
      assert.deepEqual(watched.announced, [2150], 'never again, neither on timer polls nor on a look');
    } finally {
      watched.scheduler.dispose();
    }
  });

  it('an old job ending behind the newest ended ones is read by its detail, announced once', async () => {
    // The running jobs are the oldest: every recent ended job is newer.
    const platform = fakePlatform(account(150, 2000, true));
    const watched = watch(platform);
    try {
      await watched.look();
      platform.taken();
      platform.end(3, 'Failed');
      await watched.interval();
      assert.deepEqual(platform.taken(), [`${MOVING} p1`, `${MOVING} p2`, `${ENDED} p1`, 'detail 3']);
      assert.deepEqual(watched.announced, [3]);
      await watched.interval();
      await watched.interval();
      await watched.look();
      assert.deepEqual(watched.announced, [3]);
      assert.equal(watched.store.get(3), undefined, 'older than the recent ended jobs: gone from the view after the next look');
    } finally {
      watched.scheduler.dispose();
    }
  });

  it(`many old jobs ending at once: at most ${DETAIL_LOOKUPS} details a poll, each job announced exactly once`, async () => {
    const platform = fakePlatform(account(150, 2000, true));
    const watched = watch(platform);
    try {
      await watched.look();
      platform.taken();
      const ending = Array.from({ length: 25 }, (_, index) => index + 1);
      for (const id of ending) platform.end(id);
      const details: number[] = [];
      for (let i = 0; i < 4; i++) {
        await watched.interval();
        const requests = platform.taken();
        const polled = requests.filter((request) => request.startsWith('detail')).length;
        assert.ok(polled <= DETAIL_LOOKUPS, `interval ${i + 1}: ${polled} details`);
        details.push(polled);
      }
      assert.deepEqual(details, [10, 10, 5, 0]);
      assert.deepEqual([...watched.announced].sort((a, b) => a - b), ending);
      assert.equal(watched.store.items.filter((item) => !jobEnded(item)).length, 125);
    } finally {
      watched.scheduler.dispose();
    }
  });

  it('a job created and ended unseen between two polls is announced once, on the wake that follows its creation', async () => {
    const platform = fakePlatform(account(150, 2000));
    const watched = watch(platform);
    try {
      await watched.look();
      platform.jobs.set(5000, job(5000, 'End', 'Complete'));
      await watched.look();
      assert.deepEqual(watched.announced, [5000]);
      for (let i = 0; i < 3; i++) await watched.interval();
      await watched.look();
      assert.deepEqual(watched.announced, [5000]);
    } finally {
      watched.scheduler.dispose();
    }
  });

  it('every job ended: at rest, nothing listed until a wake', async () => {
    const platform = fakePlatform(account(1, 2000));
    const watched = watch(platform);
    try {
      await watched.look();
      platform.end(2001);
      await watched.interval();
      assert.deepEqual(watched.announced, [2001]);
      assert.equal(watched.store.atRest, true);
      platform.taken();
      for (let i = 0; i < 10; i++) await watched.interval();
      assert.deepEqual(platform.taken(), []);
    } finally {
      watched.scheduler.dispose();
    }
  });
});

describe('JOB_STATE', () => {
  it('a listing without the scheduler (no context) is a look: moving pages and one page of recent ended', async () => {
    const platform = fakePlatform(account(250, 500));
    const listing = await JOB_STATE.list(platform.client, new AbortController().signal);
    assert.deepEqual(platform.taken(), [`${MOVING} p1`, `${MOVING} p2`, `${MOVING} p3`, `${ENDED} p1`]);
    assert.equal(listing.items.length, 250 + RECENT_ENDED);
    assert.equal(listing.complete, true);
    assert.equal(listing.total, 750);
    assert.deepEqual(
      listing.items.slice(0, 3).map((item) => item.task_id),
      [750, 749, 748],
      'newest first',
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
    assert.deepEqual(
      jobsEndedIn(change).map((item) => item.task_id),
      [1],
    );
    assert.equal(store.atRest, true);
  });

  it('a first look announces nothing, whatever it finds ended', async () => {
    const store = new RemoteStore(JOB_STATE, 'profile');
    const first = await store.apply({ items: [job(1, 'End', 'Complete')], complete: true }, 1);
    assert.deepEqual(jobsEndedIn(first), []);
  });

  it('a job whose end a Run on GPU terminal announces is skipped once; a released claim is announced', () => {
    const claims = new ClaimedEnds();
    claims.claim(1);
    claims.claim(2);
    claims.release(2); // the run was detached before its summary
    const ended = [job(1, 'End', 'Complete'), job(2, 'End', 'Failed'), job(3, 'End', 'Complete')];
    assert.deepEqual(claims.unclaimed(ended).map((item) => item.task_id), [2, 3]);
    assert.deepEqual(claims.unclaimed(ended).map((item) => item.task_id), [1, 2, 3], 'a claim is used up by its end');
  });
});
