// The status bar item of money: burn rate of the running tasks (¥/h) and today's spend, e.g.
// "$(flame) ¥3.36/h · today ¥12.40". Hidden with no profile or when turned off in settings. Its
// tooltip shows the budget beside the spend and links to Show Spend and Set Budget….

import * as vscode from 'vscode';
import { formatPoints, formatYuanPerHour, pointsPerSecondToYuanPerHour } from '../../core/spend/units';
import type { SpendSummary } from '../../core/spend/spend';
import { Commands, Views } from '../commandIds';
import { todayLagNote } from './budgetText';
import { markdownText as escapeMarkdown } from '../markdownText';
import { counted } from '../ui/counts';
import { durationText } from '../ui/duration';

/** Older than this, the item's text says how old today's figure is. */
const STALE_MS = 10 * 60_000;

export class SpendStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(Views.spendStatusBar, vscode.StatusBarAlignment.Left, 49);

  constructor() {
    this.item.name = vscode.l10n.t('Compute Toolkit Spend');
    this.item.command = Commands.spendShow;
  }

  private shown = false;

  /** What the item shows now ('' while hidden), for the in-host tests. */
  get text(): string {
    return this.shown ? this.item.text : '';
  }

  /** The tooltip's text (Markdown), for the in-host tests. */
  get tooltipMarkdown(): string {
    const tooltip = this.item.tooltip;
    return tooltip instanceof vscode.MarkdownString ? tooltip.value : (tooltip ?? '');
  }

  update(
    state: {
      visible: boolean;
      pointsPerSecond: number;
      running: number;
      unpriced: number;
      spend: { summary: SpendSummary; at: number } | undefined;
      /** The active profile's budget beside its spend (budgetText.ts); empty when none is set. */
      budget: readonly string[];
    },
    now = Date.now(),
  ): void {
    if (!state.visible) {
      this.item.hide();
      this.shown = false;
      return;
    }
    const rate = formatYuanPerHour(pointsPerSecondToYuanPerHour(state.pointsPerSecond));
    const spend = state.spend?.summary;
    const today = spend ? formatPoints(spend.today) : '…';
    const ageSeconds = state.spend ? Math.max(0, (now - state.spend.at) / 1000) : 0;
    const age = ageSeconds < 60 ? vscode.l10n.t('just now') : vscode.l10n.t('{0} ago', durationText(ageSeconds, { precision: 'minute' }));
    const stale = state.spend !== undefined && now - state.spend.at >= STALE_MS;
    this.item.text = `$(flame) ${rate} · ${vscode.l10n.t('today {0}', today)}${stale ? ` (${age})` : ''}`;
    const lines = [
      vscode.l10n.t('{0} cost {1}.', counted(state.running, 'runningTask'), rate),
      state.unpriced > 0 ? vscode.l10n.t('Not counted, no price known: {0}.', counted(state.unpriced, 'runningTask')) : '',
      spend
        ? vscode.l10n.t('Spent today {0}, this week {1}, this month {2} (posted every 5 minutes, +08:00 days).', today, formatPoints(spend.week), formatPoints(spend.month))
        : '',
      state.spend ? vscode.l10n.t('Spend figures fetched {0}.', age) : '',
      spend ? todayLagNote() : '',
      ...(state.budget.length > 0 ? state.budget : [vscode.l10n.t('No budget for this profile.')]),
    ];
    const links = [
      `[${escapeMarkdown(vscode.l10n.t('Show Spend'))}](command:${Commands.spendShow})`,
      `[${escapeMarkdown(state.budget.length > 0 ? vscode.l10n.t('Edit Budget…') : vscode.l10n.t('Set Budget…'))}](command:${Commands.spendSetBudget})`,
    ];
    const tooltip = new vscode.MarkdownString([...lines.filter(Boolean).map(escapeMarkdown), links.join(' · ')].join('\n\n'));
    tooltip.isTrusted = { enabledCommands: [Commands.spendShow, Commands.spendSetBudget] };
    this.item.tooltip = tooltip;
    this.item.show();
    this.shown = true;
  }

  dispose(): void {
    this.item.dispose();
  }
}
