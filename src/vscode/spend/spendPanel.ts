// The Spend view: a webview panel under the chat's CSP (chatContentSecurityPolicy: nonce'd script,
// local style only). Loads on open and on request: daily totals, spend per task, and the daily
// buckets of the top tasks (2 + up to 5 billing requests, only when the user opens or refreshes it).

import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { webviewPageHtml } from '../webviews/pageHtml';
import type { SpendSummary } from '../../core/spend/spend';
import { parseSpendWebviewMessage, type SpendHostMessage, type SpendLabel, type SpendRangeDays, type SpendRentals, type SpendViewData } from '../../shared/spendProtocol';
import { Views } from '../commandIds';
import { billingServiceOf } from '../client/computeServices';
import type { ExtensionServices } from '../services';
import { TOP_TASKS, rangeWindow, spendViewData } from './spendViewModel';
import { formatPoints, formatYuanPerHour, pointsPerSecondToYuanPerHour } from '../../core/spend/units';
import { todayLagNote } from './budgetText';
import { errorMessage } from '../../shared/errorMessage';


export interface SpendSources {
  summary(): Promise<SpendSummary | undefined>;
  burnPointsPerSecond(): number;
  /** The active profile's budget beside the given spend (budgetText.ts); empty when it has none. */
  budgetLines(summary: SpendSummary | undefined): string[];
  /** Opens Set Budget… for the active profile (the page's button). */
  setBudget(): void;
  /** The active profile's rented machines and the warning's note (the machines area words them). */
  rentals(): Promise<SpendRentals>;
}

function labels(): Record<SpendLabel, string> {
  return {
    title: vscode.l10n.t('Spend'),
    today: vscode.l10n.t('Today'),
    week: vscode.l10n.t('This week'),
    month: vscode.l10n.t('This month'),
    burnRate: vscode.l10n.t('Burn rate now'),
    refresh: vscode.l10n.t('Refresh'),
    byDay: vscode.l10n.t('Spend by day'),
    byTask: vscode.l10n.t('Spend by task'),
    task: vscode.l10n.t('Task'),
    type: vscode.l10n.t('Type'),
    amount: vscode.l10n.t('Amount'),
    total: vscode.l10n.t('Total'),
    days: vscode.l10n.t('{0} days'),
    asOf: vscode.l10n.t('As of {0}. Charges are posted every 5 minutes; days follow the platform time zone (+08:00).'),
    empty: vscode.l10n.t('No spend in this window.'),
    budget: vscode.l10n.t('Budget'),
    setBudget: vscode.l10n.t('Set Budget…'),
    editBudget: vscode.l10n.t('Edit Budget…'),
    noBudget: vscode.l10n.t('No budget for this profile: nothing warns you before money runs out.'),
    todayLag: todayLagNote(),
    rentals: vscode.l10n.t('Rented machines'),
    machine: vscode.l10n.t('Machine'),
    rentalEnds: vscode.l10n.t('Rental ends'),
    timeLeft: vscode.l10n.t('Time left'),
    autoRenew: vscode.l10n.t('Auto-renew'),
    endingSoon: vscode.l10n.t('ends soon'),
  };
}

/** The billing's task types as the console names them; a type this version does not know is shown as sent. */
function taskTypeLabel(type: string | null): string {
  if (type === 'Deployment') return vscode.l10n.t('Deployment');
  if (type === 'Development') return vscode.l10n.t('Cloud host');
  return type ?? '';
}

export function spendPageHtml(language: string, cspSource: string, nonce: string, scriptUri: string, styleUri: string, title: string): string {
  return webviewPageHtml(
    { language, cspSource, nonce, scriptUri, styleUri, title },
    // eslint-disable-next-line no-restricted-syntax -- markup, not prose: the page's words come from labels()
    `<div id="spend-status" role="status" aria-live="polite"></div>
<main id="spend-root"></main>`,
  );
}

