// The status bar item of money: burn rate of the running tasks (¥/h) and today's spend, e.g.
// "$(flame) ¥3.36/h · today ¥12.40". Hidden with no profile or when turned off in settings.

import * as vscode from 'vscode';
import { formatPoints, formatYuanPerHour, pointsPerSecondToYuanPerHour } from '../../core/spend/units';
import type { SpendSummary } from '../../core/spend/spend';
import { Commands, Views } from '../commandIds';


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

  update(state: { visible: boolean; pointsPerSecond: number; running: number; unpriced: number; spend: SpendSummary | undefined }): void {
    if (!state.visible) {
      this.item.hide();
      this.shown = false;
      return;
    }
    const rate = formatYuanPerHour(pointsPerSecondToYuanPerHour(state.pointsPerSecond));
    const today = state.spend ? formatPoints(state.spend.today) : '…';
    this.item.text = `$(flame) ${rate} · ${vscode.l10n.t('today {0}', today)}`;
    const lines = [
      vscode.l10n.t('{0} running task(s) cost {1}.', state.running, rate),
      state.unpriced > 0 ? vscode.l10n.t('{0} running task(s) have no known price and are not counted.', state.unpriced) : '',
      state.spend
        ? vscode.l10n.t('Spent today {0}, this week {1}, this month {2} (posted every 5 minutes, +08:00 days).', today, formatPoints(state.spend.week), formatPoints(state.spend.month))
        : '',
      vscode.l10n.t('Click to open the Spend view.'),
    ];
    this.item.tooltip = lines.filter(Boolean).join('\n');
    this.item.show();
    this.shown = true;
  }

  dispose(): void {
    this.item.dispose();
  }
}
