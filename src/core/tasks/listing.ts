// Reading whole lists from the platform, which pages them (`page`, `page_size`, and a `count` of
// everything that matches): tasks, a task's nodes, storage. `listAll` walks the pages until the
// platform has nothing more, with a safety cap that is reported (never a silent first page), and
// `taskPage` serves views that load one page at a time.

import { ProtocolError } from '../errors';
import type { ComputeClient, OperationId, Paged, StorageItem, TaskNode, TaskStatus, TaskSummary } from '../compute/api';

/** The only task type the deployment list knows (its `type` parameter is required). */
export const TASK_LIST_TYPE = 'Deployment';
/** Statuses the task list can filter by (`status` is required; `Other` exists only in results). */
export const TASK_FILTER_STATUSES = ['Running', 'Pending', 'Paused', 'End'] as const satisfies readonly TaskStatus[];
/** Tasks that still hold (or wait for) resources, or can be resumed. */
export const ACTIVE_TASK_STATUSES = ['Running', 'Pending', 'Paused'] as const satisfies readonly TaskStatus[];
/** Storage the list shows by default (`status` is required; `Delete` is left out). */
export const STORAGE_LIST_STATUSES = ['Activate', 'Unactivated'] as const;

/** Rows per request. The platform documents no maximum; the sandbox serves at most 100. */
export const LIST_PAGE_SIZE = 100;
/** Rows `listAll` reads at most by default: far beyond a real account, small enough to stay bounded. */
export const DEFAULT_LIST_CAP = 10_000;

export type PageFetcher<T> = (page: number, pageSize: number, signal?: AbortSignal) => Promise<Paged<T>>;

export interface ListOptions<T> {
  pageSize?: number;
  /** Stop after this many rows and say so (`truncated`). */
  cap?: number;
  /** Rows with a key already seen are dropped: a row can move to the next page while we read. */
  key?: (item: T) => unknown;
  signal?: AbortSignal;
}

export interface Listed<T> {
  items: T[];
  /** What the platform says matches, from its latest page (at least the rows read). */
  count: number;
  /** True when reading stopped at the cap with rows left unread. */
  truncated: boolean;
  /** Requests made. */
  pages: number;
}

/** Checks one page's shape: a server answer is untrusted input. */
export function checkPage<T>(value: unknown, operation: OperationId): Paged<T> {
  const page = value as { count?: unknown; results?: unknown } | null;
  if (typeof page !== 'object' || page === null || !Array.isArray(page.results)) {
    throw new ProtocolError(`${operation}: the answer has no results list (data.results is not an array).`);
  }
  const count = typeof page.count === 'number' && Number.isSafeInteger(page.count) && page.count >= 0 ? page.count : undefined;
  if (count === undefined) throw new ProtocolError(`${operation}: the answer's data.count is not a whole number ≥ 0.`);
  return { count, results: page.results as T[] };
}

/**
 * Reads page after page until a short page, or until the rows read reach the platform's count, or
 * the cap. Linear in the rows read; memory bounded by the cap.
 */
export async function listAll<T>(fetchPage: PageFetcher<T>, options: ListOptions<T> = {}): Promise<Listed<T>> {
  const pageSize = options.pageSize ?? LIST_PAGE_SIZE;
  const cap = options.cap ?? DEFAULT_LIST_CAP;
  const seen = new Set<unknown>();
  const items: T[] = [];
  let count = 0;
  let pages = 0;
  // Rows read, repeats included: a server that repeats one full page under a huge count ends at the cap too.
  let read = 0;
  for (let page = 1; ; page++) {
    // A full cap with rows still unread on the platform: stop, and say so.
    if (items.length >= cap || read >= cap) return { items, count: Math.max(count, items.length), truncated: true, pages };
    const result = await fetchPage(page, pageSize, options.signal);
    pages += 1;
    count = result.count;
    read += result.results.length;
    for (const item of result.results) {
      if (items.length >= cap) return { items, count: Math.max(count, items.length), truncated: true, pages };
      if (options.key) {
        const key = options.key(item);
        if (seen.has(key)) continue;
        seen.add(key);
      }
      items.push(item);
    }
    if (result.results.length < pageSize || page * pageSize >= count) break;
  }
  return { items, count: Math.max(count, items.length), truncated: false, pages };
}

export interface TaskQuery {
  statuses: readonly TaskStatus[];
  /** Task name (the platform's `search_value`). */
  searchValue?: string;
}

/** One page of tasks, newest first as the platform orders them. */
export async function taskPage(client: ComputeClient, query: TaskQuery, page: number, pageSize: number, signal?: AbortSignal): Promise<Paged<TaskSummary>> {
  const params = {
    type: TASK_LIST_TYPE,
    status: query.statuses.join(','),
    ...(query.searchValue ? { search_value: query.searchValue } : {}),
    page,
    page_size: pageSize,
  };
  return checkPage<TaskSummary>(await client.call('task.list', params, signal ? { signal } : undefined), 'task.list');
}

/** Every task with one of the statuses (up to the cap). */
export function listTasks(client: ComputeClient, query: TaskQuery, options: Omit<ListOptions<TaskSummary>, 'key'> = {}): Promise<Listed<TaskSummary>> {
  return listAll((page, size, signal) => taskPage(client, query, page, size, signal), { ...options, key: (task) => task.task_id });
}

/** Every node of a task. */
export function listNodes(client: ComputeClient, taskId: number, options: Omit<ListOptions<TaskNode>, 'key'> = {}): Promise<Listed<TaskNode>> {
  return listAll(
    async (page, size, signal) =>
      checkPage<TaskNode>(await client.call('node.list', { task_id: taskId, page, page_size: size }, signal ? { signal } : undefined), 'node.list'),
    { ...options, key: (node) => node.point_id },
  );
}

/** Every storage item of a type with one of the statuses. */
export function listStorage(
  client: ComputeClient,
  query: { storageType: string; statuses: readonly string[] },
  options: Omit<ListOptions<StorageItem>, 'key'> = {},
): Promise<Listed<StorageItem>> {
  return listAll(
    async (page, size, signal) =>
      checkPage<StorageItem>(
        await client.call('storage.list', { storage_type: query.storageType, status: query.statuses.join(','), page, page_size: size }, signal ? { signal } : undefined),
        'storage.list',
      ),
    { ...options, key: (item) => item.storage_id },
  );
}
