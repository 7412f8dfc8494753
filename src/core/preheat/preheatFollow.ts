// Preheat offered where a start is slow (docs/platform.md "Image preheat"): one cluster preheat of an
// image in the chosen regions (all preheat regions when none of the asked ones is one), followed to done
// with each region's cache state reported on every look. Plain Node: the wait between looks is passed
// in, so tests drive it; the platform's own guidance is a look every 10 s or more.

import type { ImagePreheatService } from './preheatService';
import type { PreheatTask, RegionCacheStatus } from './operations';
import { preheatProgress } from './preheatState';

/** The preheat SKILL's polling floor. */
export const PREHEAT_LOOK_EVERY_MS = 10_000;
/** Looks before giving up following (the preheat goes on in the Image Preheat view). */
const MAX_LOOKS = 360;

export interface RegionProgress {
  region: string;
  regionName: string;
  status: RegionCacheStatus;
}

export interface PreheatFollowed {
  taskId: number;
  done: boolean;
  regions: RegionProgress[];
  /** From create to done (or to the last look). */
  elapsedMs: number;
}

export interface FollowOptions {
  /** The regions to cache the image in: those that are preheat regions; all when none is. */
  regions?: readonly string[];
  /** Called on every look with each region's cache state. */
  onProgress?: (regions: readonly RegionProgress[]) => void;
  /** Waits between looks (resolves early when the signal aborts). */
  wait: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  signal?: AbortSignal;
  /** The name the preheat gets (default: the image's last path part). */
  name?: string;
}

/** A start that was slow enough to offer preheat: what started, its image and region, how long it took. */
export interface StartTook {
  /** What started ("the kernel of x.ipynb", "Qwen/Qwen3-8B"). */
  what: string;
  image: string;
  /** The region it started in (offered to the preheat). */
  region?: string;
  ms: number;
}

/** Told of a start (the preheat area's offers, passed to the areas that start things). */
export type StartTookPort = (start: StartTook) => void;

export function preheatName(image: string): string {
  return `${image.split('/').pop()?.split(/[:@]/)[0] || 'image'}-preheat`.slice(0, 60);
}

function regionsOf(task: PreheatTask | null, names: ReadonlyMap<string, string>, asked: readonly string[]): RegionProgress[] {
  const cache = task?.region_cache_info ?? [];
  return asked.map((region) => ({ region, regionName: names.get(region) ?? region, status: cache.find((entry) => entry.region === region)?.status ?? 'Begin' }));
}

/** Creates a cluster preheat of `image` and follows it until every region's cache is Completed. */
export async function preheatAndFollow(service: ImagePreheatService, image: string, options: FollowOptions): Promise<PreheatFollowed> {
  const now = options.now ?? Date.now;
  const known = await service.regions(options.signal);
  const names = new Map(known.map((region) => [region.region, region.region_name]));
  const wanted = (options.regions ?? []).filter((region) => names.has(region));
  const regions = wanted.length > 0 ? [...new Set(wanted)] : known.map((region) => region.region);
  const started = now();
  const taskId = await service.create(
    { task_name: options.name ?? preheatName(image), regions: regions.map((region) => ({ region })), services: [{ service_name: 'main', service_image: image }] },
    options.signal,
  );
  let progress = regionsOf(null, names, regions);
  options.onProgress?.(progress);
  for (let look = 0; look < MAX_LOOKS && !options.signal?.aborted; look++) {
    await options.wait(PREHEAT_LOOK_EVERY_MS, options.signal);
    if (options.signal?.aborted) break;
    const task = await service.detail(taskId, options.signal);
    progress = regionsOf(task, names, regions);
    options.onProgress?.(progress);
    if (task && preheatProgress(task).done) return { taskId, done: true, regions: progress, elapsedMs: now() - started };
    if (!task || task.status === 'End') break;
  }
  return { taskId, done: false, regions: progress, elapsedMs: now() - started };
}
