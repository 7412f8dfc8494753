// Batch jobs with the platform's three status fields (docs/platform.md "Batch jobs"), really run:
//   create → status Pending (Spot: schedule_status Queued while a queue control holds it, then
//   Scheduled) → after pendingMs status Running, job_status Running, pods started up to `parallelism`
//   → each pod runs its containers' commands as local processes (podProcess.ts) in the mounted NAS
//   volume's directory → job_status Complete once `points` pods succeeded (indexed: every index once),
//   Failed past the backoff limit (indexed: past max_failed_index, or any index failed at the end) or
//   at timeout_sec (the active deadline) → status End. Stop (Pending or Running only) kills the pods:
//   status End, job_status Manual (the docs list Manual without a meaning: docs/platform.md).
// Pods are listed by the node list and their logs read by the node log operation (task_id = job id).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobCreateBody, JobDetail, JobExecutionStatus, JobLifecycle, JobScheduleStatus, JobService, JobSummary } from '../../../src/core/jobs/operations';
import type { SandboxClock } from '../clock';
import { SandboxFailure, invalidParam } from '../compute/codes';
import type { Paging } from '../compute/params';
import type { JobCreateInput } from './jobBody';
import { ContainerProcess } from './podProcess';

/** The platform bills every 5 minutes; forecast_value is the next period at the current rate. */
const BILLING_PERIOD_SECONDS = 300;
const FIRST_JOB_ID = 1962285;
/** The sandbox never lets a command run longer than this, whatever timeout_sec says. */
const SANDBOX_MAX_RUN_SEC = 3600;
/** Name of the index variable in indexed mode (the docs do not name it; Kubernetes' name). */
export const INDEX_ENV = 'JOB_COMPLETION_INDEX';

/** Where a NAS volume's files are on this machine; undefined for a volume that does not exist. */
export type VolumeResolver = (storageId: number) => string | undefined;

type PodStatus = 'Pending' | 'Running' | 'Succeeded' | 'Failed';

interface ContainerRecord {
  service: JobService & { service_id: number };
  process?: ContainerProcess;
  lastExit: number | null;
  reason: string | null;
}

interface PodRecord {
  pointId: number;
  name: string;
  index: number | null;
  createdAt: number;
  startedAt?: number;
  endedAt?: number;
  status: PodStatus;
  restarts: number;
  lastRestartAt?: number;
  containers: ContainerRecord[];
}

interface JobRecord {
  id: number;
  body: Omit<JobCreateBody, 'services'> & { services: (JobService & { service_id: number })[] };
  deploymentName: string;
  pricePerSecond: number;
  createdAt: number;
  lastUpdateAt: number;
  lifecycle: JobLifecycle;
  execution: JobExecutionStatus;
  schedule: JobScheduleStatus | null;
  startedAt?: number;
  completedAt?: number;
  pods: PodRecord[];
  succeededPods: number;
  failedPods: number;
  /** Non-indexed: pod failures counted against backoff_limit. */
  failures: number;
  /** Indexed: per index, failures and outcome. */
  indexes: { failures: number; outcome: 'succeeded' | 'failed' | null }[];
  timers: NodeJS.Timeout[];
  workDir: string;
  mounts: { target: string; local: string }[];
  ownsWorkDir: boolean;
}

export class JobStore {
  private readonly jobs = new Map<number, JobRecord>();
  private nextJobId = FIRST_JOB_ID;
  private nextPointId = 990001;
  private nextServiceId = 72001;
  private spotQueue = { remaining: 0, ms: 0 };
  private closed = false;

  constructor(
    private readonly clock: SandboxClock,
    private readonly pendingMs: number,
    private readonly volumeDirectory?: VolumeResolver,
  ) {}

  /** The next `count` Spot jobs wait in the queue (schedule_status Queued) for `ms` before they are scheduled. */
  queueSpot(count: number, ms: number): void {
    this.spotQueue = { remaining: count, ms };
  }

  has(taskId: number): boolean {
    return this.jobs.has(taskId);
  }

