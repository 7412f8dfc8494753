// The task and node operations: each entry's params and result types sit beside it (CONTRIBUTING.md,
// "Add a platform operation"); src/core/compute/catalog.ts assembles the area catalogs into one.


import { declare, int, paging, query, str } from '../compute/operationEntry';
import type { Paged } from '../compute/wire';
import type { ResourceSpec } from '../resources/operations';

export type TaskStatus = 'Pending' | 'Running' | 'Paused' | 'End' | 'Other';

export interface RemotePort {
  service_port: number;
  url?: string | null;
}

export interface ServiceSpec {
  service_name: string;
  service_image: string;
  remote_ports: RemotePort[];
  env?: string | null;
  shared_mem_size?: number | null;
  start_script_v2?: { command: string | null; args: string[] } | null;
  storage_config?: { storage_id: number; target_dir: string }[] | null;
  /** NAS volumes mounted in the container: Active, in the task's region (docs/nas.md). */
  nas_storage_config?: { storage_id: number; target_dir: string }[] | null;
  /** liveness / startup / readiness probes; task update requires the key (null when none). */
  health_checks?: Record<string, unknown> | null;
}

export interface TaskResource {
  resource: ResourceSpec;
  region_name: string;
  mark: string;
  weight?: number;
}

export interface TaskSummary {
  task_id: number;
  task_name: string;
  status: TaskStatus;
  points: number;
  runing_points: number; // sic: the platform spells it with one n
  billing_value: number;
  forecast_value: number;
  create_time: string;
  resources: TaskResource[];
  services: (ServiceSpec & { service_id: number })[];
}

export interface TaskDetail extends TaskSummary {
  task_type?: string;
  namespace?: string;
  billing_points?: number;
}

export interface TaskCreateBody {
  task_name: string;
  points: number;
  task_type?: 'Deployment';
  resources: { mark: string; resource: ResourceSpec; region_name: string }[];
  services: ServiceSpec[];
}

/** Task update overwrites the whole task: the body is the detail as read, edited. */
export interface TaskUpdateBody extends Omit<TaskCreateBody, 'task_type'> {
  task_id: number;
  [more: string]: unknown;
}

export type NodeStatus = 'Running' | 'Pending' | 'Succeeded' | 'Failed' | 'End' | 'Unknown';

export interface TaskNode {
  point_id: number;
  name: string;
  status: NodeStatus;
  region: string;
  region_name: string;
  /** Counts typed strings by the docs, sent as numbers (platform-more-apis.md §9): read through countOf. */
  resource: { gpu_name: string | null; gpu_count: number | string | null; cpu_cores: number | string | null };
  billing_value: number;
}

/** Node list item fields beyond TaskNode that the platform documents (docs/money.md). */
export interface NodeDetail extends TaskNode {
  containers?: { service_name?: string | null; name: string; image: string; gpu_limit?: number; reason?: string | null; message?: string | null; exit_code?: unknown }[];
  runing_time?: number;
  describe_dto?: { last_restart_time?: string | null; restart_count: number };
}

/** One Kubernetes-style node event (type Normal / Warning). */
export interface NodeEvent {
  reason: string;
  message: string;
  type: string;
  event_time: string;
  service: string | null;
}

export const TASK_OPERATIONS = {
  'task.list': declare<{ params: { type: string; status: string; search_value?: string; page?: number; page_size?: number }; result: Paged<TaskSummary> }>({
    title: 'List tasks',
    effect: 'read',
    method: 'GET',
    path: '/api/deployment/task/search',
    encryption: 'never',
    idempotent: true,
    fields: [query('type', 'Deployment'), query('status', 'Running,Pending,Paused'), str('search_value'), ...paging],
  }),
  'task.create': declare<{ params: TaskCreateBody; result: { task_id: number } }>({
    title: 'Create task',
    effect: 'write',
    method: 'POST',
    path: '/api/deployment/task/create',
    encryption: 'optional',
    idempotent: false,
    fields: [str('task_name', true), int('points', true), str('task_type')],
  }),
  'task.detail': declare<{ params: { task_id: number }; result: TaskDetail }>({
    title: 'Task detail',
    effect: 'read',
    method: 'POST',
    path: '/api/deployment/task/detail',
    encryption: 'never',
    idempotent: true,
    fields: [int('task_id', true)],
  }),
  'task.pause': declare<{ params: { task_id: number }; result: null }>({
    title: 'Pause task',
    effect: 'write',
    method: 'POST',
    path: '/api/deployment/task/pause',
    encryption: 'never',
    idempotent: true,
    fields: [int('task_id', true)],
  }),
  'task.recover': declare<{ params: { task_id: number }; result: null }>({
    title: 'Recover task',
    effect: 'write',
    method: 'POST',
    path: '/api/deployment/task/recover',
    encryption: 'never',
    idempotent: true,
    fields: [int('task_id', true)],
  }),
  'task.stop': declare<{ params: { task_id: number }; result: null }>({
    title: 'Stop (delete) task',
    effect: 'destructive',
    method: 'POST',
    path: '/api/deployment/task/stop',
    encryption: 'never',
    idempotent: true,
    fields: [int('task_id', true)],
  }),
  'task.changePoints': declare<{ params: { task_id: number; points: number }; result: null }>({
    title: 'Change node count',
    effect: 'write',
    method: 'POST',
    path: '/api/deployment/task/change_points',
    encryption: 'never',
    idempotent: true,
    fields: [int('task_id', true), int('points', true)],
  }),
  'node.list': declare<{ params: { task_id: number; status?: string; page?: number; page_size?: number }; result: Paged<TaskNode> }>({
    title: 'List task nodes',
    effect: 'read',
    method: 'GET',
    path: '/api/deployment/task/points',
    encryption: 'never',
    idempotent: true,
    fields: [int('task_id', true), str('status'), ...paging],
  }),
  // The whole log every time (docs/platform.md): only its end is kept, `logsFrom` says where it starts.
  'node.log': declare<{ params: { task_id: number; point_id: number; service_id: number }; result: { logs: string; logsFrom: number } }>({
    title: 'Node log',
    effect: 'read',
    method: 'GET',
    path: '/api/deployment/task/point_log',
    encryption: 'never',
    idempotent: true,
    fields: [int('task_id', true), int('point_id', true), int('service_id', true)],
    tailOf: 'logs',
  }),
  // Overwrites the whole configuration (a running task restarts its nodes); sending the same whole
  // configuration twice leaves the task as the first did, so it is retried like the other writes.
  'task.update': declare<{ params: TaskUpdateBody; result: null }>({
    title: 'Update task (whole overwrite)',
    effect: 'destructive',
    method: 'POST',
    path: '/api/deployment/task/update',
    encryption: 'never',
    idempotent: true,
    fields: [int('task_id', true), str('task_name', true)],
  }),
  'node.events': declare<{ params: { point_id: number }; result: { events: NodeEvent[] } }>({
    title: 'Node events',
    effect: 'read',
    method: 'GET',
    path: '/api/deployment/task/pod_event',
    encryption: 'never',
    idempotent: true,
    fields: [int('point_id', true)],
  }),
  // Deletes one node (the platform schedules a replacement; what ran on it is lost). A repeat would
  // delete the replacement node: never retried.
  'node.delete': declare<{ params: { point_id: number }; result: null }>({
    title: 'Delete (reschedule) one node',
    effect: 'destructive',
    method: 'POST',
    path: '/api/deployment/task/delete_pod',
    encryption: 'never',
    idempotent: false,
    fields: [int('point_id', true)],
  }),
};
