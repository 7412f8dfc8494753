// Batch jobs with the platform's three status fields (docs/platform.md "Batch jobs"), really run. The
// store of every job: create (its NAS mounts resolved, Spot queueing), stop (Pending or Running only:
// status End, job_status Manual — the docs list Manual without a meaning: docs/platform.md), the list,
// detail, pods and pod logs, and a heavy account's history of ended jobs (seedEnded). The state machine
// is lifecycle.ts, the records records.ts, their wire shapes answers.ts, the local processes
// podProcess.ts and containerLaunch.ts; the body is checked by jobBody.ts before it reaches here.
// Pods are listed by the node list and their logs read by the node log operation (task_id = job id).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TaskResource } from '../../../src/core/compute/api';
import type { JobDetail, JobSummary } from '../../../src/core/jobs/operations';
import type { SandboxClock } from '../clock';
import { SandboxFailure, invalidParam } from '../compute/codes';
import type { Paging } from '../compute/params';
import { jobDetail, jobListItem, jobNodes } from './answers';
import { resolveMounts, type VolumeResolver } from './containerLaunch';
import type { JobCreateInput } from './jobBody';
import { JobLifecycleRunner } from './lifecycle';
import { randomSuffix, type JobRecord } from './records';

export { INDEX_ENV, type VolumeResolver } from './containerLaunch';

const FIRST_JOB_ID = 1962285;
const HOUR_MS = 3600_000;
/** A seeded account holds at most this many ended jobs (memory stays bounded). */
export const MAX_SEEDED_JOBS = 20_000;

export class JobStore {
  private readonly jobs = new Map<number, JobRecord>();
  private readonly runner: JobLifecycleRunner;
  private nextJobId = FIRST_JOB_ID;
  private nextServiceId = 72001;
  /** Seeded pods' ids, below the running pods' (lifecycle.ts starts at 990001). */
  private nextSeededPointId = 500001;
  private seeded = 0;
  private spotQueue = { remaining: 0, ms: 0 };
  private closed = false;

  constructor(
    private readonly clock: SandboxClock,
    private readonly pendingMs: number,
    private readonly volumeDirectory?: VolumeResolver,
  ) {
    this.runner = new JobLifecycleRunner(clock);
  }

  /** The next `count` Spot jobs wait in the queue (schedule_status Queued) for `ms` before they are scheduled. */
  queueSpot(count: number, ms: number): void {
    this.spotQueue = { remaining: count, ms };
  }

  has(taskId: number): boolean {
    return this.jobs.has(taskId);
  }

  /** Checks a body's NAS mounts (the NAS area sets it: Active volume, same region as resources[0]); throws the platform's failure. */
  checkMounts: ((input: JobCreateInput) => void) | undefined;

  create(input: JobCreateInput): number {
    if (this.closed) throw new SandboxFailure('Z001', 'the sandbox is closing');
    this.checkMounts?.(input);
    const now = this.clock.realNow();
    const id = this.nextJobId++;
    const mounts = resolveMounts(input.body.services, this.volumeDirectory);
    const ownsWorkDir = mounts.length === 0;
    const workDir = mounts[0]?.local ?? mkdtempSync(join(tmpdir(), `sandbox-job-${id}-`));
    const job = this.record(id, input, now, { workDir, mounts, ownsWorkDir });
    this.jobs.set(id, job);
    let waitMs = this.pendingMs;
    let queuedMs: number | undefined;
    if (job.body.sub_type === 'Spot' && this.spotQueue.remaining > 0) {
      this.spotQueue.remaining--;
      job.schedule = 'Queued';
      queuedMs = this.spotQueue.ms;
      waitMs += queuedMs;
    }
    this.runner.schedule(job, waitMs, queuedMs);
    return id;
  }