  create(input: JobCreateInput): number {
    if (this.closed) throw new SandboxFailure('Z001', 'the sandbox is closing');
    const now = this.clock.realNow();
    const id = this.nextJobId++;
    const mounts = this.resolveMounts(input.body.services);
    const ownsWorkDir = mounts.length === 0;
    const workDir = mounts[0]?.local ?? mkdtempSync(join(tmpdir(), `sandbox-job-${id}-`));
    const services = input.body.services.map((service) => ({ ...service, service_id: this.nextServiceId++ }));
    const spot = input.body.sub_type === 'Spot';
    const job: JobRecord = {
      id,
      body: { ...input.body, services },
      deploymentName: `job-${id % 100000}-${randomSuffix(id)}`,
      pricePerSecond: input.pricePerSecond,
      createdAt: now,
      lastUpdateAt: now,
      lifecycle: 'Pending',
      execution: 'Pending',
      schedule: spot ? 'Scheduled' : null,
      pods: [],
      succeededPods: 0,
      failedPods: 0,
      failures: 0,
      indexes: input.body.job_support.mod_param.index ? Array.from({ length: input.body.points }, () => ({ failures: 0, outcome: null })) : [],
      timers: [],
      workDir,
      mounts,
      ownsWorkDir,
    };
    this.jobs.set(id, job);
    let waitMs = this.pendingMs;
    if (spot && this.spotQueue.remaining > 0) {
      this.spotQueue.remaining--;
      job.schedule = 'Queued';
      waitMs += this.spotQueue.ms;
      this.later(job, this.spotQueue.ms, () => {
        job.schedule = 'Scheduled';
        this.touch(job);
      });
    }
    this.later(job, waitMs, () => this.start(job));
    return id;
  }

  stop(taskId: number): void {
    const job = this.get(taskId);
    if (job.lifecycle !== 'Pending' && job.lifecycle !== 'Running') {
      throw new SandboxFailure('C010', `cannot stop job ${taskId}: it is ${job.lifecycle}, needs Pending or Running`);
    }
    this.finish(job, 'Manual', 'stopped by the user');
  }

  detail(taskId: number): JobDetail {
    const job = this.get(taskId);
    const running = this.activePods(job).length;
    return {
      ...this.summary(job, this.formatRfc3339(job.createdAt)),
      deployment_name: job.deploymentName,
      billing_points: running,
      billing_time: Math.floor(this.podMs(job) / 1000),
      last_update_time: this.formatRfc3339(job.lastUpdateAt),
      share_disk_volumes: null,
      share_mem_volumes: null,
      task_qos: job.body.task_qos ?? null,
    };
  }

  list(filter: { statuses?: string[]; searchValue?: string }, paging: Paging): { count: number; results: JobSummary[] } {
    const search = filter.searchValue?.toLowerCase();
    const found = [...this.jobs.values()]
      .reverse()
      .filter((job) => (!filter.statuses || filter.statuses.includes(job.lifecycle)) && (!search || job.body.task_name.toLowerCase().includes(search)));
    const start = (paging.page - 1) * paging.pageSize;
    return { count: found.length, results: found.slice(start, start + paging.pageSize).map((job) => ({ ...this.summary(job, this.formatListTime(job.createdAt)), task_type: 'Job' })) };
  }

