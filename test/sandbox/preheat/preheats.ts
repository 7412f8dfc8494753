// Image preheat in the sandbox (docs/platform.md "Image preheat"), as strict as the platform's docs:
// exactly one mode (cluster: `regions` from get_regions; node: `resources` with issued marks + `points`),
// at least one service with a name and an image, the status enum in the list filter, stop only while
// Running or Paused. An account that has not applied for image preheat is refused on every route
// (C008, the sandbox's reading: compute/codes.ts). Progress follows real elapsed time: Pending for
// `pendingMs`, then each region's cache (or each node) is ready after `syncMs`.

import type { SandboxClock } from '../clock';
import { SandboxFailure, invalidParam } from '../compute/codes';
import { asArray, asObject, optionalString, paginate, queryList, queryPaging, requireInt, requireQueryInt, requireString, type JsonObject } from '../compute/params';
import type { Route } from '../compute/routes';

export const PREHEAT_REGIONS = [
  { region: 'bj-jxq-t1', region_name: '北京酒仙桥t1' },
  { region: 'tengxun-sheq-t1', region_name: '腾讯社区t1' },
] as const;
/**
 * The compute regions (by resource-search name) whose tasks pull from each preheat region's image cache:
 * the sandbox's reading, as the docs do not say how the two region lists relate (docs/sandbox-rules.md).
 */
const CACHE_SERVES: Record<(typeof PREHEAT_REGIONS)[number]['region'], readonly string[]> = {
  'bj-jxq-t1': ['北京一区', '河北一区'],
  'tengxun-sheq-t1': ['广东一区', '浙江一区'],
};
const STATUSES = ['Pending', 'Running', 'Paused', 'End'] as const;
const BASE = '/api/task/image_preheat';
const MAX_POINTS = 100;

interface Preheat {
  task_id: number;
  task_name: string;
  regions: { region: string; region_name: string | null }[] | null;
  resources: { mark: string; region_name: string }[] | null;
  points: number | null;
  services: { service_name: string; service_image: string; service_id: number }[];
  createdAt: number;
  stopped: boolean;
}

export interface PreheatControl {
  /** Whether the account has applied for image preheat (default true). */
  setEnabled(enabled: boolean): void;
  /** How long a region's cache or a node takes to be ready once Running (ms, default 2000). */
  setSyncMs(ms: number): void;
  /**
   * How much longer a task stays Pending to pull an image no finished cluster preheat cached for its
   * region (ms, default 0: starts do not depend on preheat unless a test or benchmark asks).
   */
  setImagePullMs(ms: number): void;
}

export interface PreheatSandbox extends PreheatControl {
  routes: Route[];
  /** The image pull a new task in `regionName` (a resource-search region name) waits for: 0 once cached there. */
  pullMs(image: string, regionName: string): number;
}

function services(body: JsonObject): Preheat['services'] {
  const list = asArray('services', body.services ?? null);
  if (list.length === 0) throw invalidParam('services', 'needs at least one service');
  return list.map((value, index) => {
    const service = asObject(`services[${index}]`, value);
    const account = service.repository_account;
    if (account !== undefined && account !== null) {
      const accountObject = asObject(`services[${index}].repository_account`, account);
      requireString(accountObject, 'repository_username', `services[${index}].repository_account.repository_username`);
      optionalString(accountObject, 'repository_password', `services[${index}].repository_account.repository_password`);
    }
    // A boolean here (storage §5.3), unlike a job service's string.
    if (!absent(service.is_update_repository) && typeof service.is_update_repository !== 'boolean') throw invalidParam(`services[${index}].is_update_repository`, 'expected a boolean or null');
    return {
      service_name: requireString(service, 'service_name', `services[${index}].service_name`),
      service_image: requireString(service, 'service_image', `services[${index}].service_image`),
      service_id: index + 1,
    };
  });
}

function absent(value: unknown): boolean {
  return value === undefined || value === null;
}

