// The tasks area's own wiring beside the trees (views/index.ts composes those): notifications on
// task changes (following the remote-state store), task care commands (events, Explain Failure,
// Update Task, node events and delete). Called by the composition root (extension.ts).

import * as vscode from 'vscode';
import { Refusal } from '../errors/refusal';
import { registerCommandTable } from '../commands/commandTable';
import { taskServiceOf } from '../client/computeServices';
import type { RegisteredArea } from '../areaRegistry';
import type { ExtensionServices } from '../services';
import type { RemoteState } from '../state/index';
import type { NotificationCenter } from '../ui/notificationCenter';
import type { TasksChat, TasksView } from './ports';
import { TASK_CARE_COMMANDS } from './careCommands';
import { deleteNode, explainFailure } from './nodeCare';
import { TaskNotifier } from './taskNotifier';
import { TaskUpdateFlow } from './taskUpdate';

export interface TasksAreaApi {
  readonly notifier: TaskNotifier;
  /** The task update flow (start, then reviewAndSend). */
  readonly updates: TaskUpdateFlow;
  /** What Explain Failure sends to the chat for a task (and sends it). */
  explainFailure(taskId: number): Promise<string>;
  /** Deletes one node without the confirmation (the command asks first). */
  deleteNode(taskId: number, pointId: number): Promise<void>;
}

/** `own`: the registry's list for this area (areaRegistry.ts); each disposable goes in as it is created. */
export function registerTasks(services: ExtensionServices, compute: TasksView, chat: TasksChat, state: RemoteState, center: NotificationCenter, own: vscode.Disposable[] = []): RegisteredArea<TasksAreaApi> {
  const notifier = new TaskNotifier(services, center, state, { showTask: (taskId) => compute.revealTask(taskId) });
  own.push(notifier);
  const updates = new TaskUpdateFlow(services, state, () => {
    void compute.refresh('tasks');
  });
  const tasks = taskServiceOf(services);
  own.push(...registerCommandTable(TASK_CARE_COMMANDS, { services, compute, chat, updates }, services.reportError));
  const api: TasksAreaApi = {
    notifier,
    updates,
    explainFailure: async (taskId) => {
      // A task the user names: the listed row, or its detail (one read where the user asked).
      const task = compute.listedTasks().find((candidate) => candidate.task_id === taskId) ?? (await tasks.detail(taskId));
      return explainFailure(services, chat, task);
    },
    deleteNode: async (taskId, pointId) => {
      const task = await tasks.detail(taskId);
      const node = (await tasks.nodes(taskId)).find((candidate) => candidate.point_id === pointId);
      if (!node) throw new Refusal(vscode.l10n.t('Task {0} has no node {1}.', taskId, pointId));
      await deleteNode(services, { task, node }, false);
    },
  };
  return { api, disposables: own };
}
