// Interface A's route table: method, path, whether the body may or must be encrypted
// (docs/platform.md) and what each operation does with the sandbox state.

import type { Device } from '../../../src/core/compute/api';
import { isGpuDevice, type Catalog } from './catalog';
import { paginate, queryList, queryPaging, requireInt, requireQueryInt, type JsonObject } from './params';
import { checkStorage } from './storageCheck';
import { parseTaskCreate, MAX_POINTS } from './taskBody';
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
  /** Returns the envelope's `data`; throws SandboxFailure to reject. */
  handle(context: RouteContext): unknown;
}

const TASK_TYPES = ['Deployment'] as const;
const DEVICE_TYPES = ['GpuDevice', 'CpuDevice'] as const;
const TASK_STATUSES = ['Pending', 'Running', 'Paused', 'End', 'Other'] as const;
const NODE_STATUSES = ['Running', 'Pending', 'Succeeded', 'Failed', 'End', 'Unknown'] as const;
const STORAGE_TYPES = ['Juicefs', 'ShareStorage'] as const;
const STORAGE_STATUSES = ['Activate', 'Unactivated', 'Delete'] as const;

export function computeRoutes(catalog: Catalog, tasks: TaskStore): Route[] {
  const taskId = (body: JsonObject): number => requireInt(body, 'task_id', { min: 1 });

  const routes: Route[] = [
    {
      method: 'GET',
      path: '/api/deployment/resource/search',
      encryption: 'never',
      handle: ({ query }) => {
        queryList(query, 'task_type', TASK_TYPES); // every device serves Deployment tasks
        const deviceTypes = queryList(query, 'device_type', DEVICE_TYPES);
        const matches = (device: Device): boolean =>
          !deviceTypes || deviceTypes.includes(isGpuDevice(device) ? 'GpuDevice' : 'CpuDevice');
        const results = catalog.devices.filter(matches);
        return { count: results.length, results };
      },
    },
    {
      method: 'GET',
      path: '/api/deployment/task/search',
      encryption: 'never',
      handle: ({ query }) => {
        const paging = queryPaging(query);
        const found = tasks.list({
          types: queryList(query, 'type'),
          statuses: queryList(query, 'status', TASK_STATUSES),
          searchValue: query.get('search_value') ?? undefined,
        });
        return paginate(found, paging);
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
      handle: ({ body }) => ({ task_id: tasks.create(parseTaskCreate(body, catalog.marks)) }),
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
      handle: ({ body }) => (tasks.changePoints(taskId(body), requireInt(body, 'points', { min: 1, max: MAX_POINTS })), null),
    },
    {
      method: 'GET',
      path: '/api/deployment/task/points',
      encryption: 'never',
      handle: ({ query }) => {
        const id = requireQueryInt(query, 'task_id', { min: 1 });
        const paging = queryPaging(query);
        return paginate(tasks.nodes(id, queryList(query, 'status', NODE_STATUSES)), paging);
      },
    },
    {
      method: 'GET',
      path: '/api/deployment/task/point_log',
      encryption: 'never',
      handle: ({ query }) => ({
        logs: tasks.nodeLog(
          requireQueryInt(query, 'task_id', { min: 1 }),
          requireQueryInt(query, 'point_id', { min: 1 }),
          requireQueryInt(query, 'service_id', { min: 1 }),
        ),
      }),
    },
    {
      method: 'GET',
      path: '/api/storage/get_storage',
      encryption: 'never',
      handle: ({ query }) => {
        const storageTypes = queryList(query, 'storage_type', STORAGE_TYPES) ?? ['Juicefs'];
        const statuses = queryList(query, 'status', STORAGE_STATUSES);
        const paging = queryPaging(query);
        const found = catalog.storage.filter(
          (item) => storageTypes.includes(item.storage_type) && (!statuses || statuses.includes(item.status)),
        );
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

  // The platform's newer ("新版") paths for the same task operations (docs/platform.md).
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

