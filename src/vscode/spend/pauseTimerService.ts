// "Pause after…" timers for tasks: kept in globalState (so they survive a restart), shown on the
// task's row with the time left, and acted on by pausing the task (never stopping it). The platform
// has no server-side schedule, so a timer acts only while VS Code runs; one that came due while it
// was closed acts at the next start, and the notification says so. Timers act on every profile's
// tasks (through that profile's client), whichever profile is active.

import * as vscode from 'vscode';
import { nextWake, splitDue, toWarn, warningKey, type PauseTimer } from '../../core/spend/pauseTimers';
import { runWithOrigin } from '../../core/requests/requestOrigin';
import type { ExtensionServices } from '../services';
import { plain, type NotificationCenter } from '../ui/notificationCenter';
import { formatTime } from '../ui/dates';
import { durationText } from '../ui/duration';
import { decidePause, type Activity } from '../../core/spend/activity';
import { activitiesText } from '../ui/activityText';

export interface TimerClock {
  now(): number;
  setTimer(callback: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export const REAL_CLOCK: TimerClock = {
  now: () => Date.now(),
  setTimer: (callback, ms) => setTimeout(callback, ms),
  clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface TimerActions {
  pause(profileId: string, taskId: number): Promise<void>;
  /** Whether the task is Running now (a timer on a task that is no longer running is dropped). */
  isRunning(profileId: string, taskId: number): Promise<boolean>;
  recover(profileId: string, taskId: number): Promise<void>;
  /** Redraws task rows (time left changed). */
  rerender(): void;
  /** What is active on the task now (the one activity rule, core/spend/activity.ts). */
  activity(profileId: string, taskId: number): readonly Activity[];
}

/** A timer held by activity looks again after this long. */
export const HOLD_MS = 10 * 60_000;

/** setTimeout's ceiling (about 24.8 days); longer waits are re-armed. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;
/** Rows show minutes left: redraw once a minute while a timer waits. */
const ROW_REFRESH_MS = 60_000;

export class PauseTimerService implements vscode.Disposable {
  private wake: unknown;
  private rowTicker: ReturnType<typeof setInterval> | undefined;
  private running: Promise<void> = Promise.resolve();
  /** Timers warned before their pause this session (warningKey). */
  private readonly warned = new Set<string>();

  constructor(
    private readonly services: ExtensionServices,
    private readonly center: NotificationCenter,
    private readonly actions: TimerActions,
    private clock: TimerClock = REAL_CLOCK,
  ) {}

  /** Replaces the clock (the in-host tests move time without waiting); re-arms the next timer. */
  useClock(clock: TimerClock): void {
    if (this.wake !== undefined) this.clock.clearTimer(this.wake);
    this.wake = undefined;
    this.clock = clock;
    this.schedule();
  }

  list(): PauseTimer[] {
    return this.services.state.get('pauseTimers');
  }

  /** "47 min left to pause" for the task's row, or undefined. */
  annotation(taskId: number): string | undefined {
    const profile = this.services.profiles.active;
    const timer = this.list().find((candidate) => candidate.taskId === taskId && candidate.profileId === profile?.id);
    return timer ? vscode.l10n.t('pauses in {0}', durationText((timer.dueAt - this.clock.now()) / 1000, { precision: 'minute', round: 'up' })) : undefined;
  }

  async set(taskId: number, taskName: string, dueAt: number): Promise<void> {
    const profile = this.services.profiles.active;
    if (!profile) return;
    const timers = this.list().filter((timer) => !(timer.taskId === taskId && timer.profileId === profile.id));
    timers.push({ profileId: profile.id, taskId, taskName: plain(taskName, 80), dueAt, createdAt: this.clock.now() });
    await this.save(timers);
    this.services.logger.info(`Pause timer for task ${taskId} set for ${new Date(dueAt).toISOString()}.`);
  }

  async cancel(taskId: number): Promise<boolean> {
    const profile = this.services.profiles.active;
    const timers = this.list();
    const kept = timers.filter((timer) => !(timer.taskId === taskId && timer.profileId === profile?.id));
    if (kept.length === timers.length) return false;
    await this.save(kept);
    return true;
  }

  /** At start (and on a profile switch): act on timers that came due while VS Code was closed. */
  start(): Promise<void> {
    return this.runDue(true);
  }

  /** Acts on every timer (of any existing profile) that is due at the clock's time (one run at a time). */
  runDue(atStart = false): Promise<void> {
    const next = this.running.then(() => this.fire(atStart));
    this.running = next.catch(() => undefined);
    return next;
  }

  private async fire(atStart: boolean): Promise<void> {
    const now = this.clock.now();
    const all = this.list();
    const mine = this.actionable(all);
    const { due } = splitDue(mine, now);
    if (due.length > 0) {
      await this.save(all.filter((timer) => !due.includes(timer)));
      for (const timer of due) await this.act(timer, atStart);
    }
    for (const timer of toWarn(this.actionable(this.list()), this.clock.now(), this.warned)) this.warnAhead(timer);
    this.schedule();
  }

  /** Before any pause: a warning with Keep Running first (it drops the timer), then Pause Now. */
  private warnAhead(timer: PauseTimer): void {
    this.warned.add(warningKey(timer));
    this.center.show('timer', 'warning', vscode.l10n.t('"{0}" pauses at {1} as its timer asks. It is not billed while paused.', timer.taskName, formatTime(timer.dueAt)), [
      { title: vscode.l10n.t('Keep Running'), run: () => this.drop(timer) },
      { title: vscode.l10n.t('Pause Now'), run: () => runWithOrigin({ kind: 'timer' }, () => this.actions.pause(timer.profileId, timer.taskId)) },
    ]);
  }

  private async drop(timer: PauseTimer): Promise<void> {
    await this.save(this.list().filter((other) => !(other.taskId === timer.taskId && other.profileId === timer.profileId)));
  }

  private async act(timer: PauseTimer, atStart: boolean): Promise<void> {
    const when = formatTime(timer.dueAt);
    try {
      if (!(await this.actions.isRunning(timer.profileId, timer.taskId))) {
        this.services.logger.info(`Pause timer for task ${timer.taskId} dropped: the task is no longer running.`);
        return;
      }
      const decision = decidePause('timer', this.actions.activity(timer.profileId, timer.taskId));
      if (decision.action === 'hold') {
        await this.hold(timer, decision.active);
        return;
      }
      await runWithOrigin({ kind: 'timer' }, () => this.actions.pause(timer.profileId, timer.taskId));
      const message = atStart
        ? vscode.l10n.t('The pause timer of "{0}" came due at {1} while VS Code was closed: paused it now.', timer.taskName, when)
        : vscode.l10n.t('Paused "{0}" as its timer asked ({1}). It is not billed while paused.', timer.taskName, when);
      this.center.show('timer', atStart ? 'warning' : 'info', message, [{ title: vscode.l10n.t('Recover'), run: () => runWithOrigin({ kind: 'timer' }, () => this.actions.recover(timer.profileId, timer.taskId)) }]);
    } catch (error) {
      this.center.show('timer', 'error', vscode.l10n.t('The pause timer of "{0}" could not pause it: it is still running.', timer.taskName));
      this.services.reportError(error, vscode.l10n.t('Pause task {0}', timer.taskId));
    }
  }

  /** Something is active on the task: the timer waits HOLD_MS and looks again; Keep Running drops it. */
  private async hold(timer: PauseTimer, active: readonly Activity[]): Promise<void> {
    const later = { ...timer, dueAt: this.clock.now() + HOLD_MS };
    await this.save([...this.list().filter((other) => !(other.taskId === timer.taskId && other.profileId === timer.profileId)), later]);
    this.services.logger.info(`Pause timer for task ${timer.taskId} held: ${active.length} activit(ies) on it.`);
    this.center.show(
      'timer',
      'warning',
      vscode.l10n.t('Did not pause "{0}" as its timer asked: {1}. It looks again at {2}.', timer.taskName, activitiesText(active), formatTime(later.dueAt)),
      [
        {
          title: vscode.l10n.t('Keep Running'),
          run: () => this.drop(timer),
        },
        { title: vscode.l10n.t('Pause Now'), run: () => runWithOrigin({ kind: 'timer' }, () => this.actions.pause(timer.profileId, timer.taskId)) },
      ],
    );
  }

  private async save(timers: PauseTimer[]): Promise<void> {
    await this.services.state.update('pauseTimers', timers);
    this.schedule();
    this.actions.rerender();
  }

  private schedule(): void {
    if (this.wake !== undefined) this.clock.clearTimer(this.wake);
    this.wake = undefined;
    const mine = this.actionable(this.list());
    const due = nextWake(mine, this.warned);
    if (due !== undefined) {
      const delay = Math.min(MAX_TIMEOUT_MS, Math.max(0, due - this.clock.now()));
      this.wake = this.clock.setTimer(() => {
        this.wake = undefined;
        void this.runDue();
      }, delay);
    }
    if (mine.length > 0 && this.rowTicker === undefined) this.rowTicker = setInterval(() => this.actions.rerender(), ROW_REFRESH_MS);
    if (mine.length === 0 && this.rowTicker !== undefined) {
      clearInterval(this.rowTicker);
      this.rowTicker = undefined;
    }
  }

  /** Timers of profiles that still exist (a removed profile's timers cannot act). */
  private actionable(timers: PauseTimer[]): PauseTimer[] {
    const ids = new Set(this.services.profiles.all.map((profile) => profile.id));
    return timers.filter((timer) => ids.has(timer.profileId));
  }

  dispose(): void {
    if (this.wake !== undefined) this.clock.clearTimer(this.wake);
    if (this.rowTicker !== undefined) clearInterval(this.rowTicker);
  }
}
