// A list of tasks read page by page on demand (the Tasks view's "Ended (N)" group): the first page
// comes with each refresh of the view, later pages when the user asks for more. Rows already read
// stay across refreshes (an ended task does not change), duplicates are dropped by id, and one load
// runs at a time.

import type { Paged, TaskSummary } from '../compute/api';
import { DEFAULT_LIST_CAP } from './listing';

export type TaskPageFetcher = (page: number, pageSize: number, signal?: AbortSignal) => Promise<Paged<TaskSummary>>;

export class TaskPager {
  private rows: TaskSummary[] = [];
  private ids = new Set<number>();
  private total: number | undefined;
  private pagesRead = 0;
  private inflight: Promise<void> | undefined;
  private failure: unknown;
  /** Bumped by reset(): a read that started before it must not write its rows. */
  private generation = 0;

  constructor(
    private readonly fetchPage: TaskPageFetcher,
    readonly pageSize: number,
  ) {}

  /** Rows read so far, in the platform's order. */
  get items(): readonly TaskSummary[] {
    return this.rows;
  }

  /** The platform's count, once a page was read. */
  get count(): number | undefined {
    return this.total;
  }

  get hasMore(): boolean {
    return this.total !== undefined && this.rows.length < this.total;
  }

  get loading(): boolean {
    return this.inflight !== undefined;
  }

  /** The last load's error, until a load succeeds. */
  get error(): unknown {
    return this.failure;
  }

  /** Takes a fresh first page (read along with a refresh): new count, new rows on top, older rows kept. */
  applyFirstPage(page: Paged<TaskSummary>): void {
    const fresh = page.results.filter((task) => !this.ids.has(task.task_id));
    for (const task of fresh) this.ids.add(task.task_id);
    this.rows = [...fresh, ...this.rows];
    this.total = page.count;
    this.pagesRead = Math.max(this.pagesRead, 1);
    this.failure = undefined;
  }

  /** Records that the first page could not be read (the group shows the error). */
  fail(error: unknown): void {
    this.failure = error;
  }

  /** Reads the next page (or joins the read already running). */
  loadMore(signal?: AbortSignal): Promise<void> {
    if (this.inflight) return this.inflight;
    const read = this.readPage(this.pagesRead + 1, signal).finally(() => {
      if (this.inflight === read) this.inflight = undefined;
    });
    this.inflight = read;
    return read;
  }

  /** Reads pages until every row is read or `cap` rows are held (a filter must see every row). */
  async loadAll(signal?: AbortSignal, cap = DEFAULT_LIST_CAP): Promise<void> {
    if (this.total === undefined) await this.loadMore(signal);
    while (this.hasMore && this.rows.length < cap) {
      const before = this.pagesRead;
      await this.loadMore(signal); // throws when a page fails
      if (this.pagesRead === before) break;
    }
  }

  /** Forgets everything (profile switch). */
  reset(): void {
    this.rows = [];
    this.ids = new Set();
    this.total = undefined;
    this.pagesRead = 0;
    this.failure = undefined;
    this.inflight = undefined;
    this.generation += 1;
  }

  private async readPage(page: number, signal?: AbortSignal): Promise<void> {
    const generation = this.generation;
    try {
      const result = await this.fetchPage(page, this.pageSize, signal);
      if (generation !== this.generation) return;
      for (const task of result.results) {
        if (this.ids.has(task.task_id)) continue;
        this.ids.add(task.task_id);
        this.rows.push(task);
      }
      this.total = result.count;
      this.pagesRead = page;
      // A short page is the end, whatever the count said (rows moved while we read).
      if (result.results.length < this.pageSize) this.total = this.rows.length;
      this.failure = undefined;
    } catch (error) {
      if (generation === this.generation) this.failure = error;
      throw error;
    }
  }
}
