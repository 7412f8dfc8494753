// How a profile's budget reads beside its spend, in the Set Budget… form, the Spend page and the
// status bar's tooltip: "Daily budget: ¥12.40 of ¥100.00 (12%)", one wording everywhere.

import * as vscode from 'vscode';
import { percentUsed } from '../../core/spend/budgetEdit';
import type { BudgetSettings } from '../../core/spend/budgets';
import type { SpendSummary } from '../../core/spend/spend';
import { formatPoints, formatYuan } from '../../core/spend/units';

/** "¥12.40 of ¥100.00 (12%)", "¥12.40 (no limit)", "no limit" when the spend is not known. */
export function usageText(limitYuan: number | undefined, spentPoints: number | undefined): string {
  if (limitYuan === undefined) return spentPoints === undefined ? vscode.l10n.t('no limit') : vscode.l10n.t('{0} (no limit)', formatPoints(spentPoints));
  if (spentPoints === undefined) return vscode.l10n.t('limit {0} (spend not known yet)', formatYuan(limitYuan));
  return vscode.l10n.t('{0} of {1} ({2}%)', formatPoints(spentPoints), formatYuan(limitYuan), percentUsed(spentPoints, limitYuan));
}

export function autoPauseText(autoPause: boolean): string {
  return autoPause ? vscode.l10n.t('pause the running tasks (never stop them)') : vscode.l10n.t('warn only');
}

/** The lines that describe a budget beside the spend (empty when the profile has none). */
export function budgetLines(settings: BudgetSettings | undefined, summary: SpendSummary | undefined): string[] {
  if (!settings) return [];
  return [
    vscode.l10n.t('Daily budget: {0}', usageText(settings.dailyYuan, summary?.today)),
    vscode.l10n.t('Monthly budget: {0}', usageText(settings.monthlyYuan, summary?.month)),
    vscode.l10n.t('When a budget is used up: {0}', autoPauseText(settings.autoPause)),
  ];
}

/** Said wherever "today" is shown: billing lags what the tasks show as billed. */
export function todayLagNote(): string {
  return vscode.l10n.t("Today's figure can trail the tasks' own billed totals by a few minutes: the platform posts charges every 5 minutes.");
}
