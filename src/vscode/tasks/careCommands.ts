// Task care commands: events, Explain Failure, Update Task (and send), node events, delete a node.
// Registered by the tasks area (tasks/register.ts).
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { CommandEntry } from '../commands/commandTable';
import type { ExtensionServices } from '../services';
import { deleteNode, explainFailure, nodeRefFrom, showNodeEvents, showTaskEvents } from './nodeCare';
import { pickListedTask } from './taskPick';
import type { TaskUpdateFlow } from './taskUpdate';
import type { TasksChat, TasksView } from './ports';

export interface TaskCareContext {
  services: ExtensionServices;
  compute: TasksView;
  chat: TasksChat;
  updates: TaskUpdateFlow;
}

export const TASK_CARE_COMMANDS: readonly CommandEntry<TaskCareContext>[] = [
  {
    id: Commands.tasksShowEvents,
    doing: vscode.l10n.t('Show task events'),
    create: (context) => async (arg?: unknown) => {
      const task = await pickListedTask(context.compute, arg, vscode.l10n.t('Task whose node events to show'), true);
      if (task) await showTaskEvents(context.services, task);
    },
  },
  {
    id: Commands.tasksExplainFailure,
    doing: vscode.l10n.t('Explain a task failure'),
    create: (context) => async (arg?: unknown) => {
      const task = await pickListedTask(context.compute, arg, vscode.l10n.t('Task to explain'), true);
      if (task) await explainFailure(context.services, context.chat, task);
    },
  },
  {
    id: Commands.tasksUpdate,
    doing: vscode.l10n.t('Update a task configuration'),
    create: (context) => async (arg?: unknown) => {
      const task = await pickListedTask(context.compute, arg, vscode.l10n.t('Task whose configuration to update'), true);
      if (task) await context.updates.start(task.task_id);
    },
  },
  {
    id: Commands.tasksSendUpdate,
    doing: vscode.l10n.t('Send a task update'),
    create: (context) => () => context.updates.reviewAndSend(),
  },
  {
    id: Commands.tasksAddNasMount,
    doing: vscode.l10n.t('Mount a NAS volume in the task'),
    create: (context) => () => context.updates.addMount(),
  },
  {
    id: Commands.nodesShowEvents,
    doing: vscode.l10n.t('Show node events'),
    create: (context) => async (arg?: unknown) => {
      const ref = nodeRefFrom(arg);
      if (ref) await showNodeEvents(context.services, ref);
      else void vscode.window.showInformationMessage(vscode.l10n.t('Run this from a node in the Tasks view.'));
    },
  },
  {
    id: Commands.nodesDelete,
    doing: vscode.l10n.t('Delete a node'),
    create: (context) => async (arg?: unknown) => {
      const ref = nodeRefFrom(arg);
      if (!ref) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Run this from a node in the Tasks view.'));
        return;
      }
      if (await deleteNode(context.services, ref)) {
        await context.compute.refresh('tasks');
      }
    },
  },
];
