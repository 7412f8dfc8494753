// What the sandbox keeps of a batch job: the job, its pods and each pod's containers (the platform's
// three status fields as `lifecycle`, `execution` and `schedule`), and the pod-time arithmetic the bill
// and the node list share. Plain data; lifecycle.ts moves it, answers.ts shows it.

import type { JobCreateBody, JobExecutionStatus, JobLifecycle, JobScheduleStatus, JobService } from '../../../src/core/jobs/operations';
import type { ContainerProcess } from './podProcess';

export type PodStatus = 'Pending' | 'Running' | 'Succeeded' | 'Failed';

export interface ContainerRecord {
  service: JobService & { service_id: number };
  process?: ContainerProcess;
  lastExit: number | null;
  reason: string | null;
}

export interface PodRecord {
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

/** A NAS mount: the job's target_dir and the volume's directory on this machine. */
export interface MountRecord {
  target: string;
  local: string;
}

export interface JobRecord {
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
  mounts: MountRecord[];
  ownsWorkDir: boolean;
}

export function activePods(job: JobRecord): PodRecord[] {
  return job.pods.filter((pod) => pod.status === 'Running' || pod.status === 'Pending');
}

/** How long a pod has run (ms) up to `now` or its end. */
export function runMs(pod: PodRecord, now: number): number {
  if (pod.startedAt === undefined) return 0;
  return Math.max(0, (pod.endedAt ?? now) - pod.startedAt);
}

/** Pod-milliseconds of every pod of the job (what the bill counts). */
export function podMs(job: JobRecord, now: number): number {
  return job.pods.reduce((total, pod) => total + runMs(pod, now), 0);
}

/** A stable 8-character suffix for deployment and pod names. */
export function randomSuffix(seed: number): string {
  let value = (seed * 2654435761) >>> 0;
  let text = '';
  for (let i = 0; i < 8; i++) {
    text += 'abcdefghijklmnopqrstuvwxyz0123456789'[value % 36];
    value = Math.floor(value / 36) + i * 7919;
  }
  return text;
}
