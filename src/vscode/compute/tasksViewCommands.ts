// The Tasks view's own actions: filter (name, id, status, GPU), clear the filter, and load the next
// page of ended tasks (the "Load more…" row).
import * as vscode from 'vscode';
import type { ExtensionServices } from '../services';
import { registerGuarded } from './commandGuard';
import { TaskViewCommands } from './taskGroups';
import type { TasksTree } from './tasksTree';

export function registerTasksViewCommands(services: ExtensionServices, tree: TasksTree): vscode.Disposable[] {
  return [
    // A string argument (a keybinding, a test) sets the filter without asking.
    registerGuarded(services, TaskViewCommands.filter, 'Filter tasks', async (arg) => {
      if (typeof arg === 'string') {
        tree.setFilter(arg);
        return;
      }
      const text = await vscode.window.showInputBox({
        title: vscode.l10n.t('Filter Tasks'),
        prompt: vscode.l10n.t('Words to match against task name, id, status and GPU (all must match). Empty shows every task.'),
        placeHolder: vscode.l10n.t('e.g. 4090 running'),
        value: tree.filter,
      });
      if (text !== undefined) tree.setFilter(text);
    }),
    registerGuarded(services, TaskViewCommands.clearFilter, 'Clear the tasks filter', () => tree.setFilter('')),
    registerGuarded(services, TaskViewCommands.loadMoreEnded, 'Load more ended tasks', () => tree.loadMoreEnded()),
  ];
}
