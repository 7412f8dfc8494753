// What the Tasks view reads, host-neutral (the VS Code tree and the benchmark both use it): every
// active task (Running, Pending, Paused) from the remote-state store, and the first page of ended
// tasks for the "Ended (N)" group's count, read beside the active list so active rows never wait for
// ended pages. The ended page is read again only when a task left the active list (it ended) or the
// user asked for a full refresh, so polling costs the store's listing however long the history is.

import type { TaskSummary } from '../compute/api';
import type { Listing } from '../state/definition';
import type { endedTaskPage } from './taskState';
import { TaskPager } from './taskPager';
import { isAbort } from '../errors';

/** Reads the active tasks: the remote-state store's task listing (core/tasks/taskState.ts). */
export type ActiveTaskSource = (signal?: AbortSignal) => Promise<Listing<TaskSummary>>;

/** Reads one page of ended tasks: the task service's `endedPage` (core/tasks/taskService.ts). */
export type EndedTaskPages = (page: number, pageSize: number, signal?: AbortSignal) => ReturnType<typeof endedTaskPage>;

/** Ended tasks per page of the group ("Load more…"). */
export const ENDED_PAGE_SIZE = 50;

export interface ActiveTasks {
  tasks: TaskSummary[];
  /** The platform's count of active tasks. */
  count: number;
  /** The listing cap stopped the read (the view says so). */
  truncated: boolean;
}

export class TasksViewData {
  /** Ended tasks, read page by page. */
  readonly ended: TaskPager;
  /** The next load also reads the first ended page (first load, user refresh). */
  private endedStale = true;

  constructor(
    private readonly endedPage: EndedTaskPages,
    private readonly active: ActiveTaskSource,
    endedPageSize = ENDED_PAGE_SIZE,
  ) {
    this.ended = new TaskPager((page, size, signal) => this.endedPage(page, size, signal), endedPageSize);
  }

  /** A store change removed tasks (they ended): the ended group's count and first page are read again. */
  async afterEnded(signal?: AbortSignal): Promise<void> {
    try {
      this.ended.applyFirstPage(await this.endedPage(1, this.ended.pageSize, signal));
      this.endedStale = false;
    } catch (error) {
      if (!isAbort(error)) this.ended.fail(error);
    }
  }

  /** A user refresh re-reads the ended count too. */
  markEndedStale(): void {
    this.endedStale = true;
  }

  /**
   * Reads every active task. `previous` is the last load's answer: a task missing from the new one
   * has ended, so the ended group's first page is read again. A failure of the ended read is kept
   * in `ended.error` and never fails the active rows.
   */
  async load(previous: ActiveTasks | undefined, signal?: AbortSignal): Promise<ActiveTasks> {
    const readEndedFirstPage = (): Promise<void> =>
      this.endedPage(1, this.ended.pageSize, signal).then(
        (page) => {
          this.ended.applyFirstPage(page);
          this.endedStale = false;
        },
        (error: unknown) => {
          if (!isAbort(error)) this.ended.fail(error);
        },
      );
    let ended = this.endedStale || this.ended.count === undefined ? readEndedFirstPage() : undefined;
    const active = await this.active(signal);
    if (!ended && previous) {
      const activeIds = new Set(active.items.map((task) => task.task_id));
      if (previous.tasks.some((task) => !activeIds.has(task.task_id))) ended = readEndedFirstPage();
    }
    await ended;
    return { tasks: [...active.items], count: Math.max(active.total ?? 0, active.items.length), truncated: !active.complete };
  }

  /** Profile switch: forget the ended pages. */
  reset(): void {
    this.ended.reset();
    this.endedStale = true;
  }
}
