// Image preheat (镜像预热, docs/platform.md "Image preheat"): the operation types and their catalog
// entries together; src/core/compute/catalog.ts assembles PREHEAT_OPERATIONS into the one catalog.
// A preheat caches a container image ahead of a task: in the image cache of chosen regions (cluster
// mode: `regions`) or on a number of nodes of one spec (node mode: `resources` + `points`). Exactly one
// of the two is set; preheating reserves no capacity.

import { declare, int, paging, str } from '../compute/operationEntry';
import type { Paged } from '../compute/wire';

/** The task's lifecycle (`status`): Pending, Running, Paused, End (stopped: the console hides it). */
export type PreheatStatus = 'Pending' | 'Running' | 'Paused' | 'End';
/** One region's image cache: waiting, preheating, preheated. */
export type RegionCacheStatus = 'Begin' | 'Syncing' | 'Completed';

export interface PreheatRegion {
  region: string;
  region_name?: string | null;
}

export interface PreheatResource {
  /** From the resource search with task_type=ImagePreHeat, never built by hand. */
  mark: string;
  region_name?: string;
  weight?: number | null;
  resource?: Record<string, unknown> | null;
}

export interface PreheatService {
  service_name: string;
  service_image: string;
  /** Write-only: never returned by detail or list. */
  repository_account?: { repository_username: string; repository_password: string | null } | null;
  is_update_repository?: boolean | null;
  service_id?: number | string | null;
}

export interface PreheatCreateBody {
  task_name: string;
  regions?: PreheatRegion[] | null;
  resources?: PreheatResource[] | null;
  points?: number | null;
  scheduler_strategy?: { mode: 'Unrestricted' } | null;
  services: PreheatService[];
}

export interface PreheatTask {
  task_id: number;
  task_type?: 'ImagePreHeat' | null;
  task_name: string;
  status: PreheatStatus | null;
  regions?: PreheatRegion[] | null;
  resources?: PreheatResource[] | null;
  points?: number | null;
  used_points?: number | null;
  /** Nodes with the image pulled (node mode). */
  available_points?: number | null;
  region_cache_info?: { region: string; status: RegionCacheStatus }[] | null;
  create_time?: string | null;
  services: PreheatService[];
}

/**
 * Create is never retried (a lost answer could mean a second preheat). Stop ends the preheat for good
 * and is retried like the other stops: a repeat cannot do more.
 */
export const PREHEAT_OPERATIONS = {
  'preheat.regions': declare<{ params: Record<string, never>; result: { regions: { region: string; region_name: string }[] } }>({
    title: 'Image preheat regions',
    effect: 'read',
    method: 'GET',
    path: '/api/task/image_preheat/get_regions',
    encryption: 'never',
    idempotent: true,
    fields: [],
  }),
  'preheat.create': declare<{ params: PreheatCreateBody; result: { task_id: number } }>({
    title: 'Create image preheat',
    effect: 'write',
    method: 'POST',
    path: '/api/task/image_preheat/create',
    encryption: 'never',
    idempotent: false,
    fields: [str('task_name', true), int('points')],
  }),
  'preheat.detail': declare<{ params: { task_id: number }; result: PreheatTask | null }>({
    title: 'Image preheat detail',
    effect: 'read',
    method: 'GET',
    path: '/api/task/image_preheat/detail',
    encryption: 'never',
    idempotent: true,
    fields: [int('task_id', true)],
  }),
  'preheat.list': declare<{ params: { task_ids?: string; status?: string; search_value?: string; page?: number; page_size?: number }; result: Paged<PreheatTask> }>({
    title: 'List image preheats',
    effect: 'read',
    method: 'GET',
    path: '/api/task/image_preheat/search',
    encryption: 'never',
    idempotent: true,
    fields: [str('task_ids'), str('status'), str('search_value'), ...paging],
  }),
  'preheat.stop': declare<{ params: { task_id: number }; result: null }>({
    title: 'Stop image preheat',
    effect: 'destructive',
    method: 'POST',
    path: '/api/task/image_preheat/stop',
    encryption: 'never',
    idempotent: true,
    fields: [int('task_id', true)],
  }),
};
