// Interface A's route table: method, path, whether the body may or must be encrypted (the
// platform's per-endpoint flags) and what each operation does with the sandbox state. Parameters
// the platform's docs mark required are required here, with the docs' enums: a call the platform
// would refuse must fail against the sandbox too (C999 naming the parameter).

import type { Device } from '../../../src/core/compute/api';
import { isGpuDevice, type Catalog } from './catalog';
import { paginate, queryList, queryPaging, requireInt, requireQueryInt, requireQueryList, type JsonObject } from './params';
import { checkStorage } from './storageCheck';
import { parseTaskCreate, MAX_POINTS } from './taskBody';
import { checkStorageMounts } from './storageMounts';
import type { JobStore } from '../jobs/jobs';
import type { TaskStore } from './tasks';

export type Encryption = 'never' | 'optional' | 'required';

export interface RouteContext {
  query: URLSearchParams;
  /** The JSON object body (decrypted when it came encrypted); `{}` for GET. */
  body: JsonObject;
}

export interface Route {
  method: 'GET' | 'POST';
  path: string;
  encryption: Encryption;
  /** Media types an encrypted body may come as (default: application/json or text/plain). */
  encryptedMediaTypes?: readonly string[];
  /** Returns the envelope's `data` (or a promise of it); throws SandboxFailure to reject. */
  handle(context: RouteContext): unknown;
}

const TASK_TYPES = ['Deployment'] as const;
const DEVICE_TYPES = ['GpuDevice', 'CpuDevice'] as const;
/** The task list's `status` filter: the docs' query enum has no `Other` (only results can say Other). */
const TASK_STATUSES = ['Running', 'Pending', 'Paused', 'End'] as const;
const NODE_STATUSES = ['Running', 'Pending', 'Succeeded', 'Failed', 'End', 'Unknown'] as const;
const STORAGE_TYPES = ['Juicefs', 'ShareStorage'] as const;
const STORAGE_STATUSES = ['Activate', 'Unactivated', 'Delete'] as const;

/** `jobs`: a batch job's pods are listed and logged by the node operations too (task_id = job id). */
export function computeRoutes(catalog: Catalog, tasks: TaskStore, jobs?: JobStore): Route[] {
  const taskId = (body: JsonObject): number => requireInt(body, 'task_id', { min: 1 });

  const routes: Route[] = [
    {
      method: 'GET',
      path: '/api/deployment/resource/search',
      encryption: 'never',
      handle: ({ query }) => {
        requireQueryList(query, 'task_type', TASK_TYPES); // every device serves Deployment tasks
        const deviceTypes = requireQueryList(query, 'device_type', DEVICE_TYPES);
        const matches = (device: Device): boolean => deviceTypes.includes(isGpuDevice(device) ? 'GpuDevice' : 'CpuDevice');
        const results = catalog.devices.filter(matches);
        return { count: results.length, results };
      },
    },
    {
      method: 'GET',
      path: '/api/deployment/task/search',
      encryption: 'never',
      handle: ({ query }) => {
        const types = requireQueryList(query, 'type', TASK_TYPES);
        const statuses = requireQueryList(query, 'status', TASK_STATUSES);
        const paging = queryPaging(query);
        return tasks.list({ types, statuses, searchValue: query.get('search_value') ?? undefined }, paging);
      },
    },
    {
      method: 'GET',
      path: '/api/deployment/task/detail',
      encryption: 'never',
      handle: ({ query }) => tasks.detail(requireQueryInt(query, 'task_id', { min: 1 })),
    },
    {
      method: 'POST',
      path: '/api/deployment/task/create',
      encryption: 'optional',
      handle: ({ body }) => {
        const input = parseTaskCreate(body, catalog.marks);
        checkStorageMounts(input.services, catalog.storage);
        return { task_id: tasks.create(input) };
      },
    },
    {
      method: 'POST',
      path: '/api/deployment/task/pause',
      encryption: 'never',
      handle: ({ body }) => (tasks.pause(taskId(body)), null),
    },
    {
      method: 'POST',
      path: '/api/deployment/task/recover',
      encryption: 'never',
      handle: ({ body }) => (tasks.recover(taskId(body)), null),
    },
    {
      method: 'POST',
      path: '/api/deployment/task/stop',
      encryption: 'never',
      handle: ({ body }) => (tasks.stop(taskId(body)), null),
    },
    {
      method: 'POST',
      path: '/api/deployment/task/change_points',
      encryption: 'never',
      // Like the docs' example, the success answer has no `data` key (more §1): clients must read it as null.
      handle: ({ body }) => void tasks.changePoints(taskId(body), requireInt(body, 'points', { min: 1, max: MAX_POINTS })),
    },
    {
      method: 'GET',
      path: '/api/deployment/task/points',
      encryption: 'never',
      handle: ({ query }) => {
        const id = requireQueryInt(query, 'task_id', { min: 1 });
        const paging = queryPaging(query);
        const statuses = queryList(query, 'status', NODE_STATUSES);
        return paginate(jobs?.has(id) ? jobs.nodes(id, statuses) : tasks.nodes(id, statuses), paging);
      },
    },
    {
      method: 'GET',
      path: '/api/deployment/task/point_log',
      encryption: 'never',
      handle: ({ query }) => {
        const id = requireQueryInt(query, 'task_id', { min: 1 });
        const pointId = requireQueryInt(query, 'point_id', { min: 1 });
        const serviceId = requireQueryInt(query, 'service_id', { min: 1 });
        return { logs: jobs?.has(id) ? jobs.nodeLog(id, pointId, serviceId) : tasks.nodeLog(id, pointId, serviceId) };
      },
    },
    {
      method: 'GET',
      path: '/api/storage/get_storage',
      encryption: 'never',
      handle: ({ query }) => {
        const storageTypes = requireQueryList(query, 'storage_type', STORAGE_TYPES);
        const statuses = requireQueryList(query, 'status', STORAGE_STATUSES);
        const paging = queryPaging(query, { together: true });
        const found = catalog.storage.filter((item) => storageTypes.includes(item.storage_type) && statuses.includes(item.status));
        return paginate(found, paging);
      },
    },
    {
      method: 'POST',
      path: '/api/storage/encrypt/check',
      encryption: 'required',
      handle: ({ body }) => checkStorage(body, catalog.storage),
    },
  ];

  // The platform's newer ("新版") paths for the same task operations.
  const aliases: [string, string][] = [
    ['/api/task/deployment/create', '/api/deployment/task/create'],
    ['/api/task/deployment/detail', '/api/deployment/task/detail'],
    ['/api/task/deployment/search', '/api/deployment/task/search'],
  ];
  for (const [alias, target] of aliases) {
    const route = routes.find((candidate) => candidate.path === target);
    if (!route) throw new Error(`alias target ${target} is not a route`);
    routes.push({ ...route, path: alias });
  }
  return routes;
}

