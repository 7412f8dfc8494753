// The jobs core against the sandbox: following a really running job's pod logs to the end (every line
// once, in order, the unterminated last line too), the status model on live answers, and the job store
// (JOB_STATE on a poll scheduler) seeing a job end.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Device, Paged } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import { plain } from '../../src/core/jobs/ansi';
import { buildJobBody, type JobSpec } from '../../src/core/jobs/jobBody';
import type { JobDetail, JobSummary } from '../../src/core/jobs/operations';
import { jobEnded, JOB_STATE } from '../../src/core/jobs/jobState';
import { followJob, type PodLine } from '../../src/core/jobs/polling';
import { PollScheduler } from '../../src/core/state/pollScheduler';
import { FakeTime } from '../helpers/fakeTimers';
import { jobView } from '../../src/core/jobs/status';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';
import { waitUntil } from '../helpers/eventually';

describe('jobs core against the sandbox', () => {
  let sandbox: Sandbox;
  let client: ReturnType<typeof createComputeClient>;
  let spec: (command: string, overrides?: Partial<JobSpec>) => JobSpec;

  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0, jobPendingMs: 30 });
    client = createComputeClient({
      baseUrl: sandbox.computeBaseUrl,
      credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }),
      retry: { baseDelayMs: 5, maxDelayMs: 100 },
    });
    const devices: Paged<Device> = await client.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
    const region = devices.results.filter((device) => device.gpu_count === 1).flatMap((device) => device.regions).find((candidate) => candidate.inventory > 0);
    assert.ok(region);
    const resource = { resource: region.mark.resource, region_name: region.region_name, mark: region.mark.mark };
    spec = (command, overrides = {}) => ({ name: 'core', resource, image: 'img', command, spot: false, timeoutSec: 60, completions: 1, parallelism: 1, indexed: false, retries: 0, env: [], ...overrides });
  });
  after(() => sandbox.close());

  async function follow(id: number): Promise<{ lines: PodLine[]; end: JobDetail; statuses: string[] }> {
    const lines: PodLine[] = [];
    const statuses: string[] = [];
    let end: JobDetail | undefined;
    await followJob(client, id, { onLines: (batch) => lines.push(...batch), onStatus: (job) => statuses.push(job.status), onEnd: (job) => (end = job) }, { intervalMs: 25, statusIntervalMs: 25 });
    assert.ok(end, 'followJob reports the end');
    return { lines, end, statuses };
  }

  it('follows every line of a running job once, in order, colours removable, the last unterminated line included', async () => {
    const command = 'i=1; while [ $i -le 300 ]; do printf "\\033[32mstep %d\\033[0m\\n" $i; i=$((i+1)); [ $((i % 50)) -eq 0 ] && sleep 0.05; done; printf "no newline at the end"';
    const { task_id: id } = await client.call('job.create', buildJobBody(spec(command)));
    const { lines, end, statuses } = await follow(id);
    assert.ok(statuses.includes('Running') || statuses.includes('Pending'));
    const texts = lines.map((line) => plain(line.text));
    assert.deepEqual(texts, [...Array.from({ length: 300 }, (_, i) => `step ${i + 1}`), 'no newline at the end']);
    const view = jobView(end, Date.now());
    assert.equal(view.phase, 'succeeded');
    assert.equal(view.succeeded, 1);
  });

  it('a failing script: its error output arrives from each try and the job reads failed', async () => {
    const { task_id: id } = await client.call('job.create', buildJobBody(spec('echo "ZeroDivisionError: division by zero" >&2; exit 2', { retries: 1 })));
    const { lines, end } = await follow(id);
    assert.equal(jobView(end, Date.now()).phase, 'failed');
    assert.equal(lines.filter((line) => line.text.includes('ZeroDivisionError')).length, 2, 'both tries, each once');
    assert.equal(new Set(lines.map((line) => line.pod)).size, 2);
  });

  it('the job store lists jobs and reports one that ended, then rests', async () => {
    const time = new FakeTime();
    const scheduler = new PollScheduler('jobs', () => client, {}, { now: () => time.now, setTimer: time.setTimer, clearTimer: time.clearTimer });
    const store = scheduler.store(JOB_STATE);
    const ended: JobSummary[] = [];
    store.onChange((change) => {
      for (const { before, after } of change.changed) if (!jobEnded(before) && jobEnded(after)) ended.push(after);
    });
    try {
      const { task_id: id } = await client.call('job.create', buildJobBody(spec('sleep 0.3')));
      await scheduler.refresh();
      assert.ok(store.items.some((job) => job.task_id === id && !jobEnded(job)), 'listed while it runs');
      assert.equal(store.atRest, false, 'a running job keeps the store polling');
      await waitUntil('the store to report the job ended', async () => {
        await scheduler.refresh();
        return ended.some((job) => job.task_id === id);
      });
      assert.ok(ended.some((job) => job.task_id === id && job.job_status.status === 'Complete'), 'the end is one change');
      assert.equal(store.atRest, true, 'every job ended: nothing to poll');
    } finally {
      scheduler.dispose();
    }
  });
});
