// The task a command acts on: the tree row's, an id, or one the user picks among the listed tasks.
import * as vscode from 'vscode';
import type { TaskSummary } from '../../core/compute/api';
import type { ListedTasks } from './ports';

/** The task a command acts on: the tree row's, an id, or one the user picks among `statuses`. */
export async function pickListedTask(compute: ListedTasks, arg: unknown, placeholder: string, anyStatus = false): Promise<TaskSummary | undefined> {
  const listed = compute.listedTasks();
  if (typeof arg === 'object' && arg !== null && 'task' in arg) return (arg as { task: TaskSummary }).task;
  if (typeof arg === 'number') return listed.find((task) => task.task_id === arg);
  const running = listed.filter((task) => anyStatus || task.status === 'Running');
  if (running.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No running task in the Tasks view.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    running.map((task) => ({ label: task.task_name, description: `#${task.task_id}`, task })),
    { placeHolder: placeholder },
  );
  return picked?.task;
}

