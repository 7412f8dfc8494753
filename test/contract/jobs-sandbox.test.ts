// Batch jobs against the strict sandbox through the real compute client: the create body's rules, the
// three status fields, commands really run (logs are their output, files land on the volume),
// completions × parallelism, indexed mode, backoff (Never and OnFailure), the active deadline, Spot
// queueing, stop, the list and the queue-group reads.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Device, Paged } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import { ComputeApiError } from '../../src/core/compute/errors';
import type { JobCreateBody, JobDetail, JobModParam } from '../../src/core/jobs/operations';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';
import { waitUntil } from '../helpers/eventually';

const VOLUME_ID = 4242;

describe('batch jobs in the sandbox', () => {
  let sandbox: Sandbox;
  let volume: string;
  let client: ReturnType<typeof createComputeClient>;
  let resource: JobCreateBody['resources'][number];

  before(async () => {
    volume = mkdtempSync(join(tmpdir(), 'jobs-volume-'));
    sandbox = await startSandbox({ pendingMs: 0, jobPendingMs: 400, volumeDirectory: (id) => (id === VOLUME_ID ? volume : undefined) });
    client = createComputeClient({
      baseUrl: sandbox.computeBaseUrl,
      credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }),
      retry: { baseDelayMs: 5, maxDelayMs: 100 },
    });
    const devices: Paged<Device> = await client.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
    const device = devices.results.find((candidate) => candidate.gpu_count === 1 && candidate.regions.some((region) => region.inventory > 0));
    const region = device?.regions.find((candidate) => candidate.inventory > 0);
    assert.ok(region, 'the sandbox sells a 1-GPU device');
    resource = { resource: region.mark.resource, region_name: region.region_name, mark: region.mark.mark };
  });
  after(async () => {
    await sandbox.close();
    rmSync(volume, { recursive: true, force: true });
  });

  function body(script: string, options: { points?: number; parallelism?: number; timeout?: number; mod?: JobModParam; spot?: boolean; name?: string } = {}): JobCreateBody {
    return {
      task_name: options.name ?? 'job-test',
      sub_type: options.spot ? 'Spot' : null,
      resources: [resource],
      points: options.points ?? 1,
      job_support: {
        estimated_exec_sec: options.spot ? 60 : null,
        timeout_sec: options.timeout ?? 60,
        parallelism: options.parallelism ?? 1,
        mod_param: options.mod ?? { default: { backoff_limit: 0, restart_policy: 'Never' }, index: null },
      },
      services: [
        {
          service_name: 'container-01',
          service_image: 'pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime',
          resource_weight: { cpu_weight: 1, mem_weight: 1, gpu_weight: 1 },
          env: [{ name: 'GREETING', value: 'hello from the job' }],
          start_script: { command: ['/bin/sh', '-c'], args: [script] },
          nas_storage_config: [{ storage_id: VOLUME_ID, target_dir: '/mnt/work' }],
        },
      ],
    };
  }

  async function until(id: number, done: (job: JobDetail) => boolean, what: string): Promise<JobDetail> {
    return waitUntil(what, async () => {
      const job = await client.call('job.detail', { task_id: id });
      return done(job) ? job : undefined;
    });
  }
  const ended = (job: JobDetail): boolean => job.status === 'End';

  async function podLogs(id: number): Promise<{ status: string; log: string; exit: unknown; restarts: number }[]> {
    const detail = await client.call('job.detail', { task_id: id });
    const serviceId = detail.services[0]?.service_id;
    assert.equal(typeof serviceId, 'number');
    const pods = await client.call('node.list', { task_id: id, page: 1, page_size: 100 });
    return Promise.all(
      pods.results.map(async (pod) => {
        const full = pod as typeof pod & { containers: { exit_code: unknown }[]; describe_dto: { restart_count: number } };
        const { logs } = await client.call('node.log', { task_id: id, point_id: pod.point_id, service_id: serviceId as number });
        return { status: pod.status, log: logs, exit: full.containers[0]?.exit_code, restarts: full.describe_dto.restart_count };
      }),
    );
  }

  async function refused(promise: Promise<unknown>, code: string, field: string): Promise<void> {
    await assert.rejects(promise, (error: unknown) => error instanceof ComputeApiError && error.code === code && error.serverMessage.includes(field));
  }

  it('refuses what the platform would: no job_support, Spot without an estimate, env as a string, both mod params, an unknown volume', async () => {
    const { job_support: _omitted, ...noSupport } = body('true');
    await refused(client.call('job.create', noSupport as JobCreateBody), 'C999', 'job_support');
    const spot = body('true', { spot: true });
    spot.job_support.estimated_exec_sec = null;
    await refused(client.call('job.create', spot), 'C999', 'estimated_exec_sec');
    const stringEnv = body('true');
    (stringEnv.services[0] as unknown as Record<string, unknown>).env = 'A=1';
    await refused(client.call('job.create', stringEnv), 'C999', 'services[0].env');
    await refused(
      client.call('job.create', body('true', { mod: { default: { backoff_limit: 0, restart_policy: 'Never' }, index: { index_backoff_limit: 0, max_failed_index: null } } })),
      'C999',
      'mod_param',
    );
    const otherVolume = body('true');
    otherVolume.services[0]!.nas_storage_config = [{ storage_id: 999, target_dir: '/mnt/x' }];
    await refused(client.call('job.create', otherVolume), 'C999', 'storage_id');
    await refused(client.call('job.create', body('true', { points: 1, parallelism: 2 })), 'C999', 'parallelism');
  });

  it('really runs the command in the volume: its output is the pod log, its file is on the volume, Complete then End', async () => {
    process.env.SANDBOX_PARENT_SECRET = 'must-not-leak';
    const { task_id: id } = await client.call('job.create', body('echo "$GREETING"; pwd; echo result > /mnt/work/out.txt; env'));
    delete process.env.SANDBOX_PARENT_SECRET;
    const first = await client.call('job.detail', { task_id: id });
    assert.equal(first.status, 'Pending');
    assert.equal(first.job_status.status, 'Pending');
    assert.equal(first.schedule_status, null, 'on-demand jobs have no schedule status');
    const job = await until(id, ended, 'the job to end');
    assert.equal(job.job_status.status, 'Complete');
    assert.equal(job.job_status.succeeded_pods, 1);
    assert.equal(job.job_status.failed_pods, 0);
    assert.match(job.job_status.completion_time ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.match(job.create_time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+08:00$/);
    const [pod] = await podLogs(id);
    assert.equal(pod?.status, 'Succeeded');
    assert.match(pod?.log ?? '', /^hello from the job\n/);
    assert.ok(pod?.log.includes(volume), 'the command ran in the volume directory');
    assert.ok(!pod?.log.includes('must-not-leak'), 'the sandbox process environment does not reach the command');
    assert.equal(readFileSync(join(volume, 'out.txt'), 'utf8'), 'result\n');
  });

  it('runs `points` completions at most `parallelism` at a time', async () => {
    // Each pod marks that it started, then waits for a gate file: the test sees two pods running side by
    // side and no third however slow the machine is, then opens the gate (no race with `sleep`).
    const gate = join(volume, 'parallelism-gate');
    mkdirSync(gate);
    const { task_id: id } = await client.call('job.create', body('touch "parallelism-gate/started.$$"; while [ ! -e parallelism-gate/open ]; do sleep 0.05; done; echo done', { points: 3, parallelism: 2 }));
    let maxActive = 0;
    await until(
      id,
      (detail) => {
        maxActive = Math.max(maxActive, detail.runing_points);
        return detail.runing_points === 2;
      },
      'two pods running',
    );
    await waitUntil('both running pods to start their command', () => readdirSync(gate).length === 2);
    assert.equal((await podLogs(id)).length, 2, 'no third pod while two run');
    assert.equal((await client.call('job.detail', { task_id: id })).runing_points, 2);
    writeFileSync(join(gate, 'open'), '');
    const job = await until(
      id,
      (detail) => {
        maxActive = Math.max(maxActive, detail.runing_points);
        return ended(detail);
      },
      'three completions',
    );
    assert.equal(job.job_status.status, 'Complete');
    assert.equal(job.job_status.succeeded_pods, 3);
    assert.equal(maxActive, 2, 'two pods ran side by side, never three');
    assert.ok(job.billing_value > 0, 'pod running time is billed');
    const pods = await podLogs(id);
    assert.equal(pods.length, 3);
    rmSync(gate, { recursive: true, force: true });
  });

  it('indexed mode gives each pod its index', async () => {
    const { task_id: id } = await client.call(
      'job.create',
      body('echo "index=$JOB_COMPLETION_INDEX"', { points: 3, parallelism: 3, mod: { default: null, index: { index_backoff_limit: 0, max_failed_index: null } } }),
    );
    const job = await until(id, ended, 'the indexed job');
    assert.equal(job.job_status.completion_mode, 'Indexed');
    assert.equal(job.job_status.status, 'Complete');
    const logs = (await podLogs(id)).map((pod) => pod.log.trim()).sort();
    assert.deepEqual(logs, ['index=0', 'index=1', 'index=2']);
  });

  it('a failing pod is retried (restart policy Never: new pods) and the job fails past backoff_limit', async () => {
    const { task_id: id } = await client.call(
      'job.create',
      body('echo "loading data"; echo "Traceback: boom" >&2; exit 3', { mod: { default: { backoff_limit: 1, restart_policy: 'Never' }, index: null } }),
    );
    const job = await until(id, ended, 'the failing job');
    assert.equal(job.job_status.status, 'Failed');
    assert.equal(job.job_status.failed_pods, 2, 'one try plus one retry');
    const pods = await podLogs(id);
    assert.equal(pods.length, 2);
    for (const pod of pods) {
      assert.equal(pod.status, 'Failed');
      assert.equal(pod.exit, '3', 'exit_code is a string (docs/sandbox-rules.md)');
      assert.match(pod.log, /Traceback: boom/);
    }
  });

  it('restart policy OnFailure restarts the container in place', async () => {
    const { task_id: id } = await client.call('job.create', body('echo try; exit 1', { mod: { default: { backoff_limit: 2, restart_policy: 'OnFailure' }, index: null } }));
    const job = await until(id, ended, 'the restarting job');
    assert.equal(job.job_status.status, 'Failed');
    const pods = await podLogs(id);
    assert.equal(pods.length, 1);
    assert.equal(pods[0]?.restarts, 2);
  });

  it('the active deadline kills the job at timeout_sec', async () => {
    const { task_id: id } = await client.call('job.create', body('echo started; sleep 30; echo never', { timeout: 1 }));
    const job = await until(id, ended, 'the deadline');
    assert.equal(job.job_status.status, 'Failed');
    const [pod] = await podLogs(id);
    assert.equal(pod?.status, 'Failed');
    assert.match(pod?.log ?? '', /started\n--- pod terminated: DeadlineExceeded/);
    assert.ok(!pod?.log.includes('never'));
  });

  it('a Spot job can wait in the queue: schedule_status Queued, then Scheduled and run', async () => {
    sandbox.queueSpot(1, 400);
    const { task_id: id } = await client.call('job.create', body('echo spot', { spot: true }));
    const queued = await client.call('job.detail', { task_id: id });
    assert.equal(queued.sub_type, 'Spot');
    assert.equal(queued.schedule_status, 'Queued');
    assert.equal(queued.status, 'Pending');
    const job = await until(id, ended, 'the Spot job');
    assert.equal(job.schedule_status, 'Scheduled');
    assert.equal(job.job_status.status, 'Complete');
    const next = await client.call('job.create', body('true', { spot: true }));
    assert.equal((await client.call('job.detail', { task_id: next.task_id })).schedule_status, 'Scheduled', 'only the queued count waits');
  });

  it('stop ends a running job and kills its pods; stopping it again is an invalid transition', async () => {
    const { task_id: id } = await client.call('job.create', body('echo running; sleep 30'));
    await until(id, (job) => job.status === 'Running', 'the job to run');
    await client.call('job.stop', { task_id: id });
    const job = await client.call('job.detail', { task_id: id });
    assert.equal(job.status, 'End');
    assert.equal(job.job_status.status, 'Manual');
    await refused(client.call('job.stop', { task_id: id }), 'C010', 'End');
  });

  it('lists jobs newest first with the list time format, filtered by name and status', async () => {
    const { task_id: id } = await client.call('job.create', body('true', { name: 'listed-unique' }));
    const page = await client.call('job.list', { search_value: 'listed-unique', page: 1, page_size: 10 });
    assert.equal(page.count, 1);
    assert.equal(page.results[0]?.task_id, id);
    assert.equal(page.results[0]?.task_type, 'Job');
    assert.match(page.results[0]?.create_time ?? '', /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6} \+08:00$/);
    await refused(client.call('job.list', { status: 'Stopped' }), 'C999', 'status');
  });

  it('queue task groups: queue_id is required, page_size at most 50', async () => {
    await refused(client.send({ method: 'GET', path: '/api/job/queue/group/search' }), 'C999', 'queue_id');
    await refused(client.call('jobQueue.groups', { queue_id: 1, page_size: 51 }), 'C999', 'page_size');
    assert.deepEqual(await client.call('jobQueue.groups', { queue_id: 1 }), { count: 0, results: [] });
    assert.equal(existsSync(volume), true);
  });
});
