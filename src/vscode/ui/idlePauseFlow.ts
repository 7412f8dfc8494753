// The one idle pause's notices (docs/money.md, "What counts as active"): a task idle past its minutes is
// warned with Keep Running first; a grace period later (core/spend/idleGrace.ts) the one activity rule
// (core/spend/activity.ts) decides: something active holds the pause and says what, otherwise the task
// is paused with Recover offered. Kernel tasks and deployments both go through here; each area says what
// is idle, how its task pauses, recovers and is kept, and its own words.

import * as vscode from 'vscode';
import type { IdleCandidate, IdleGraceStep } from '../../core/spend/idleGrace';
import { decidePause, type Activity } from '../../core/spend/activity';
import { activitiesText } from './activityText';
import type { NotificationCenter } from './notificationCenter';

export type IdlePauseAction = 'warned' | 'kept' | 'held' | 'paused';

export interface IdlePauseStep {
  taskId: number;
  action: IdlePauseAction;
}

export interface IdlePauseSubject<T extends IdleCandidate> {
  /** What is active on the task now (the one activity rule). */
  activity(task: T): readonly Activity[];
  pause(task: T): Promise<void>;
  recover(task: T): Promise<unknown>;
  /** Keep Running or a held pause: its idle time counts again from now. */
  keep(task: T): void;
  /** The warning (it names when the pause comes), the note of a held pause, the note of a pause. */
  warnText(task: T): string;
  heldText(task: T, active: string): string;
  pausedText(task: T): string;
  /** What a failed pause or recover was doing, for the error report. */
  pauseDoing(task: T): string;
}

export class IdlePauseFlow<T extends IdleCandidate> {
  /** What the idle pause did this session, oldest first (the in-host tests read it). */
  readonly events: IdlePauseStep[] = [];

  constructor(
    private readonly center: NotificationCenter,
    private readonly reportError: (error: unknown, context: string) => void,
    private readonly subject: IdlePauseSubject<T>,
  ) {}

  /** Acts on one step of the grace: warns what became idle, pauses (or holds) what stayed idle after it. */
  async act(step: IdleGraceStep<T>): Promise<void> {
    for (const task of step.warn) this.warn(task);
    for (const task of step.pause) await this.pauseIdle(task);
  }

  private warn(task: T): void {
    this.events.push({ taskId: task.taskId, action: 'warned' });
    this.center.show('idlePause', 'warning', this.subject.warnText(task), [
      {
        title: vscode.l10n.t('Keep Running'),
        run: () => {
          this.events.push({ taskId: task.taskId, action: 'kept' });
          this.subject.keep(task);
        },
      },
      { title: vscode.l10n.t('Pause Now'), run: () => this.pause(task) },
    ]);
  }

  private async pauseIdle(task: T): Promise<void> {
    const decision = decidePause('idle', this.subject.activity(task));
    if (decision.action === 'hold') {
      this.events.push({ taskId: task.taskId, action: 'held' });
      this.subject.keep(task);
      this.center.show('idlePause', 'info', this.subject.heldText(task, activitiesText(decision.active)));
      return;
    }
    await this.pause(task);
  }

  private async pause(task: T): Promise<void> {
    try {
      await this.subject.pause(task);
    } catch (error) {
      this.reportError(error, this.subject.pauseDoing(task));
      return;
    }
    this.events.push({ taskId: task.taskId, action: 'paused' });
    this.center.show('idlePause', 'info', this.subject.pausedText(task), [
      {
        title: vscode.l10n.t('Recover'),
        run: () => Promise.resolve(this.subject.recover(task)).then(undefined, (error: unknown) => this.reportError(error, vscode.l10n.t('Recover task {0}', task.taskId))),
      },
    ]);
  }
}
