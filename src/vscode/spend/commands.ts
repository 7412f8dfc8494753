// The money area's command-table entries: the Spend view and pause timers.
import * as vscode from 'vscode';
import type { TaskSummary } from '../../core/compute/api';
import { formatTimeLeft, parseDue, type ParsedDue } from '../../core/spend/pauseTimers';
import { Commands } from '../commandIds';
import type { CommandEntry } from '../commands/commandTable';
import type { ChatApi } from '../chat/index';
import type { ComputeApi } from '../views/computeApi';
import { deleteNode, explainFailure, nodeRefFrom, showNodeEvents, showTaskEvents } from '../tasks/index';
import type { ExtensionServices } from '../services';
import type { PauseTimerService } from './pauseTimerService';
import type { SpendPanel } from './spendPanel';
import type { TaskUpdateFlow } from '../tasks/index';

export interface MoneyContext {
  services: ExtensionServices;
  panel: SpendPanel;
  timers: PauseTimerService;
  compute: ComputeApi;
  chat: ChatApi;
  notifier: { wake(): void };
  updates: TaskUpdateFlow;
}

/** The user's UTC offset at an instant, in minutes east of UTC. */
export const localOffsetMinutes = (ms: number): number => -new Date(ms).getTimezoneOffset();

function dueError(parsed: ParsedDue): string | undefined {
  if ('dueAt' in parsed) return undefined;
  switch (parsed.error) {
    case 'empty':
      return vscode.l10n.t('Enter a duration (45m, 2h, 1h30m) or a clock time (18:30).');
    case 'tooShort':
      return vscode.l10n.t('At least one minute.');
    case 'tooLong':
      return vscode.l10n.t('At most 7 days.');
    default:
      return vscode.l10n.t('Use a duration such as 45m, 2h or 1h30m, or a clock time such as 18:30.');
  }
}

/** The task a command acts on: the tree row's, an id, or one the user picks among `statuses`. */
async function taskFrom(context: MoneyContext, arg: unknown, placeholder: string, anyStatus = false): Promise<TaskSummary | undefined> {
  const listed = context.compute.listedTasks();
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

export const MONEY_COMMANDS: readonly CommandEntry<MoneyContext>[] = [
  {
    id: Commands.spendShow,
    doing: 'Show spend',
    create:
      ({ services, panel }) =>
      async () => {
        if (await services.requireProfile()) panel.show();
      },
  },
  {
    id: Commands.tasksPauseAfter,
    doing: 'Set a pause timer',
    create: (context) => async (arg?: unknown) => {
      if (!(await context.services.requireProfile())) return;
      const task = await taskFrom(context, arg, vscode.l10n.t('Running task to pause later'));
      if (!task) return;
      const value = await vscode.window.showInputBox({
        title: vscode.l10n.t('Pause "{0}" after…', task.task_name),
        prompt: vscode.l10n.t('A duration (45m, 2h, 1h30m) or a clock time (18:30). Works only while VS Code runs: the platform has no schedule of its own.'),
        value: '1h',
        ignoreFocusOut: true,
        validateInput: (text) => {
          const parsed = parseDue(text, Date.now(), localOffsetMinutes);
          if (!('dueAt' in parsed)) return dueError(parsed);
          return {
            message: vscode.l10n.t('Pauses at {0} (in {1}).', new Date(parsed.dueAt).toLocaleString(), formatTimeLeft(parsed.dueAt - Date.now())),
            severity: vscode.InputBoxValidationSeverity.Info,
          };
        },
      });
      if (value === undefined) return;
      const parsed = parseDue(value, Date.now(), localOffsetMinutes);
      if (!('dueAt' in parsed)) return;
      await context.timers.set(task.task_id, task.task_name, parsed.dueAt);
    },
  },
  {
    id: Commands.tasksCancelPauseTimer,
    doing: 'Cancel a pause timer',
    create: (context) => async (arg?: unknown) => {
      const task = await taskFrom(context, arg, vscode.l10n.t('Task whose pause timer to cancel'));
      if (!task) return;
      const cancelled = await context.timers.cancel(task.task_id);
      void vscode.window.showInformationMessage(
        cancelled ? vscode.l10n.t('Cancelled the pause timer of "{0}".', task.task_name) : vscode.l10n.t('"{0}" has no pause timer.', task.task_name),
      );
    },
  },
  {
    id: Commands.tasksShowEvents,
    doing: 'Show task events',
    create: (context) => async (arg?: unknown) => {
      const task = await taskFrom(context, arg, vscode.l10n.t('Task whose node events to show'), true);
      if (task) await showTaskEvents(context.services, task);
    },
  },
  {
    id: Commands.tasksExplainFailure,
    doing: 'Explain a task failure',
    create: (context) => async (arg?: unknown) => {
      const task = await taskFrom(context, arg, vscode.l10n.t('Task to explain'), true);
      if (task) await explainFailure(context.services, context.chat, task);
    },
  },
  {
    id: Commands.tasksUpdate,
    doing: 'Update a task configuration',
    create: (context) => async (arg?: unknown) => {
      const task = await taskFrom(context, arg, vscode.l10n.t('Task whose configuration to update'), true);
      if (task) await context.updates.start(task.task_id);
    },
  },
  {
    id: Commands.tasksSendUpdate,
    doing: 'Send a task update',
    create: (context) => () => context.updates.reviewAndSend(),
  },
  {
    id: Commands.nodesShowEvents,
    doing: 'Show node events',
    create: (context) => async (arg?: unknown) => {
      const ref = nodeRefFrom(arg);
      if (ref) await showNodeEvents(context.services, ref);
      else void vscode.window.showInformationMessage(vscode.l10n.t('Run this from a node in the Tasks view.'));
    },
  },
  {
    id: Commands.nodesDelete,
    doing: 'Delete a node',
    create: (context) => async (arg?: unknown) => {
      const ref = nodeRefFrom(arg);
      if (!ref) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Run this from a node in the Tasks view.'));
        return;
      }
      if (await deleteNode(context.services, ref)) {
        await context.compute.refresh('tasks');
        context.notifier.wake();
      }
    },
  },
];
