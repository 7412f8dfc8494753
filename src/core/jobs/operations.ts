// Batch jobs (Job 批处理, docs/platform.md "Batch jobs"): the operation types and their catalog
// entries together; src/core/compute/catalog.ts assembles JOB_OPERATIONS into the one catalog.
//
// A job's pods and their logs come from the node list and node log operations (`node.list`,
// `node.log`) with the job's task_id: the platform documents no job-specific log call.

import { declare, int, paging, str } from '../compute/operationEntry';
import type { Paged } from '../compute/wire';
import type { TaskResource } from '../tasks/operations';

/** Task lifecycle (`status`). The docs have no pause operation for jobs; Paused is read, never set. */
export type JobLifecycle = 'Pending' | 'Running' | 'Paused' | 'End';
/** Execution (`job_status.status`). */
export type JobExecutionStatus = 'Pending' | 'Manual' | 'Running' | 'Complete' | 'Failed';
/** Spot scheduling (`schedule_status`); null for on-demand jobs. */
export type JobScheduleStatus = 'Scheduled' | 'Queued';

export interface JobModParam {
  /** Non-indexed: how many new pods may be created before the job fails; OnFailure restarts in place. */
  default: { backoff_limit: number; restart_policy: 'OnFailure' | 'Never' } | null;
  /** Indexed: each pod gets a fixed index; per-index retries; the job fails past max_failed_index. */
  index: { index_backoff_limit: number; max_failed_index: number | null } | null;
}

export interface JobSupport {
  /** Required for Spot (1–86400 s): a little above the real run time and below the timeout. */
  estimated_exec_sec: number | null;
  /** Hard wall-clock limit: the platform kills the job after it. */
  timeout_sec: number;
  parallelism: number;
  mod_param: JobModParam;
}

export interface JobEnvVar {
  name: string;
  value: string | null;
  value_from?: { field_ref?: { field_path: string } | null; resource_field_ref?: { service_name?: string; resource: string } | null } | null;
}

export interface JobMount {
  storage_id: number;
  target_dir: string;
}

export interface JobService {
  service_id?: number | null;
  service_name: string;
  service_image: string;
  resource_weight: { cpu_weight: number; mem_weight: number; gpu_weight: number };
  env?: JobEnvVar[] | null;
  start_script?: { command: string[]; args: string[] } | null;
  nas_storage_config?: JobMount[] | null;
  storage_config?: JobMount[] | null;
  share_storage_config?: JobMount[] | null;
  remote_ports?: { url?: string | null; service_port: number }[] | null;
  /** Write-only: never returned by detail. */
  repository_account?: { repository_username: string; repository_password: string | null } | null;
  [extra: string]: unknown;
}

export interface JobCreateBody {
  task_name: string;
  /** "Spot", or null/absent for on-demand. */
  sub_type?: 'Spot' | null;
  resources: TaskResource[];
  /** Successful completions required (not nodes, not billing points). */
  points: number;
  job_support: JobSupport;
  services: JobService[];
  task_qos?: { class: 'Guaranteed' } | null;
  share_disk_volumes?: { name: string }[] | null;
  share_mem_volumes?: { name: string; size_limit: number }[] | null;
}

export interface JobStatusBlock {
  create_time: string | null;
  status: JobExecutionStatus;
  completion_time: string | null;
  active_pods: number | null;
  succeeded_pods: number;
  failed_pods: number;
  /** The docs' enum has only NonIndexed (or null); indexed jobs may say Indexed (docs/platform.md). */
  completion_mode: 'NonIndexed' | 'Indexed' | null;
}

export interface JobSummary {
  task_id: number;
  task_name: string;
  task_type?: 'Job';
  sub_type: 'Spot' | null;
  schedule_status: JobScheduleStatus | null;
  resources: TaskResource[];
  status: JobLifecycle;
  points: number;
  runing_points: number; // sic
  billing_value: number;
  forecast_value: number;
  /** Three formats appear: RFC 3339 (detail), space-separated (list), UTC Z (job_status). */
  create_time: string;
  job_support: JobSupport;
  job_status: JobStatusBlock;
  services: JobService[];
}

export interface JobDetail extends JobSummary {
  deployment_name: string;
  billing_points: number;
  billing_time: number;
  last_update_time: string;
  share_disk_volumes?: { name: string }[] | null;
  share_mem_volumes?: { name: string; size_limit: number }[] | null;
  task_qos?: { class: 'Guaranteed' } | null;
}

export type QueueGroupStatus = 'Running' | 'Waiting' | 'End';

export interface QueueGroup {
  queue_id: number;
  queue_name: string;
  group_id: number;
  group_name: string;
  group_count: number;
  task_parallel_limit: number;
  status: QueueGroupStatus;
  billing_value: number;
  task_status_capacity: { Pending: number; Running: number; Paused: number; End: number };
  create_time: string;
  task_dto: Record<string, unknown>;
}

/**
 * Create is never retried (a lost answer could mean a second job that runs and bills). Stop ends the
 * job for good (no recover for jobs) and is retried like the task stop: a repeat cannot do more.
 */
export const JOB_OPERATIONS = {
  'job.create': declare<{ params: JobCreateBody; result: { task_id: number } }>({
    title: 'Create batch job',
    effect: 'write',
    method: 'POST',
    path: '/api/task/job/create',
    encryption: 'never',
    idempotent: false,
    fields: [str('task_name', true), int('points', true), str('sub_type')],
  }),
  'job.detail': declare<{ params: { task_id: number }; result: JobDetail }>({
    title: 'Batch job detail',
    effect: 'read',
    method: 'GET',
    path: '/api/task/job/detail',
    encryption: 'never',
    idempotent: true,
    fields: [int('task_id', true)],
  }),
  'job.list': declare<{ params: { status?: string; search_value?: string; page?: number; page_size?: number }; result: Paged<JobSummary> }>({
    title: 'List batch jobs',
    effect: 'read',
    method: 'GET',
    path: '/api/task/job/search',
    encryption: 'never',
    idempotent: true,
    fields: [str('status'), str('search_value'), ...paging],
  }),
  'job.stop': declare<{ params: { task_id: number }; result: null }>({
    title: 'Stop batch job',
    effect: 'destructive',
    method: 'POST',
    path: '/api/task/job/stop',
    encryption: 'never',
    idempotent: true,
    fields: [int('task_id', true)],
  }),
  'jobQueue.groups': declare<{
    params: { queue_id: number; status?: string; search_value?: string; page?: number; page_size?: number };
    result: Paged<QueueGroup>;
  }>({
    title: 'List queue task groups',
    effect: 'read',
    method: 'GET',
    path: '/api/job/queue/group/search',
    encryption: 'never',
    idempotent: true,
    fields: [int('queue_id', true), str('status'), str('search_value'), ...paging],
  }),
  'jobQueue.group': declare<{ params: { group_id: number }; result: QueueGroup | null }>({
    title: 'Queue task group detail',
    effect: 'read',
    method: 'GET',
    path: '/api/job/queue/group/detail',
    encryption: 'never',
    idempotent: true,
    fields: [int('group_id', true)],
  }),
};

