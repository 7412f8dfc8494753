// Tasks as a kind of remote state (core/state): every task that can still change or be resumed
// (Running, Pending, Paused), every page, up to the listing cap. The only task listing that polls;
// the task-list operation is called from listing.ts alone, reached from here and the ended pages the user opens
// (test/unit/lint/taskListCallers.test.ts keeps it so).

import type { ComputeClient, TaskSummary } from '../compute/api';
import type { StateDefinition } from '../state/definition';
import { ACTIVE_TASK_STATUSES, listTasks, taskPage } from './listing';

/** Pending and Running change on their own; Paused and End only by someone's action. */
function moving(task: TaskSummary): boolean {
  return task.status === 'Pending' || task.status === 'Running';
}

/** The fields whose change is news to a view, a notification or the burn rate. */
function sameTask(a: TaskSummary, b: TaskSummary): boolean {
  return (
    a.status === b.status &&
    a.task_name === b.task_name &&
    a.points === b.points &&
    a.runing_points === b.runing_points &&
    a.billing_value === b.billing_value &&
    a.forecast_value === b.forecast_value &&
    JSON.stringify(a.services) === JSON.stringify(b.services) &&
    JSON.stringify(a.resources) === JSON.stringify(b.resources)
  );
}

export const TASK_STATE: StateDefinition<TaskSummary, number, ComputeClient> = {
  kind: 'tasks',
  key: (task) => task.task_id,
  list: async (client, signal) => {
    const listed = await listTasks(client, { statuses: ACTIVE_TASK_STATUSES }, { signal });
    return { items: listed.items, complete: !listed.truncated, total: listed.count };
  },
  atRest: (tasks) => !tasks.some(moving),
  equal: sameTask,
};

/** One page of ended tasks, for the Tasks view's "Ended (N)" group (read when shown or opened, never polled). */
export function endedTaskPage(client: ComputeClient, page: number, pageSize: number, signal?: AbortSignal) {
  return taskPage(client, { statuses: ['End'] }, page, pageSize, signal);
}
