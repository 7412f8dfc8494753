// Budgets of every watched profile: warnings at the configured thresholds once per period, and the
// opt-in auto-pause when a limit is reached — pause, never stop (stop deletes a task) — with a
// notification that names what was paused and offers Recover. What was announced is remembered per
// profile in globalState, so a restart does not repeat a warning in the same period.

import * as vscode from 'vscode';
import type { TaskSummary } from '../../core/compute/api';
import { formatPoints, formatYuan } from '../../core/spend/units';
import { checkBudgets, pruneAnnouncements, type BudgetAlert } from '../../core/spend/budgets';
import { runWithOrigin } from '../../core/requests/requestOrigin';
import type { ExtensionServices, Profile } from '../services';
import { budgetFor } from './budgetSettings';
import { plain, type NotificationCenter } from '../ui/notificationCenter';
import type { SpendState } from './spendTracker';
import { decidePause, type Activity } from '../../core/spend/activity';
import { activitiesText } from '../ui/activityText';

export interface BudgetActions {
  /** The profile's tasks running now (a fresh poll of the store: auto-pause acts on the platform's state). */
  listRunning(profile: Profile): Promise<readonly TaskSummary[]>;
  pause(profile: Profile, taskId: number): Promise<void>;
  recover(profile: Profile, taskId: number): Promise<void>;
  openSpend(): unknown;
  /** What is active on the task now (the one activity rule, core/spend/activity.ts). */
  activity(profileId: string, taskId: number): readonly Activity[];
  /** What is active on the profile's machines and jobs, which no pause of a task stops. */
  notOnTasks(profileId: string): readonly Activity[];
}

export interface AutoPauseResult {
  paused: { taskId: number; name: string }[];
  failed: { taskId: number; name: string }[];
  /** What was active on the paused tasks (a budget's limit still pauses them). */
  interrupted: Activity[];
  /** What is active and not paused (machines, Run on GPU jobs): still billed after the auto-pause. */
  stillRunning: Activity[];
}

export class BudgetGuard {
  /** The last auto-pause, for the in-host tests. */
  lastAutoPause: AutoPauseResult | undefined;

  constructor(
    private readonly services: ExtensionServices,
    private readonly center: NotificationCenter,
    private readonly actions: BudgetActions,
  ) {}

  private queue: Promise<void> = Promise.resolve();

  /**
   * Checks the spend against the active profile's budget; pauses the running tasks when asked to.
   * Checks run one after another, so two triggers at once can never pause or warn twice.
   */
  check(spend: SpendState): Promise<void> {
    const next = this.queue.then(() => this.checkNow(spend));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async checkNow(spend: SpendState): Promise<void> {
    const profile = this.services.profiles.all.find((candidate) => candidate.id === spend.profileId);
    if (!profile) return;
    const settings = budgetFor(profile, this.services.config.budgetsPerProfile, this.services.config.budgetThresholds);
    if (!settings) return;
    const state = this.services.state;
    const now = Date.now();
    const announced = new Set(pruneAnnouncements(state.getFor('budgetAnnounced', profile.id), now));
    const result = checkBudgets(settings, { day: spend.summary.today, month: spend.summary.month }, now, announced);
    if (result.announce.length === 0) return;
    for (const key of result.announce) announced.add(key);
    await state.updateFor('budgetAnnounced', profile.id, [...announced]);
    const whose = profile.id === this.services.profiles.active?.id ? undefined : profile;
    for (const alert of result.alerts) this.warn(alert, result.pause, whose);
    if (result.pause) await this.autoPause(profile, (await this.actions.listRunning(profile)).filter((task) => task.status === 'Running'));
  }

  private warn(alert: BudgetAlert, pausing: boolean, other: Profile | undefined): void {
    const period = alert.kind === 'day' ? vscode.l10n.t('daily') : vscode.l10n.t('monthly');
    const spent = formatPoints(alert.spentPoints);
    const limit = formatYuan(alert.limitPoints / 1_000_000);
    const message = alert.exceeded
      ? vscode.l10n.t('The {0} budget of {1} is used up: {2} spent.', period, limit, spent)
      : vscode.l10n.t('{0}% of the {1} budget of {2} is spent ({3}).', alert.threshold, period, limit, spent);
    const note = alert.exceeded && !pausing ? ` ${vscode.l10n.t('Running tasks keep costing money until you pause them.')}` : '';
    const text = other ? vscode.l10n.t('[{0}] {1}', plain(other.label, 40), `${message}${note}`) : `${message}${note}`;
    this.center.show('budget', alert.exceeded ? 'warning' : 'info', text, [{ title: vscode.l10n.t('Show Spend'), run: () => this.actions.openSpend() }]);
  }

  /** Pauses each running task (never stops one); one notification lists them and offers Recover. */
  private async autoPause(profile: Profile, running: readonly TaskSummary[]): Promise<void> {
    const result: AutoPauseResult = { paused: [], failed: [], interrupted: [], stillRunning: [...this.actions.notOnTasks(profile.id)] };
    for (const task of running) {
      const entry = { taskId: task.task_id, name: plain(task.task_name, 60) };
      const decision = decidePause('budget', this.actions.activity(profile.id, task.task_id));
      try {
        await runWithOrigin({ kind: 'budget' }, () => this.actions.pause(profile, task.task_id));
        result.paused.push(entry);
        if (decision.action === 'pause') result.interrupted.push(...decision.interrupted);
      } catch (error) {
        result.failed.push(entry);
        this.services.logger.error(`Auto-pause of task ${task.task_id} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    this.lastAutoPause = result;
    this.services.logger.warn(`Budget reached: auto-paused ${result.paused.length} task(s)${result.failed.length ? `, ${result.failed.length} failed` : ''}.`);
    if (result.paused.length === 0 && result.failed.length === 0 && result.stillRunning.length === 0) return;
    const names = result.paused.map((task) => `"${task.name}"`).join(', ');
    const failed = result.failed.map((task) => `"${task.name}"`).join(', ');
    const message = [
      result.paused.length > 0 ? vscode.l10n.t('Budget reached: paused {0}. Paused tasks are not billed; nothing was deleted.', names) : '',
      result.interrupted.length > 0 ? vscode.l10n.t('This interrupted {0}.', activitiesText(result.interrupted)) : '',
      result.failed.length > 0 ? vscode.l10n.t('Could not pause {0}: they are still running.', failed) : '',
      result.stillRunning.length > 0 ? vscode.l10n.t('Not paused, still billed: {0} (a budget pauses tasks only).', activitiesText(result.stillRunning)) : '',
    ]
      .filter(Boolean)
      .join(' ');
    const recover = {
      title: vscode.l10n.t('Recover'),
      run: async () => {
        for (const task of result.paused) await runWithOrigin({ kind: 'budget' }, () => this.actions.recover(profile, task.taskId));
      },
    };
    const whose = profile.id === this.services.profiles.active?.id ? message : vscode.l10n.t('[{0}] {1}', plain(profile.label, 40), message);
    this.center.show('autoPause', result.failed.length > 0 ? 'error' : 'warning', whose, result.paused.length > 0 ? [recover] : []);
  }
}
