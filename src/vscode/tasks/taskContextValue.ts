// The contextValue of a task row: `task.<status>` then the row's tags, e.g. `task.Running.unhealthy.pauseTimer`.
// The `when` clauses of the Tasks view's menus (package.json) match on it, so every entry shows only
// where it applies (Cancel Pause Timer only with a timer set, Explain Failure only on a failed or
// unhealthy task). Pure, so a plain-Node test can hold the menus of each state.
import type { TaskSummary } from '../../core/tasks/operations';

/** Tags another area puts on a task row (the pause timers add `pauseTimer`). */
export type TaskRowTag = 'pauseTimer';

/** A task that failed or runs short of its nodes: what Explain Failure is for. */
export function taskNeedsExplaining(task: Pick<TaskSummary, 'status' | 'points' | 'runing_points'>): boolean {
  return task.status === 'Other' || (task.status === 'Running' && task.runing_points < task.points);
}

export function taskContextValue(task: Pick<TaskSummary, 'status' | 'points' | 'runing_points'>, tags: readonly TaskRowTag[] = []): string {
  const parts: string[] = ['task', task.status];
  if (taskNeedsExplaining(task)) parts.push('unhealthy');
  parts.push(...tags);
  return parts.join('.');
}
