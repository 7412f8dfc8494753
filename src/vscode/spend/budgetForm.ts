// Set Budget…: sets, edits and removes a profile's budget (`computeToolkit.budgets.perProfile`) from
// the palette, the Spend page and the status bar's tooltip. A menu shows each limit beside what was
// spent; each change is saved at once and the menu shows again until Escape. Auto-pause is a choice
// of its own, explained, with "warn only" first (Enter keeps the safe choice).

import * as vscode from 'vscode';
import { parseBudgetAmount, parseThresholdList, percentUsed, withBudget, type BudgetEntry } from '../../core/spend/budgetEdit';
import { normalizeThresholds, type BudgetSettings } from '../../core/spend/budgets';
import type { SpendSummary } from '../../core/spend/spend';
import { formatPoints, formatYuan } from '../../core/spend/units';
import { profileIdArgument } from '../commands/commandTable';
import type { ExtensionServices, Profile } from '../services';
import { plain } from '../ui/notificationCenter';
import { budgetFor } from './budgetSettings';
import { autoPauseText, usageText } from './budgetText';

/** The pickers the form asks with (the in-host tests script them; the defaults are VS Code's). */
export interface BudgetPrompts {
  pick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Thenable<T | undefined>;
  input(options: vscode.InputBoxOptions): Thenable<string | undefined>;
}

export const windowPrompts: BudgetPrompts = {
  pick: (items, options) => vscode.window.showQuickPick(items, options),
  input: (options) => vscode.window.showInputBox(options),
};

export interface BudgetFormContext {
  services: ExtensionServices;
  /** The profile's spend (cached up to five minutes); undefined when it cannot be read. */
  spendOf(profile: Profile): Promise<SpendSummary | undefined>;
  prompts(): BudgetPrompts;
}

type MenuAction = 'daily' | 'monthly' | 'autoPause' | 'thresholds' | 'remove';
interface MenuItem extends vscode.QuickPickItem {
  action: MenuAction;
}

const NO_BUDGET: BudgetEntry = { autoPause: false };

function entryOf(settings: BudgetSettings | undefined): BudgetEntry {
  if (!settings) return NO_BUDGET;
  return {
    ...(settings.dailyYuan !== undefined ? { dailyYuan: settings.dailyYuan } : {}),
    ...(settings.monthlyYuan !== undefined ? { monthlyYuan: settings.monthlyYuan } : {}),
    autoPause: settings.autoPause,
  };
}

/** The validation message of an amount, or an information line saying what it means against the spend. */
export function amountFeedback(text: string, spentPoints: number | undefined, period: 'day' | 'month'): string | vscode.InputBoxValidationMessage | undefined {
  const parsed = parseBudgetAmount(text);
  if ('error' in parsed) {
    switch (parsed.error) {
      case 'negative':
        return vscode.l10n.t('A budget cannot be negative.');
      case 'tooLarge':
        return vscode.l10n.t('At most ¥10,000,000.');
      case 'tooPrecise':
        return vscode.l10n.t('At most two decimals (fen).');
      default:
        return vscode.l10n.t('Enter an amount in yuan, such as 100 or 99.50; leave it empty for no limit.');
    }
  }
  const spent = spentPoints === undefined ? undefined : formatPoints(spentPoints);
  let message: string;
  if (parsed.yuan === undefined) message = vscode.l10n.t('No limit: nothing warns or pauses for this period.');
  else if (spentPoints === undefined || spent === undefined) message = vscode.l10n.t('Limit {0}.', formatYuan(parsed.yuan));
  else {
    const percent = percentUsed(spentPoints, parsed.yuan);
    message =
      period === 'day'
        ? vscode.l10n.t('Spent today {0}: {1}% of {2}.', spent, percent, formatYuan(parsed.yuan))
        : vscode.l10n.t('Spent this month {0}: {1}% of {2}.', spent, percent, formatYuan(parsed.yuan));
  }
  return { message, severity: vscode.InputBoxValidationSeverity.Info };
}

