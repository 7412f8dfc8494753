// One row of the "Run this notebook on which Jupyter task?" picker: the task's name, its price, and where
// it runs as every list shows it ("RTX 4090 × 1 · 北京一区", ui/format.ts taskPlacement), never the
// platform's raw device name.
import { formatYuanPerHour, pointsPerSecondToYuanPerHour } from '../../core/spend/units';
import type { TaskSummary } from '../../core/tasks/operations';
import { taskPlacement } from '../ui/format';

export interface JupyterTaskItem {
  label: string;
  description: string;
  detail: string;
  task: TaskSummary;
}

/** `pointsPerSecond`: the task's price per node, when the price book knows it. */
export function jupyterTaskItem(task: TaskSummary, pointsPerSecond: number | undefined): JupyterTaskItem {
  const description = pointsPerSecond !== undefined ? formatYuanPerHour(pointsPerSecondToYuanPerHour(pointsPerSecond) * Math.max(1, task.points)) : '';
  return { label: task.task_name, description, detail: taskPlacement(task) ?? '', task };
}
