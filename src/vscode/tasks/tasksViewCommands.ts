// The Tasks view's own actions as command-table entries: filter (name, id, status, GPU), clear the
// filter, and load the next page of ended tasks (the "Load more…" row).
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { CommandEntry } from '../commands/commandTable';
import type { TasksTree } from './tasksTree';

export const tasksViewCommands: readonly CommandEntry<{ tasks: TasksTree }>[] = [
  {
    id: Commands.tasksFilter,
    doing: vscode.l10n.t('Filter tasks'),
    // A string argument (a keybinding, a test) sets the filter without asking.
    create:
      ({ tasks }) =>
      async (arg?: unknown) => {
        if (typeof arg === 'string') {
          tasks.setFilter(arg);
          return;
        }
        const text = await vscode.window.showInputBox({
          title: vscode.l10n.t('Filter Tasks'),
          prompt: vscode.l10n.t('Words to match against task name, id, status and GPU (all must match). Empty shows every task.'),
          placeHolder: vscode.l10n.t('e.g. 4090 running'),
          value: tasks.filter,
        });
        if (text !== undefined) tasks.setFilter(text);
      },
  },
  { id: Commands.tasksClearFilter, doing: vscode.l10n.t('Clear the tasks filter'), create: ({ tasks }) => () => tasks.setFilter('') },
  { id: Commands.tasksLoadMoreEnded, doing: vscode.l10n.t('Load more ended tasks'), create: ({ tasks }) => () => tasks.loadMoreEnded() },
];