async function chooseProfile(context: BudgetFormContext, argument: unknown): Promise<Profile | undefined> {
  const { services } = context;
  const wanted = profileIdArgument(argument);
  if (wanted !== undefined) {
    const found = services.profiles.all.find((profile) => profile.id === wanted);
    if (!found) void vscode.window.showWarningMessage(vscode.l10n.t('That profile no longer exists.'));
    return found;
  }
  const active = await services.requireProfile();
  if (!active) return undefined;
  if (services.profiles.all.length < 2) return active;
  const ordered = [active, ...services.profiles.all.filter((profile) => profile.id !== active.id)];
  const items = ordered.map((profile) => {
    const settings = budgetFor(profile, services.config.budgetsPerProfile, services.config.budgetThresholds);
    const limits = settings
      ? [
          settings.dailyYuan !== undefined ? vscode.l10n.t('{0} a day', formatYuan(settings.dailyYuan)) : '',
          settings.monthlyYuan !== undefined ? vscode.l10n.t('{0} a month', formatYuan(settings.monthlyYuan)) : '',
        ]
          .filter(Boolean)
          .join(' · ')
      : vscode.l10n.t('no budget');
    return { label: plain(profile.label, 60), description: profile.id === active.id ? vscode.l10n.t('active · {0}', limits) : limits, profile };
  });
  const picked = await context.prompts().pick(items, { title: vscode.l10n.t('Set Budget'), placeHolder: vscode.l10n.t('Profile whose budget to set') });
  return picked?.profile;
}

