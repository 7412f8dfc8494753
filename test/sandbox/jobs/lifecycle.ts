// A batch job's state machine (docs/platform.md "Batch jobs"), on the records of records.ts:
//   status Pending (Spot: schedule_status Queued while a queue control holds it, then Scheduled) →
//   after the pending wait status Running, job_status Running, pods started up to `parallelism` → each
//   pod runs its containers as local processes (podProcess.ts, launched as containerLaunch.ts says) →
//   job_status Complete once `points` pods succeeded (indexed: every index once), Failed past the backoff
//   limit (indexed: past max_failed_index, or any index failed at the end) or at timeout_sec (the
//   active deadline) → status End. finish() is also the stop (job_status Manual).

import type { JobExecutionStatus } from '../../../src/core/jobs/operations';
import type { SandboxClock } from '../clock';
import { containerArgv, containerEnv } from './containerLaunch';
import { ContainerProcess } from './podProcess';
import { activePods, randomSuffix, type JobRecord, type PodRecord } from './records';

/** The sandbox never lets a command run longer than this, whatever timeout_sec says. */
const SANDBOX_MAX_RUN_SEC = 3600;

export class JobLifecycleRunner {
  private nextPointId = 990001;

  constructor(private readonly clock: SandboxClock) {}

  /** A new job waits `waitMs` before it starts; a queued Spot job reads Scheduled after `queuedMs`. */
  schedule(job: JobRecord, waitMs: number, queuedMs?: number): void {
    if (queuedMs !== undefined) {
      this.later(job, queuedMs, () => {
        job.schedule = 'Scheduled';
        this.touch(job);
      });
    }
    this.later(job, waitMs, () => this.start(job));
  }

  /** Ends the job: kills its pods, status End, job_status `execution`; `why` is noted in running logs. */
  finish(job: JobRecord, execution: JobExecutionStatus, why?: string): void {
    if (job.lifecycle === 'End') return;
    const now = this.clock.realNow();
    for (const timer of job.timers) clearTimeout(timer);
    job.timers = [];
    for (const pod of activePods(job)) {
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
      const busy = new Set(activePods(job).map((pod) => pod.index));
      for (let index = 0; index < job.indexes.length && activePods(job).length < parallelism; index++) {
        if (job.indexes[index]?.outcome === null && !busy.has(index)) this.startPod(job, index);
      }
      return;
    }
    while (activePods(job).length < parallelism && job.succeededPods + activePods(job).length < job.body.points) {
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
      container.process = new ContainerProcess({ argv: containerArgv(job, container.service), cwd: job.workDir, env: containerEnv(job, pod, container.service) });
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

  private later(job: JobRecord, ms: number, action: () => void): void {
    const timer = setTimeout(action, ms);
    timer.unref();
    job.timers.push(timer);
  }

  private touch(job: JobRecord): void {
    job.lastUpdateAt = this.clock.realNow();
  }
}