  /** The job's pods as node list items. */
  nodes(taskId: number, statuses?: string[]): unknown[] {
    const job = this.get(taskId);
    const first = job.body.resources[0];
    return job.pods
      .filter((pod) => !statuses || statuses.includes(pod.status))
      .map((pod) => ({
        point_id: pod.pointId,
        name: pod.name,
        status: pod.status,
        region: first?.resource.region ?? '',
        region_name: first?.region_name ?? '',
        resource: { gpu_name: first?.resource.gpu_name ?? null, gpu_count: first?.resource.gpu_count ?? 0, cpu_cores: first?.resource.cpu_cores ?? 0 },
        containers: pod.containers.map((container) => ({
          service_name: container.service.service_name,
          name: `${pod.name}-${container.service.service_name}`,
          image: container.service.service_image,
          gpu_limit: first?.resource.gpu_count ?? 0,
          reason: container.reason,
          message: container.reason,
          exit_code: container.lastExit,
        })),
        runing_time: Math.floor(this.runMs(pod) / 1000),
        billing_value: Math.floor((this.runMs(pod) / 1000) * job.pricePerSecond),
        port_mappings: null,
        describe_dto: { restart_count: pod.restarts, last_restart_time: pod.lastRestartAt === undefined ? null : this.formatRfc3339(pod.lastRestartAt) },
      }));
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

  // ---- lifecycle ----

  private start(job: JobRecord): void {
    if (job.lifecycle !== 'Pending') return;
    job.lifecycle = 'Running';
    job.execution = 'Running';
    job.startedAt = this.clock.realNow();
    this.touch(job);
    const deadlineSec = Math.min(job.body.job_support.timeout_sec, SANDBOX_MAX_RUN_SEC);
    this.later(job, deadlineSec * 1000, () => this.finish(job, 'Failed', `DeadlineExceeded: the job ran longer than timeout_sec (${job.body.job_support.timeout_sec} s)`));
    this.fill(job);
  }

  /** Starts pods until `parallelism` are active or nothing is left to run. */
  private fill(job: JobRecord): void {
    if (job.lifecycle !== 'Running') return;
    const parallelism = job.body.job_support.parallelism;
    if (job.indexes.length > 0) {
      const busy = new Set(this.activePods(job).map((pod) => pod.index));
      for (let index = 0; index < job.indexes.length && this.activePods(job).length < parallelism; index++) {
        if (job.indexes[index]?.outcome === null && !busy.has(index)) this.startPod(job, index);
      }
      return;
    }
    while (this.activePods(job).length < parallelism && job.succeededPods + this.activePods(job).length < job.body.points) {
      this.startPod(job, null);
    }
  }

  private startPod(job: JobRecord, index: number | null): void {
    const now = this.clock.realNow();
    const pod: PodRecord = {
      pointId: this.nextPointId++,
      name: `${job.deploymentName}-${index ?? job.pods.length}-${randomSuffix(this.nextPointId)}`,
      index,
      createdAt: now,
      startedAt: now,
      status: 'Running',
      restarts: 0,
      containers: job.body.services.map((service) => ({ service, lastExit: null, reason: null })),
    };
    job.pods.push(pod);
    this.touch(job);
    this.runContainers(job, pod);
  }

  private runContainers(job: JobRecord, pod: PodRecord): void {
    const runs = pod.containers.map((container) => {
      const previous = container.process;
      container.process = new ContainerProcess({ argv: this.argv(job, container.service), cwd: job.workDir, env: this.env(job, pod, container.service) });
      if (previous) container.process.log.note(`--- container restarted (attempt ${pod.restarts + 1}; previous exit ${previous === undefined ? '?' : String(container.lastExit)}) ---`);
      return container.process.done.then((result) => {
        container.lastExit = result.exitCode;
        container.reason = result.signal ? 'Killed' : result.exitCode === 0 ? 'Completed' : 'Error';
        return result;
      });
    });
    void Promise.all(runs).then((results) => {
      if (job.lifecycle !== 'Running' || pod.status !== 'Running') return;
      const failed = results.find((result) => result.exitCode !== 0);
      if (!failed) this.podSucceeded(job, pod);
      else this.podFailed(job, pod, failed.exitCode);
    });
  }

  private podSucceeded(job: JobRecord, pod: PodRecord): void {
    pod.status = 'Succeeded';
    pod.endedAt = this.clock.realNow();
    job.succeededPods++;
    const entry = pod.index === null ? undefined : job.indexes[pod.index];
    if (entry) entry.outcome = 'succeeded';
    this.touch(job);
    this.settle(job);
  }

  private podFailed(job: JobRecord, pod: PodRecord, exitCode: number | null): void {
    const defaults = job.body.job_support.mod_param.default;
    const perIndex = job.body.job_support.mod_param.index;
    if (defaults) {
      job.failures++;
      if (defaults.restart_policy === 'OnFailure' && job.failures <= defaults.backoff_limit) {
        pod.restarts++;
        pod.lastRestartAt = this.clock.realNow();
        this.touch(job);
        this.runContainers(job, pod); // restarted in place: same pod, its log continues
        return;
      }
      this.markFailed(job, pod);
      if (job.failures > defaults.backoff_limit) {
        this.finish(job, 'Failed', `BackoffLimitExceeded: ${job.failures} failures (backoff_limit ${defaults.backoff_limit}); last exit code ${String(exitCode)}`);
        return;
      }
      this.fill(job);
      return;
    }
    if (perIndex && pod.index !== null) {
      const entry = job.indexes[pod.index];
      this.markFailed(job, pod);
      if (!entry) return;
      entry.failures++;
      if (entry.failures > perIndex.index_backoff_limit) entry.outcome = 'failed';
      const failedIndexes = job.indexes.filter((candidate) => candidate.outcome === 'failed').length;
      if (perIndex.max_failed_index !== null && failedIndexes > perIndex.max_failed_index) {
        this.finish(job, 'Failed', `MaxFailedIndexesExceeded: ${failedIndexes} indexes failed (max_failed_index ${perIndex.max_failed_index})`);
        return;
      }
      this.settle(job);
    }
  }

  private markFailed(job: JobRecord, pod: PodRecord): void {
    pod.status = 'Failed';
    pod.endedAt = this.clock.realNow();
    job.failedPods++;
    this.touch(job);
  }

  /** Completes the job when nothing is left to run, else starts what is next. */
  private settle(job: JobRecord): void {
    if (job.indexes.length > 0) {
      if (job.indexes.every((entry) => entry.outcome !== null)) {
        const failed = job.indexes.filter((entry) => entry.outcome === 'failed').length;
        this.finish(job, failed > 0 ? 'Failed' : 'Complete', failed > 0 ? `${failed} indexes failed` : undefined);
        return;
      }
    } else if (job.succeededPods >= job.body.points) {
      this.finish(job, 'Complete');
      return;
    }
    this.fill(job);
  }

  private finish(job: JobRecord, execution: JobExecutionStatus, why?: string): void {
    if (job.lifecycle === 'End') return;
    const now = this.clock.realNow();
    for (const timer of job.timers) clearTimeout(timer);
    job.timers = [];
    for (const pod of this.activePods(job)) {
      for (const container of pod.containers) {
        if (container.process?.running) {
          if (why) container.process.log.note(`--- pod terminated: ${why} ---`);
          container.process.kill();
        }
      }
      pod.status = execution === 'Complete' ? 'Succeeded' : 'Failed';
      pod.endedAt = now;
      if (pod.status === 'Failed') job.failedPods++;
    }
    job.lifecycle = 'End';
    job.execution = execution;
    if (job.schedule === 'Queued') job.schedule = 'Scheduled';
    job.completedAt = now;
    this.touch(job);
  }

  // ---- views ----

  private summary(job: JobRecord, createTime: string): JobSummary {
    const running = this.activePods(job).length;
    const indexed = job.indexes.length > 0;
    return {
      task_id: job.id,
      task_name: job.body.task_name,
      sub_type: job.body.sub_type ?? null,
      schedule_status: job.schedule,
      resources: job.body.resources.map((resource) => ({ ...resource, resource: { ...resource.resource } })),
      status: job.lifecycle,
      points: job.body.points,
      runing_points: running,
      billing_value: Math.floor((this.podMs(job) / 1000) * job.pricePerSecond),
      forecast_value: running * job.pricePerSecond * BILLING_PERIOD_SECONDS,
      create_time: createTime,
      job_support: structuredClone(job.body.job_support),
      job_status: {
        create_time: job.startedAt === undefined ? null : this.formatUtc(job.startedAt),
        status: job.execution,
        completion_time: job.completedAt === undefined || job.execution !== 'Complete' ? null : this.formatUtc(job.completedAt),
        active_pods: job.lifecycle === 'Running' ? running : null,
        succeeded_pods: job.succeededPods,
        failed_pods: job.failedPods,
        completion_mode: indexed ? 'Indexed' : 'NonIndexed',
      },
      // Write-only fields (the repository password) never come back.
      services: job.body.services.map(({ repository_account: _account, ...service }) => structuredClone(service)),
    };
  }

  private activePods(job: JobRecord): PodRecord[] {
    return job.pods.filter((pod) => pod.status === 'Running' || pod.status === 'Pending');
  }

  private runMs(pod: PodRecord): number {
    if (pod.startedAt === undefined) return 0;
    return Math.max(0, (pod.endedAt ?? this.clock.realNow()) - pod.startedAt);
  }

  private podMs(job: JobRecord): number {
    return job.pods.reduce((total, pod) => total + this.runMs(pod), 0);
  }

  // ---- running ----

  /** command + args, with each mount's target_dir mapped to the volume's local directory. */
  private argv(job: JobRecord, service: JobService): string[] {
    const argv = [...(service.start_script?.command ?? []), ...(service.start_script?.args ?? [])];
    return argv.map((arg) => job.mounts.reduce((text, mount) => text.split(mount.target).join(mount.local), arg));
  }

  private env(job: JobRecord, pod: PodRecord, service: JobService): Record<string, string> {
    const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? job.workDir, LANG: 'C.UTF-8' };
    if (process.env.PYENV_ROOT) env.PYENV_ROOT = process.env.PYENV_ROOT;
    for (const variable of service.env ?? []) {
      if (variable.value !== null) env[variable.name] = variable.value;
      else if (variable.value_from?.field_ref?.field_path === 'metadata.name') env[variable.name] = pod.name;
      else if (variable.value_from?.resource_field_ref) env[variable.name] = String(job.body.resources[0]?.resource.cpu_cores ?? 1);
    }
    if (pod.index !== null) env[INDEX_ENV] = String(pod.index);
    return env;
  }

