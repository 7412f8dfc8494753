// The jobs core against the sandbox: following a really running job's pod logs to the end (every line
// once, in order, the unterminated last line too), the status model on live answers, and the job store
// (JOB_STATE on a poll scheduler) seeing a job end — on a heavy account too, where the ended jobs are
// not re-read each interval (list requests counted at the sandbox).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Device, Paged } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import { documentText, plainLogLine, terminalLogLine } from '../../src/core/terminalText';
import { NodeLogTail } from '../../src/core/jobs/nodeLogTail';
import { buildJobBody, type JobSpec } from '../../src/core/jobs/jobBody';
import type { JobDetail, JobSummary } from '../../src/core/jobs/operations';
import { jobEnded, jobsEndedIn, JOB_STATE, RECENT_ENDED } from '../../src/core/jobs/jobState';
import { followJob, listPods, type PodLine } from '../../src/core/jobs/polling';
import { JobService } from '../../src/core/jobs/jobService';
import { POLL_FLOOR_MS, PollScheduler } from '../../src/core/state/pollScheduler';
import { FakeTime } from '../helpers/fakeTimers';
import { jobView } from '../../src/core/jobs/status';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';
import { waitUntil } from '../helpers/eventually';
import { INTERVAL_MS, JOB_LIST_PATH, requestCounter } from '../helpers/statePolling';

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
    await followJob(new JobService(() => client), id, { onLines: (batch) => lines.push(...batch), onStatus: (job) => statuses.push(job.status), onEnd: (job) => (end = job) }, { intervalMs: 25, statusIntervalMs: 25 });
    assert.ok(end, 'followJob reports the end');
    return { lines, end, statuses };
  }

  it('follows every line of a running job once, in order, colours removable, the last unterminated line included', async () => {
    const command = 'i=1; while [ $i -le 300 ]; do printf "\\033[32mstep %d\\033[0m\\n" $i; i=$((i+1)); [ $((i % 50)) -eq 0 ] && sleep 0.05; done; printf "no newline at the end"';
    const { task_id: id } = await client.call('job.create', buildJobBody(spec(command)));
    const { lines, end, statuses } = await follow(id);
    assert.ok(statuses.includes('Running') || statuses.includes('Pending'));
    const texts = lines.map((line) => plainLogLine(line.text));
    assert.deepEqual(texts, [...Array.from({ length: 300 }, (_, i) => `step ${i + 1}`), 'no newline at the end']);
    // The job terminal keeps the colour the program wrote (the client passes the log on as it came).
    assert.equal(terminalLogLine(lines[0]?.text ?? ''), '\x1b[32mstep 1\x1b[0m\x1b[0m\r\n');
    const view = jobView(end, Date.now());
    assert.equal(view.phase, 'succeeded');
    assert.equal(view.succeeded, 1);
  });

  it('hostile output (clipboard write, link, clear, 8-bit CSI and OSC) reaches the job terminal as its text and colour only', async () => {
    const hostile = String.raw`printf '\033]52;c;cHduZWQ=\007\033[2J\033]8;;https://e.invalid/\033\\link\033]8;;\033\\ \302\2332J\033[31mred\033[0m \302\23552;c;eA==\302\234ok\n'`;
    const { task_id: id } = await client.call('job.create', buildJobBody(spec(hostile)));
    const { lines } = await follow(id);
    assert.deepEqual(lines.map((line) => terminalLogLine(line.text)), ['link \x1b[31mred\x1b[0m ok\x1b[0m\r\n']);
    assert.deepEqual(lines.map((line) => plainLogLine(line.text)), ['link red ok']);
  });

  it('one node-log follower for both surfaces: the same coloured job log reaches the terminal with colour and the document without', async () => {
    const { task_id: id } = await client.call('job.create', buildJobBody(spec(String.raw`printf '\033[32mgreen\033[0m plain\n'`)));
    const { lines } = await follow(id);
    // The document's reader: the same tail over node.log, fed to the document as the node log view does.
    const detail = await client.call('job.detail', { task_id: id });
    const pods = await listPods(client, id);
    const tail = new NodeLogTail(client, { task_id: id, point_id: pods[0]?.point_id ?? 0, service_id: detail.services[0]?.service_id ?? 0 });
    const read = await tail.read();
    const documentLines = [...read.lines, ...tail.flush()];
    assert.deepEqual(documentLines, lines.map((line) => line.text), 'both surfaces read the same lines through the one follower');
    assert.deepEqual(lines.map((line) => terminalLogLine(line.text)), ['\x1b[32mgreen\x1b[0m plain\x1b[0m\r\n'], 'the terminal keeps the colour');
    assert.equal(documentText(documentLines.join('\n'), 'log'), 'green plain', 'the document is plain');
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

describe('the job store on a heavy account (2,000 ended jobs) against the sandbox', () => {
  let sandbox: Sandbox;
  let client: ReturnType<typeof createComputeClient>;
  let body: (name: string, command: string) => ReturnType<typeof buildJobBody>;

  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0, jobPendingMs: 0 });
    sandbox.seedEndedJobs(2000);
    client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }) });
    const devices: Paged<Device> = await client.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
    const region = devices.results.filter((device) => device.gpu_count === 1).flatMap((device) => device.regions).find((candidate) => candidate.inventory > 0);
    assert.ok(region);
    const resource = { resource: region.mark.resource, region_name: region.region_name, mark: region.mark.mark };
    body = (name, command) => buildJobBody({ name, resource, image: 'img', command, spot: false, timeoutSec: 120, completions: 1, parallelism: 1, indexed: false, retries: 0, env: [] });
  });
  after(() => sandbox.close());

  it('a running job costs one list page per interval (not the 21 pages of every job); its end is announced once; then nothing', async () => {
    const time = new FakeTime();
    const scheduler = new PollScheduler('heavy', () => client, { intervalMs: INTERVAL_MS }, { now: () => time.now, setTimer: time.setTimer, clearTimer: time.clearTimer });
    const store = scheduler.store(JOB_STATE);
    const announced: number[] = [];
    store.onChange((change) => {
      announced.push(...jobsEndedIn(change).map((job) => job.task_id));
    });
    const settle = async (): Promise<void> => {
      for (let i = 0; i < 2000 && scheduler.busy; i++) await new Promise((resolve) => setTimeout(resolve, 2));
    };
    const count = requestCounter(sandbox);
    try {
      const { task_id: id } = await client.call('job.create', body('watched', 'sleep 60'));
      count(JOB_LIST_PATH);
      scheduler.wake();
      await time.advance(0, settle);
      assert.equal(count(JOB_LIST_PATH), 2, 'the first look: the moving jobs (one page) and one page of recent ended jobs');
      assert.equal(store.items.filter(jobEnded).length, RECENT_ENDED, 'the Jobs view shows the recent ended jobs');
      assert.ok(store.items.some((job) => job.task_id === id && !jobEnded(job)));
      const perInterval: number[] = [];
      for (let i = 0; i < 3; i++) {
        await time.advance(INTERVAL_MS, settle);
        perInterval.push(count(JOB_LIST_PATH));
      }
      assert.deepEqual(perInterval, [1, 1, 1], 'each interval: the one page of moving jobs');

      await client.call('job.stop', { task_id: id });
      count(JOB_LIST_PATH);
      await time.advance(INTERVAL_MS, settle);
      assert.equal(count(JOB_LIST_PATH), 2, 'the job left the moving list: one page of recent ended jobs finds it');
      assert.deepEqual(announced, [id], 'announced once, stopped');
      assert.equal(store.atRest, true);

      // Created and ended while nobody polled: the wake after its creation announces it.
      const { task_id: quick } = await client.call('job.create', body('quick', 'true'));
      await waitUntil('the quick job to end', async () => jobEnded(await client.call('job.detail', { task_id: quick })));
      scheduler.wake();
      await time.advance(POLL_FLOOR_MS, settle);
      assert.deepEqual(announced, [id, quick]);
      count(JOB_LIST_PATH);
      await time.advance(10 * INTERVAL_MS, settle);
      assert.equal(count(JOB_LIST_PATH), 0, 'every job ended: nothing listed');
      scheduler.wake();
      await time.advance(POLL_FLOOR_MS, settle);
      assert.deepEqual(announced, [id, quick], 'a later look announces nothing again');
    } finally {
      scheduler.dispose();
    }
  });
});
