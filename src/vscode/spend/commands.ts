// The money area's command-table entries: the Spend view, Set Budget… and pause timers.
import * as vscode from 'vscode';
import { parseDue, type ParsedDue } from '../../core/spend/pauseTimers';
import { Commands } from '../commandIds';
import type { CommandEntry } from '../commands/commandTable';
import type { SpendTasks } from './ports';
import { pickListedTask } from '../tasks/index';
import type { ExtensionServices } from '../services';
import type { PauseTimerService } from './pauseTimerService';
import type { SpendPanel } from './spendPanel';
import { setBudget, type BudgetFormContext } from './budgetForm';
import { formatDateTime } from '../ui/dates';
import { durationText } from '../ui/duration';

export interface MoneyContext {
  services: ExtensionServices;
  panel: SpendPanel;
  timers: PauseTimerService;
  compute: SpendTasks;
  budgetForm: BudgetFormContext;
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

export const MONEY_COMMANDS: readonly CommandEntry<MoneyContext>[] = [
  {
    id: Commands.spendShow,
    doing: vscode.l10n.t('Show spend'),
    create:
      ({ services, panel }) =>
      async () => {
        if (await services.requireProfile()) panel.show();
      },
  },
  {
    id: Commands.spendSetBudget,
    doing: vscode.l10n.t('Set a budget'),
    create: (context) => (argument?: unknown) => setBudget(context.budgetForm, argument),
  },
  {
    id: Commands.tasksPauseAfter,
    doing: vscode.l10n.t('Set a pause timer'),
    create: (context) => async (arg?: unknown) => {
      if (!(await context.services.requireProfile())) return;
      const task = await pickListedTask(context.compute, arg, vscode.l10n.t('Running task to pause later'));
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
            message: vscode.l10n.t('Pauses at {0} (in {1}).', formatDateTime(parsed.dueAt), durationText((parsed.dueAt - Date.now()) / 1000, { precision: 'minute', round: 'up' })),
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
    doing: vscode.l10n.t('Cancel a pause timer'),
    create: (context) => async (arg?: unknown) => {
      const task = await pickListedTask(context.compute, arg, vscode.l10n.t('Task whose pause timer to cancel'));
      if (!task) return;
      const cancelled = await context.timers.cancel(task.task_id);
      void vscode.window.showInformationMessage(
        cancelled ? vscode.l10n.t('Cancelled the pause timer of "{0}".', task.task_name) : vscode.l10n.t('"{0}" has no pause timer.', task.task_name),
      );
    },
  },
];