/** Runs the form; resolves with the profile's budget as saved when the user leaves it (undefined: none). */
export async function setBudget(context: BudgetFormContext, argument?: unknown): Promise<BudgetSettings | undefined> {
  const profile = await chooseProfile(context, argument);
  if (!profile) return undefined;
  const { services } = context;
  const read = (): BudgetSettings | undefined => budgetFor(profile, services.config.budgetsPerProfile, services.config.budgetThresholds);
  const save = (entry: BudgetEntry | undefined): Promise<void> => services.config.writeBudgets(withBudget(services.config.budgetsPerProfile, profile, entry));
  let summary: SpendSummary | undefined;
  try {
    summary = await context.spendOf(profile);
  } catch (error) {
    services.logger.warn(`Set Budget: spend of ${profile.id} not read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const name = plain(profile.label, 60);
  for (;;) {
    const settings = read();
    const entry = entryOf(settings);
    const thresholds = normalizeThresholds(services.config.budgetThresholds);
    const items: MenuItem[] = [
      { action: 'daily', label: vscode.l10n.t('$(calendar) Daily limit'), description: usageText(entry.dailyYuan, summary?.today) },
      { action: 'monthly', label: vscode.l10n.t('$(calendar) Monthly limit'), description: usageText(entry.monthlyYuan, summary?.month) },
      {
        action: 'autoPause',
        label: vscode.l10n.t('$(debug-pause) When a limit is used up'),
        description: autoPauseText(entry.autoPause),
        detail: entry.autoPause
          ? vscode.l10n.t("Pauses this profile's running tasks (paused tasks are not billed; nothing is deleted).")
          : vscode.l10n.t('Only warns: running tasks keep running and keep costing money.'),
      },
      {
        action: 'thresholds',
        label: vscode.l10n.t('$(bell) Warn at'),
        description: vscode.l10n.t('{0} of each limit (every profile)', thresholds.map((value) => `${value}%`).join(', ')),
      },
      ...(settings ? [{ action: 'remove' as const, label: vscode.l10n.t('$(trash) Remove this budget'), description: vscode.l10n.t('no more warnings or auto-pause for {0}', name) }] : []),
    ];
    const picked = await context.prompts().pick(items, {
      title: vscode.l10n.t('Budget of {0}', name),
      placeHolder: vscode.l10n.t('Pick what to change: each change is saved at once. Days and months start at 00:00 +08:00. Escape when done.'),
      ignoreFocusOut: true,
    });
    if (!picked) return read();
    switch (picked.action) {
      case 'daily':
      case 'monthly': {
        const day = picked.action === 'daily';
        const current = day ? entry.dailyYuan : entry.monthlyYuan;
        const value = await context.prompts().input({
          title: day ? vscode.l10n.t('Daily limit of {0}', name) : vscode.l10n.t('Monthly limit of {0}', name),
          prompt: day
            ? vscode.l10n.t('Yuan per day (from 00:00 +08:00). Empty or 0: no daily limit.')
            : vscode.l10n.t('Yuan per month (from the 1st, 00:00 +08:00). Empty or 0: no monthly limit.'),
          value: current === undefined ? '' : String(current),
          ignoreFocusOut: true,
          validateInput: (text) => amountFeedback(text, day ? summary?.today : summary?.month, day ? 'day' : 'month'),
        });
        if (value === undefined) break;
        const parsed = parseBudgetAmount(value);
        if ('error' in parsed) break;
        const next: BudgetEntry = { ...entry };
        if (day) {
          delete next.dailyYuan;
          if (parsed.yuan !== undefined) next.dailyYuan = parsed.yuan;
        } else {
          delete next.monthlyYuan;
          if (parsed.yuan !== undefined) next.monthlyYuan = parsed.yuan;
        }
        await save(next);
        break;
      }
      case 'autoPause': {
        const choice = await askAutoPause(context, entry, summary, name);
        if (choice === undefined || choice === entry.autoPause) break;
        if (!settings) {
          void vscode.window.showInformationMessage(vscode.l10n.t('Set a daily or monthly limit first: auto-pause acts when a limit is used up.'));
          break;
        }
        await save({ ...entry, autoPause: choice });
        break;
      }
      case 'thresholds': {
        const value = await context.prompts().input({
          title: vscode.l10n.t('Warn at (every profile)'),
          prompt: vscode.l10n.t('Percentages of each limit at which to warn, once per day or month each, e.g. 80, 100.'),
          value: thresholds.join(', '),
          ignoreFocusOut: true,
          validateInput: (text) => {
            const parsed = parseThresholdList(text);
            if (Array.isArray(parsed)) return undefined;
            switch (parsed.error) {
              case 'empty':
                return vscode.l10n.t('Enter at least one percentage, e.g. 100.');
              case 'range':
                return vscode.l10n.t('Each percentage is between 1 and 1000.');
              case 'tooMany':
                return vscode.l10n.t('At most 10 percentages.');
              default:
                return vscode.l10n.t('Whole percentages separated by commas, e.g. 80, 100.');
            }
          },
        });
        if (value === undefined) break;
        const parsed = parseThresholdList(value);
        if (Array.isArray(parsed)) await services.config.writeBudgetThresholds(parsed);
        break;
      }
      case 'remove': {
        const keep = { label: vscode.l10n.t('Keep the budget'), remove: false };
        const remove = { label: vscode.l10n.t('Remove the budget'), description: vscode.l10n.t('warnings and auto-pause stop for {0}', name), remove: true };
        const answer = await context.prompts().pick([keep, remove], { title: vscode.l10n.t('Remove the budget of {0}?', name) });
        if (answer?.remove) await save(undefined);
        break;
      }
    }
  }
}

/** "Warn only" first: Enter keeps tasks running. The pause choice says what it does before it is chosen. */
async function askAutoPause(context: BudgetFormContext, entry: BudgetEntry, summary: SpendSummary | undefined, name: string): Promise<boolean | undefined> {
  const over =
    summary !== undefined &&
    ((entry.dailyYuan !== undefined && percentUsed(summary.today, entry.dailyYuan) >= 100) ||
      (entry.monthlyYuan !== undefined && percentUsed(summary.month, entry.monthlyYuan) >= 100));
  const current = vscode.l10n.t('(current)');
  const warn = {
    label: vscode.l10n.t('Warn only'),
    description: entry.autoPause ? vscode.l10n.t('safe default') : `${vscode.l10n.t('safe default')} ${current}`,
    detail: vscode.l10n.t('Notifications at the warning percentages; running tasks keep running and keep costing money.'),
    autoPause: false,
  };
  const pause = {
    label: vscode.l10n.t('Pause the running tasks'),
    description: entry.autoPause ? current : '',
    detail: over
      ? vscode.l10n.t('A limit is already used up: the running tasks of {0} will be paused at the next check (never stopped or deleted; Recover brings them back). Works only while VS Code runs.', name)
      : vscode.l10n.t('When a limit is used up, the running tasks of {0} are paused, never stopped or deleted: paused tasks are not billed, and what runs in them stops until Recover. Works only while VS Code runs.', name),
    autoPause: true,
  };
  const answer = await context.prompts().pick([warn, pause], { title: vscode.l10n.t('When a limit of {0} is used up', name), ignoreFocusOut: true });
  return answer?.autoPause;
}