export class SpendPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private rangeDays: SpendRangeDays = 30;
  private loadCounter = 0;
  /** Bumped by each rentals update: a full load that began before one reads the rentals again (theirs is newer). */
  private rentalsEpoch = 0;
  /** The last data sent, for the in-host tests. */
  lastData: SpendViewData | undefined;
  /** The spend figures behind lastData's budget lines. */
  private lastSummary: SpendSummary | undefined;

  constructor(
    private readonly services: ExtensionServices,
    private readonly sources: SpendSources,
  ) {}

  show(): void {
    if (this.panel) {
      this.panel.reveal(undefined, true);
      void this.load();
      return;
    }
    const extensionUri = this.services.context.extensionUri;
    const panel = vscode.window.createWebviewPanel(Views.spendPanel, vscode.l10n.t('Spend'), { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, {
      enableScripts: true,
      enableCommandUris: false,
      retainContextWhenHidden: false,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')],
    });
    this.panel = panel;
    const webview = panel.webview;
    webview.html = spendPageHtml(
      vscode.env.language,
      webview.cspSource,
      randomBytes(18).toString('base64'),
      webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'spend.js')).toString(),
      webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'spend.css')).toString(),
      vscode.l10n.t('Spend'),
    );
    const subscriptions = [
      webview.onDidReceiveMessage((raw: unknown) => {
        const message = parseSpendWebviewMessage(raw);
        if (!message) {
          this.services.logger.warn('Spend view: ignored a malformed message from the webview.');
          return;
        }
        if (message.type === 'spend/setBudget') {
          this.sources.setBudget();
          return;
        }
        if (message.type === 'spend/range') this.rangeDays = message.days;
        void this.load();
      }),
      this.services.profiles.onDidChangeActive(() => void this.load()),
    ];
    panel.onDidDispose(() => {
      this.panel = undefined;
      for (const subscription of subscriptions) subscription.dispose();
    });
  }

  private latest: Promise<SpendViewData | undefined> = Promise.resolve(undefined);

  /**
   * Loads the figures for the current range and posts them; resolves with what was sent. A load
   * overtaken by a newer one (the webview's 'ready', a range change) resolves with the newer one's.
   */
  load(): Promise<SpendViewData | undefined> {
    const mine = this.loadOnce();
    this.latest = mine;
    return mine.then((data) => (this.latest === mine ? data : this.latest));
  }

  private async loadOnce(): Promise<SpendViewData | undefined> {
    const panel = this.panel;
    const profile = this.services.profiles.active;
    if (!panel) return undefined;
    const load = ++this.loadCounter;
    const post = (message: SpendHostMessage): void => {
      if (load === this.loadCounter) void panel.webview.postMessage(message);
    };
    if (!profile) {
      post({ type: 'spend/error', message: vscode.l10n.t('No compute profile: create one or connect to the local sandbox.') });
      return undefined;
    }
    post({ type: 'spend/loading', rangeDays: this.rangeDays });
    try {
      const billing = billingServiceOf(this.services);
      const now = Date.now();
      const window = rangeWindow(this.rangeDays, now);
      const taskWindow = { range: 'day' as const, start_time: window.query.start_time, end_time: window.query.end_time, page_size: 100 };
      const epoch = this.rentalsEpoch;
      const [totals, perTask, summary, firstRentals] = await Promise.all([
        billing.byTime(window.query),
        billing.byTask(taskWindow),
        this.sources.summary(),
        this.rentals(),
      ]);
      const top = [...perTask.results].sort((a, b) => b.billing_coin - a.billing_coin).slice(0, TOP_TASKS);
      const topBuckets = new Map(
        await Promise.all(
          top.map(async (task) => [task.task_id, (await billing.byTime({ ...window.query, task_ids: String(task.task_id) })).results] as const),
        ),
      );
      const data = spendViewData({
        profileLabel: profile.label,
        rangeDays: this.rangeDays,
        nowMs: now,
        window,
        totals: totals.results,
        perTask: perTask.results,
        topTaskBuckets: topBuckets,
        summary: summary ?? { today: 0, week: 0, month: 0 },
        burnPointsPerSecond: this.sources.burnPointsPerSecond(),
        otherLabel: vscode.l10n.t('Other'),
        unnamedLabel: (taskId) => vscode.l10n.t('Task {0}', taskId),
        typeLabel: taskTypeLabel,
      });
      // A setting or the store moved the rentals while this load ran: its own reading is older than theirs.
      const rentals = epoch === this.rentalsEpoch ? firstRentals : await this.rentals();
      const withLabels = { ...data, ...rentals, budget: this.sources.budgetLines(summary), labels: labels() };
      if (load !== this.loadCounter) return undefined;
      this.lastData = withLabels;
      this.lastSummary = summary;
      post({ type: 'spend/data', data: withLabels });
      return withLabels;
    } catch (error) {
      post({ type: 'spend/error', message: vscode.l10n.t('Could not load spend; see the log for details.') });
      this.services.reportError(error, vscode.l10n.t('Load spend'));
      return undefined;
    }
  }

  /** The rented machines; a failed listing leaves them out (the Machines view shows the failure) rather than the spend. */
  private async rentals(): Promise<SpendRentals> {
    try {
      return await this.sources.rentals();
    } catch (error) {
      this.services.logger.warn(`Spend view: rented machines left out: ${errorMessage(error)}`);
      return { rentals: [], rentalsNote: '' };
    }
  }

  /** Sends an open page the rented machines again (the store moved, or the warning setting changed). */
  async updateRentals(): Promise<void> {
    const epoch = ++this.rentalsEpoch;
    if (!this.panel || !this.lastData) return;
    const rentals = await this.rentals();
    // A later update (or a load after it) reads them fresher: only the newest one writes.
    if (epoch !== this.rentalsEpoch) return;
    const last = this.lastData;
    const panel = this.panel;
    if (!panel || !last || JSON.stringify(rentals) === JSON.stringify({ rentals: last.rentals, rentalsNote: last.rentalsNote })) return;
    this.lastData = { ...last, ...rentals };
    panel.webview.postMessage({ type: 'spend/data', data: this.lastData } satisfies SpendHostMessage).then(undefined, () => undefined);
  }

  /**
   * Updates the figures an open page shows from the store's events (burn rate after a pause, the
   * spend summary after a fetch), without the billing requests of a full load.
   */
  updateFigures(figures: { summary?: SpendSummary; burnPointsPerSecond?: number; budgetChanged?: boolean }): void {
    const panel = this.panel;
    const last = this.lastData;
    if (!panel || !last) return;
    const summary = {
      ...last.summary,
      ...(figures.summary
        ? { today: formatPoints(figures.summary.today), week: formatPoints(figures.summary.week), month: formatPoints(figures.summary.month) }
        : {}),
      ...(figures.burnPointsPerSecond !== undefined ? { burnRate: formatYuanPerHour(pointsPerSecondToYuanPerHour(figures.burnPointsPerSecond)) } : {}),
    };
    const budget = figures.summary || figures.budgetChanged ? this.sources.budgetLines(figures.summary ?? this.lastSummary) : last.budget;
    if (figures.summary) this.lastSummary = figures.summary;
    if (JSON.stringify(summary) === JSON.stringify(last.summary) && JSON.stringify(budget) === JSON.stringify(last.budget)) return;
    this.lastData = { ...last, summary, budget };
    // The page may close meanwhile: a disposed webview refuses the message, which is fine.
    panel.webview.postMessage({ type: 'spend/data', data: this.lastData } satisfies SpendHostMessage).then(undefined, () => undefined);
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