export function createPreheatSandbox(clock: SandboxClock, marks: ReadonlySet<string>, options: { pendingMs?: number } = {}): PreheatSandbox {
  const preheats = new Map<number, Preheat>();
  let nextId = 38_116;
  let enabled = true;
  let syncMs = 2_000;
  let imagePullMs = 0;
  const pendingMs = options.pendingMs ?? 500;

  const view = (preheat: Preheat): JsonObject => {
    const age = clock.realNow() - preheat.createdAt;
    const running = age >= pendingMs;
    const ready = running && age >= pendingMs + syncMs;
    const status = preheat.stopped ? 'End' : running ? 'Running' : 'Pending';
    const cache = preheat.regions?.map(({ region }) => ({ region, status: ready ? 'Completed' : running ? 'Syncing' : 'Begin' })) ?? null;
    const available = preheat.points === null ? null : ready ? preheat.points : 0;
    return {
      task_id: preheat.task_id,
      task_type: 'ImagePreHeat',
      task_name: preheat.task_name,
      status,
      regions: preheat.regions,
      resources: preheat.resources,
      scheduler_strategy: null,
      points: preheat.points,
      used_points: preheat.points === null ? null : 0,
      available_points: available,
      region_cache_info: cache,
      create_time: new Date(preheat.createdAt).toISOString(),
      services: preheat.services,
    };
  };

  const create = (body: JsonObject): number => {
    const task_name = requireString(body, 'task_name');
    const hasRegions = !absent(body.regions);
    const hasResources = !absent(body.resources);
    if (hasRegions === hasResources) throw invalidParam('regions', 'set exactly one of regions (cluster preheat) and resources (node preheat)');
    let regions: Preheat['regions'] = null;
    let resources: Preheat['resources'] = null;
    let points: number | null = null;
    if (hasRegions) {
      for (const field of ['points', 'scheduler_strategy'] as const) if (!absent(body[field])) throw invalidParam(field, 'must be null in a cluster preheat');
      const list = asArray('regions', body.regions);
      if (list.length === 0) throw invalidParam('regions', 'needs at least one region');
      regions = list.map((value, index) => {
        const item = asObject(`regions[${index}]`, value);
        const region = requireString(item, 'region', `regions[${index}].region`);
        optionalString(item, 'region_name', `regions[${index}].region_name`);
        const known = PREHEAT_REGIONS.find((candidate) => candidate.region === region);
        if (!known) throw invalidParam(`regions[${index}].region`, `"${region.slice(0, 40)}" is not a preheat region (see get_regions)`);
        return { region, region_name: known.region_name };
      });
    } else {
      const list = asArray('resources', body.resources);
      if (list.length === 0) throw invalidParam('resources', 'needs at least one resource');
      resources = list.map((value, index) => {
        const resource = asObject(`resources[${index}]`, value);
        const mark = requireString(resource, 'mark', `resources[${index}].mark`);
        if (!marks.has(mark)) throw invalidParam(`resources[${index}].mark`, 'is not a mark the resource search issued');
        if (!absent(resource.weight)) requireInt(resource, 'weight', { min: 0 }, `resources[${index}].weight`);
        return { mark, region_name: optionalString(resource, 'region_name', `resources[${index}].region_name`) ?? '' };
      });
      points = requireInt(body, 'points', { min: 1, max: MAX_POINTS });
      const strategy = body.scheduler_strategy;
      if (!absent(strategy) && asObject('scheduler_strategy', strategy).mode !== 'Unrestricted') throw invalidParam('scheduler_strategy.mode', 'must be "Unrestricted"');
    }
    const task_id = nextId++;
    preheats.set(task_id, { task_id, task_name, regions, resources, points, services: services(body), createdAt: clock.realNow(), stopped: false });
    return task_id;
  };

  const list = (query: URLSearchParams): { count: number; results: JsonObject[] } => {
    const statuses = queryList(query, 'status', STATUSES);
    const ids = queryList(query, 'task_ids')?.map((id) => {
      if (!/^\d{1,15}$/.test(id)) throw invalidParam('task_ids', `"${id.slice(0, 20)}" is not an id`);
      return Number(id);
    });
    const search = query.get('search_value') ?? '';
    const found = [...preheats.values()]
      .map(view)
      .filter((task) => (!statuses || statuses.includes(task.status as string)) && (!ids || ids.includes(task.task_id as number)) && (task.task_name as string).includes(search))
      .reverse();
    return paginate(found, queryPaging(query));
  };

  const stop = (taskId: number): null => {
    const preheat = preheats.get(taskId);
    if (!preheat) throw invalidParam('task_id', `no preheat ${taskId}`);
    const status = view(preheat).status;
    if (status !== 'Running' && status !== 'Paused') throw new SandboxFailure('C010', `task_id: a ${String(status)} preheat cannot be stopped (only Running or Paused)`);
    preheat.stopped = true;
    return null;
  };

  const guarded = (route: Route): Route => ({
    ...route,
    handle: (context) => {
      if (!enabled) throw new SandboxFailure('C008', 'image preheat is not enabled for this account: apply for it in the console first');
      return route.handle(context);
    },
  });

  const routes: Route[] = [
    { method: 'GET', path: `${BASE}/get_regions`, encryption: 'never', handle: () => ({ regions: PREHEAT_REGIONS.map((region) => ({ ...region })) }) },
    { method: 'POST', path: `${BASE}/create`, encryption: 'optional', handle: ({ body }) => ({ task_id: create(body) }) },
    {
      method: 'GET',
      path: `${BASE}/detail`,
      encryption: 'never',
      handle: ({ query }) => {
        const preheat = preheats.get(requireQueryInt(query, 'task_id', { min: 1 }));
        return preheat ? view(preheat) : null;
      },
    },
    { method: 'GET', path: `${BASE}/search`, encryption: 'never', handle: ({ query }) => list(query) },
    { method: 'POST', path: `${BASE}/stop`, encryption: 'never', handle: ({ body }) => stop(requireInt(body, 'task_id', { min: 1 })) },
  ];

  /** Whether a cluster preheat that is not stopped has `image` Completed in a cache serving `regionName`. */
  const cached = (image: string, regionName: string): boolean =>
    [...preheats.values()].some((preheat) => {
      if (preheat.stopped || !preheat.services.some((service) => service.service_image === image)) return false;
      const cache = view(preheat).region_cache_info as { region: keyof typeof CACHE_SERVES; status: string }[] | null;
      return (cache ?? []).some((entry) => entry.status === 'Completed' && (CACHE_SERVES[entry.region] ?? []).includes(regionName));
    });

  return {
    routes: routes.map(guarded),
    pullMs: (image, regionName) => (imagePullMs === 0 || cached(image, regionName) ? 0 : imagePullMs),
    setImagePullMs: (ms) => {
      if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError(`imagePullMs must be a whole number of ms ≥ 0, got ${String(ms)}`);
      imagePullMs = ms;
    },
    setEnabled: (value) => {
      enabled = value;
    },
    setSyncMs: (ms) => {
      if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError(`syncMs must be a whole number of ms ≥ 0, got ${String(ms)}`);
      syncMs = ms;
    },
  };
}