  /**
   * A heavy account's history: `count` jobs that ended long ago (an hour apart, the newest an hour old;
   * every seventh Failed, the others Complete), one pod each, nothing run. Returns their ids.
   */
  seedEnded(count: number, offer: { resource: TaskResource; pricePerSecond: number }): number[] {
    if (this.closed) throw new SandboxFailure('Z001', 'the sandbox is closing');
    if (!Number.isSafeInteger(count) || count < 0 || this.seeded + count > MAX_SEEDED_JOBS) {
      throw new RangeError(`ended job count must be a whole number, at most ${MAX_SEEDED_JOBS - this.seeded} more`);
    }
    this.seeded += count;
    const now = this.clock.realNow();
    const ids: number[] = [];
    for (let index = 0; index < count; index++) {
      const id = this.nextJobId++;
      const createdAt = now - (count - index) * HOUR_MS;
      const input: JobCreateInput = {
        pricePerSecond: offer.pricePerSecond,
        body: {
          task_name: `history-${String(index + 1).padStart(5, '0')}`,
          sub_type: null,
          resources: [offer.resource],
          points: 1,
          job_support: { estimated_exec_sec: null, timeout_sec: 600, parallelism: 1, mod_param: { default: { backoff_limit: 0, restart_policy: 'Never' }, index: null } },
          services: [{ service_name: 'main', service_image: 'harbor.suanleme.cn/public-hub/pytorch:latest', resource_weight: { cpu_weight: 1, mem_weight: 1, gpu_weight: 1 }, env: [], start_script: { command: ['python'], args: ['train.py'] } }],
        },
      };
      const job = this.record(id, input, createdAt, { workDir: '', mounts: [], ownsWorkDir: false });
      const failed = index % 7 === 6;
      job.lifecycle = 'End';
      job.execution = failed ? 'Failed' : 'Complete';
      job.startedAt = createdAt + 5_000;
      job.completedAt = createdAt + 5 * 60_000;
      job.lastUpdateAt = job.completedAt;
      job.pods.push({ pointId: this.nextSeededPointId++, name: `${job.deploymentName}-0-${randomSuffix(id)}`, index: null, createdAt: job.startedAt, startedAt: job.startedAt, endedAt: job.completedAt, status: failed ? 'Failed' : 'Succeeded', restarts: 0, containers: [] });
      if (failed) job.failedPods = 1;
      else job.succeededPods = 1;
      this.jobs.set(id, job);
      ids.push(id);
    }
    return ids;
  }

  stop(taskId: number): void {
    const job = this.get(taskId);
    if (job.lifecycle !== 'Pending' && job.lifecycle !== 'Running') {
      throw new SandboxFailure('C010', `cannot stop job ${taskId}: it is ${job.lifecycle}, needs Pending or Running`);
    }
    this.runner.finish(job, 'Manual', 'stopped by the user');
  }

  detail(taskId: number): JobDetail {
    return jobDetail(this.clock, this.get(taskId));
  }

  /** Newest first (by creation time, then id), filtered by lifecycle status and name, one page. */
  list(filter: { statuses?: string[]; searchValue?: string }, paging: Paging): { count: number; results: JobSummary[] } {
    const search = filter.searchValue?.toLowerCase();
    const found = [...this.jobs.values()]
      .filter((job) => (!filter.statuses || filter.statuses.includes(job.lifecycle)) && (!search || job.body.task_name.toLowerCase().includes(search)))
      .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
    const start = (paging.page - 1) * paging.pageSize;
    return { count: found.length, results: found.slice(start, start + paging.pageSize).map((job) => jobListItem(this.clock, job)) };
  }

  /** The job's pods as node list items. */
  nodes(taskId: number, statuses?: string[]): unknown[] {
    return jobNodes(this.clock, this.get(taskId), statuses);
  }

  nodeLog(taskId: number, pointId: number, serviceId: number): string {
    const job = this.get(taskId);
    const pod = job.pods.find((candidate) => candidate.pointId === pointId);
    if (!pod) throw invalidParam('point_id', `job ${taskId} has no pod ${pointId}`);
    const container = pod.containers.find((candidate) => candidate.service.service_id === serviceId);
    if (!container) throw invalidParam('service_id', `job ${taskId} has no service ${serviceId}`);
    return container.process?.log.text() ?? '';
  }

  /** Kills every process and removes the per-job temporary directories (the server's close). */
  close(): void {
    this.closed = true;
    for (const job of this.jobs.values()) {
      for (const timer of job.timers) clearTimeout(timer);
      for (const pod of job.pods) for (const container of pod.containers) container.process?.kill();
      if (job.ownsWorkDir) rmSync(job.workDir, { recursive: true, force: true });
    }
  }

  /** A new record in status Pending (Spot: Scheduled until the queue says otherwise). */
  private record(id: number, input: JobCreateInput, createdAt: number, where: Pick<JobRecord, 'workDir' | 'mounts' | 'ownsWorkDir'>): JobRecord {
    const services = input.body.services.map((service) => ({ ...service, service_id: this.nextServiceId++ }));
    return {
      id,
      body: { ...input.body, services },
      deploymentName: `job-${id % 100000}-${randomSuffix(id)}`,
      pricePerSecond: input.pricePerSecond,
      createdAt,
      lastUpdateAt: createdAt,
      lifecycle: 'Pending',
      execution: 'Pending',
      schedule: input.body.sub_type === 'Spot' ? 'Scheduled' : null,
      pods: [],
      succeededPods: 0,
      failedPods: 0,
      failures: 0,
      indexes: input.body.job_support.mod_param.index ? Array.from({ length: input.body.points }, () => ({ failures: 0, outcome: null })) : [],
      timers: [],
      ...where,
    };
  }

  private get(taskId: number): JobRecord {
    const job = this.jobs.get(taskId);
    if (!job) throw invalidParam('task_id', `no job ${taskId}`);
    return job;
  }
}
