// Image preheats as a kind of remote state (core/state, CONTRIBUTING "Add a kind of remote state"): the
// ONE reader of the preheat list (every page of the Pending, Running and Paused preheats: a stopped one
// is End and leaves the list, as it leaves the console) and how far each one got. At rest once every
// listed preheat is done or paused (docs/platform.md "Image preheat": cluster mode is done when every
// region's cache is Completed, node mode when the available nodes reach the desired count).

import type { ComputeClient } from '../compute/api';
import { ComputeApiError } from '../compute/errors';
import type { StateChange, StateDefinition } from '../state/definition';
import { checkPage, listAll } from '../tasks/listing';
import type { PreheatStatus, PreheatTask } from './operations';

/** The preheats the view lists: those that can still move or be stopped. */
export const LISTED_PREHEAT_STATUSES = ['Pending', 'Running', 'Paused'] as const satisfies readonly PreheatStatus[];
/** The platform's failure code when the account has not applied for image preheat (docs/platform.md). */
export const PREHEAT_NOT_ENABLED_CODE = 'C008';

/** True when the platform refused a preheat call because the account has not applied for image preheat. */
export function preheatNotEnabled(error: unknown): boolean {
  return error instanceof ComputeApiError && error.code === PREHEAT_NOT_ENABLED_CODE && error.operation.startsWith('preheat.');
}

/** How far one preheat got, in the terms of its mode. */
export type PreheatProgress =
  | { mode: 'cluster'; completed: number; regions: number; done: boolean }
  | { mode: 'node'; available: number; used: number; desired: number; done: boolean };

export function preheatProgress(task: PreheatTask): PreheatProgress {
  const desired = task.points ?? 0;
  if (desired > 0 || (task.resources?.length ?? 0) > 0) {
    const available = task.available_points ?? 0;
    return { mode: 'node', available, used: task.used_points ?? 0, desired, done: desired > 0 && available >= desired };
  }
  const cache = task.region_cache_info ?? [];
  const completed = cache.filter((region) => region.status === 'Completed').length;
  return { mode: 'cluster', completed, regions: cache.length, done: cache.length > 0 && completed === cache.length };
}

/** Whether the user can stop it (the platform stops Running or Paused preheats). */
export function preheatStoppable(task: PreheatTask): boolean {
  return task.status === 'Running' || task.status === 'Paused';
}

/** Nothing more happens on its own: paused, or done. */
function settled(task: PreheatTask): boolean {
  return task.status === 'Paused' || preheatProgress(task).done;
}

function samePreheat(a: PreheatTask, b: PreheatTask): boolean {
  return (
    a.status === b.status &&
    a.task_name === b.task_name &&
    a.points === b.points &&
    a.available_points === b.available_points &&
    a.used_points === b.used_points &&
    JSON.stringify(a.region_cache_info ?? null) === JSON.stringify(b.region_cache_info ?? null)
  );
}

/**
 * The preheats that became done since the last poll: seen not done before, or first seen already done
 * (created and done between two polls). Never on a first look, which only learns what exists.
 */
export function preheatsDoneIn(change: Pick<StateChange<PreheatTask>, 'first' | 'added' | 'changed'>): PreheatTask[] {
  if (change.first) return [];
  const done = (task: PreheatTask): boolean => preheatProgress(task).done;
  return [...change.changed.filter(({ before, after }) => !done(before) && done(after)).map(({ after }) => after), ...change.added.filter(done)];
}

export const PREHEAT_STATE: StateDefinition<PreheatTask, number, ComputeClient> = {
  kind: 'preheats',
  key: (task) => task.task_id,
  list: async (client, signal) => {
    const listed = await listAll(
      async (page, pageSize) =>
        checkPage<PreheatTask>(await client.call('preheat.list', { status: LISTED_PREHEAT_STATUSES.join(','), page, page_size: pageSize }, { signal }), 'preheat.list'),
      { key: (task) => task.task_id, signal },
    );
    return { items: listed.items, complete: !listed.truncated, total: listed.count };
  },
  atRest: (tasks) => tasks.every(settled),
  equal: samePreheat,
};