  private resolveMounts(services: readonly JobService[]): { target: string; local: string }[] {
    const mounts: { target: string; local: string }[] = [];
    services.forEach((service, serviceIndex) => {
      (service.nas_storage_config ?? []).forEach((mount, index) => {
        const local = this.volumeDirectory ? this.volumeDirectory(mount.storage_id) : undefined;
        if (this.volumeDirectory && local === undefined) {
          throw invalidParam(`services[${serviceIndex}].nas_storage_config[${index}].storage_id`, `no Active NAS volume ${mount.storage_id}`);
        }
        if (local !== undefined) mounts.push({ target: mount.target_dir, local });
      });
    });
    // Longest target first so /mnt/a/b maps before /mnt/a.
    return mounts.sort((a, b) => b.target.length - a.target.length);
  }

  private later(job: JobRecord, ms: number, action: () => void): void {
    const timer = setTimeout(action, ms);
    timer.unref();
    job.timers.push(timer);
  }

  private touch(job: JobRecord): void {
    job.lastUpdateAt = this.clock.realNow();
  }

  private get(taskId: number): JobRecord {
    const job = this.jobs.get(taskId);
    if (!job) throw invalidParam('task_id', `no job ${taskId}`);
    return job;
  }

  // ---- the three time formats the docs show ----

  private wall(realMs: number): Date {
    return new Date(realMs + this.clock.offsetMs + 8 * 3600_000);
  }

  /** 2026-04-21T09:01:23.441992+08:00 (detail). */
  private formatRfc3339(realMs: number): string {
    return `${this.wall(realMs).toISOString().replace(/Z$/, '')}000+08:00`;
  }

  /** 2026-04-21 09:04:20.500576 +08:00 (list). */
  private formatListTime(realMs: number): string {
    return `${this.wall(realMs).toISOString().replace('T', ' ').replace(/Z$/, '')}000 +08:00`;
  }

  /** 2026-04-21T01:01:23Z (job_status). */
  private formatUtc(realMs: number): string {
    return new Date(realMs + this.clock.offsetMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }
}

function randomSuffix(seed: number): string {
  let value = (seed * 2654435761) >>> 0;
  let text = '';
  for (let i = 0; i < 8; i++) {
    text += 'abcdefghijklmnopqrstuvwxyz0123456789'[value % 36];
    value = Math.floor(value / 36) + i * 7919;
  }
  return text;
}
