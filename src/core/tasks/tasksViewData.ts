// What the Tasks view reads, host-neutral (the VS Code tree and the benchmark both use it): every
// active task (Running, Pending, Paused; page after page), and the first page of ended tasks for the
// "Ended (N)" group's count, read beside the active list so active rows never wait for ended pages.
// A poll reads only the active list unless a task left it (it ended: the ended count changed) or the
// user asked for a full refresh, so polling costs one request however long the history is.

import type { ComputeClient, TaskSummary } from '../compute/api';
import { ACTIVE_TASK_STATUSES, listTasks, taskPage } from './listing';
import { TaskPager } from './taskPager';
import { isAbort } from '../errors';

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
    private readonly client: () => ComputeClient,
    endedPageSize = ENDED_PAGE_SIZE,
  ) {
    this.ended = new TaskPager((page, size, signal) => taskPage(this.client(), { statuses: ['End'] }, page, size, signal), endedPageSize);
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
    const client = this.client();
    const readEndedFirstPage = (): Promise<void> =>
      taskPage(client, { statuses: ['End'] }, 1, this.ended.pageSize, signal).then(
        (page) => {
          this.ended.applyFirstPage(page);
          this.endedStale = false;
        },
        (error: unknown) => {
          if (!isAbort(error)) this.ended.fail(error);
        },
      );
    let ended = this.endedStale || this.ended.count === undefined ? readEndedFirstPage() : undefined;
    const active = await listTasks(client, { statuses: ACTIVE_TASK_STATUSES }, signal ? { signal } : {});
    if (!ended && previous) {
      const activeIds = new Set(active.items.map((task) => task.task_id));
      if (previous.tasks.some((task) => !activeIds.has(task.task_id))) ended = readEndedFirstPage();
    }
    await ended;
    return { tasks: active.items, count: active.count, truncated: active.truncated };
  }

  /** Profile switch: forget the ended pages. */
  reset(): void {
    this.ended.reset();
    this.endedStale = true;
  }
}
