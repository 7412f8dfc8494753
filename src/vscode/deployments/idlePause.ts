// Idle pause of deployments (docs/deployments.md): opt-in per deployment; after its minutes without a chat
// request (the registry records every request the extension sends) it is warned with Keep Running first
// and paused a grace period later unless something is active on it (the one idle pause: ui/idlePauseFlow.ts),
// with a notification offering Recover (which follows the deployment's readiness again until it answers); and the status bar item that
// shows what running deployments cost while they sit idle. A local timer only: the remote state it needs
// comes from the registry (deploymentPolling.ts feeds it from the task store).

import * as vscode from 'vscode';
import { formatYuanPerHour } from '../../core/spend/units';
import { deploymentYuanPerHour } from '../../core/deployments/cost';
import { Commands, Views } from '../commandIds';
import type { ExtensionServices } from '../services';
import type { Deployment } from '../../core/deployments/discovery';
import type { DeploymentRegistry } from './deploymentRegistry';
import type { DeploymentTasks } from './ports';
import { counted } from '../ui/counts';
import { durationText } from '../ui/duration';
import type { Activity } from '../../core/spend/activity';
import { IDLE_GRACE_MS, IdleGrace, type IdleCandidate } from '../../core/spend/idleGrace';
import { IdlePauseFlow, type IdlePauseStep } from '../ui/idlePauseFlow';
import type { NotificationCenter } from '../ui/notificationCenter';

const CHECK_EVERY_MS = 20_000;

export interface IdlePauseEvent {
  taskId: number;
  taskName: string;
  minutes: number;
}

interface IdleDeployment extends IdleCandidate {
  minutes: number;
}

export class IdlePause implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(Views.deploymentsStatusBar, vscode.StatusBarAlignment.Left, 48);
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly subscriptions: vscode.Disposable[] = [];
  private checking: Promise<void> | undefined;
  /** Idle pauses done this session, oldest first (the in-host tests read them). */
  readonly paused: IdlePauseEvent[] = [];
  /** Deployments recovered from the notice this session (the in-host tests read them). */
  readonly recovered: number[] = [];
  private readonly grace = new IdleGrace();
  private readonly flow: IdlePauseFlow<IdleDeployment>;

  constructor(
    private readonly services: ExtensionServices,
    private readonly registry: DeploymentRegistry,
    private readonly compute: DeploymentTasks,
    /** Follows a recovered deployment until it answers again (a progress notice; remembered when ready). */
    private readonly refollow: (deployment: Deployment) => Promise<unknown>,
    /** What is active on a task of the active profile now (the one activity rule for pausing). */
    private readonly activity: (taskId: number) => readonly Activity[],
    center: NotificationCenter,
  ) {
    this.flow = new IdlePauseFlow<IdleDeployment>(center, services.reportError, {
      activity: (task) => this.activity(task.taskId),
      pause: (task) => this.pause(task),
      recover: (task) => {
        const deployment = this.registry.get(task.taskId);
        return deployment ? this.recover(deployment) : Promise.resolve();
      },
      // Keep Running, or a pause held by activity: its idle time counts again from now.
      keep: (task) => {
        this.registry.idle.touch(task.taskId, this.registry.now());
        this.grace.forget(task.profileId, task.taskId);
      },
      warnText: (task) =>
        vscode.l10n.t(
          'The deployment "{0}" had no chat request for {1}: it pauses in {2}. Pausing keeps the task; Recover loads the model again.',
          task.taskName,
          counted(task.minutes, 'minute'),
          counted(Math.round(IDLE_GRACE_MS / 60_000), 'minute'),
        ),
      heldText: (task, active) => vscode.l10n.t('Did not pause the idle deployment "{0}": {1}.', task.taskName, active),
      pausedText: (task) =>
        vscode.l10n.t('Paused the deployment "{0}" after {1} without a chat request. Pausing keeps the task; Recover loads the model again.', task.taskName, counted(task.minutes, 'minute')),
      pauseDoing: (task) => vscode.l10n.t('Pause the idle deployment "{0}"', task.taskName),
    });
    this.item.name = vscode.l10n.t('Compute Toolkit Deployments');
    this.item.command = Commands.deploymentsSetIdlePause;
    this.timer = setInterval(() => {
      if (this.held === 0) void this.check();
    }, CHECK_EVERY_MS);
    this.subscriptions.push(registry.onDidChange(() => this.render()));
    this.render();
  }

  /** What the status bar item shows ('' while hidden). */
  get text(): string {
    return this.shown ? this.item.text : '';
  }

  private shown = false;
  private held = 0;

  /**
   * For the in-host tests, which move the registry's clock and call check() themselves: the timer's own
   * checks are skipped until the returned disposable is disposed, so none pauses what a test asserts on.
   */
  holdTimer(): vscode.Disposable {
    this.held++;
    let released = false;
    return new vscode.Disposable(() => {
      if (!released) this.held--;
      released = true;
    });
  }

  /** Pauses every deployment that is due now (also run by the timer). */
  check(): Promise<void> {
    this.checking ??= this.pauseDue().finally(() => {
      this.checking = undefined;
      this.render();
    });
    return this.checking;
  }

  /** What the idle pause did this session: warned, kept, held, paused (the in-host tests read it). */
  get events(): readonly IdlePauseStep[] {
    return this.flow.events;
  }

  private async pauseDue(): Promise<void> {
    const profileId = this.services.profiles.active?.id;
    if (profileId === undefined) return;
    const now = this.registry.now();
    const idle = this.registry
      .list()
      .filter((deployment) => deployment.state === 'ready')
      .flatMap((deployment): IdleDeployment[] => {
        const minutes = this.registry.idleMinutes(deployment.taskId);
        const since = this.registry.idle.lastRequestAt(deployment.taskId);
        if (minutes === undefined || since === undefined || !this.registry.idle.due([{ taskId: deployment.taskId, minutes }], now).length) return [];
        return [{ profileId, taskId: deployment.taskId, taskName: deployment.taskName, idleSince: since, minutes }];
      });
    await this.flow.act(this.grace.step(idle, now));
  }

  private async pause(task: IdleDeployment): Promise<void> {
    await this.compute.pauseTask(task.taskId);
    this.registry.markPaused(task.taskId);
    this.paused.push({ taskId: task.taskId, taskName: task.taskName, minutes: task.minutes });
    this.services.logger.info(`Deployments: paused task ${task.taskId} after ${task.minutes} idle minute(s).`);
    void this.registry.refresh(this.compute.listedTasks()).catch(() => undefined);
  }

  /** Recover from the idle-pause notice: the task runs again, and its readiness is followed anew. */
  async recover(deployment: Deployment): Promise<void> {
    await this.compute.recoverTask(deployment.taskId);
    this.recovered.push(deployment.taskId);
    await this.refollow(deployment);
  }

  private render(): void {
    const now = this.registry.now();
    const running = this.registry.list().filter((deployment) => deployment.state === 'ready');
    if (running.length === 0 || !this.services.profiles.active) {
      this.item.hide();
      this.shown = false;
      return;
    }
    let yuanPerHour = 0;
    const lines: string[] = [];
    let longestIdle = 0;
    for (const deployment of running) {
      const rate = deployment.pointsPerSecond !== undefined ? deploymentYuanPerHour(deployment.pointsPerSecond, deployment.nodes) : undefined;
      yuanPerHour += rate ?? 0;
      const last = this.registry.idle.lastRequestAt(deployment.taskId);
      const idleMinutes = last === undefined ? 0 : Math.max(0, Math.floor((now - last) / 60_000));
      longestIdle = Math.max(longestIdle, idleMinutes);
      const setting = this.registry.idleMinutes(deployment.taskId);
      lines.push(
        vscode.l10n.t(
          '"{0}": {1}, idle {2}; {3}',
          deployment.taskName,
          rate !== undefined ? formatYuanPerHour(rate) : vscode.l10n.t('price unknown'),
          durationText(idleMinutes * 60, { precision: 'minute' }),
          setting !== undefined ? vscode.l10n.t('pauses after idle for {0}', counted(setting, 'minute')) : vscode.l10n.t('idle pause off'),
        ),
      );
    }
    this.item.text = `$(server-process) ${vscode.l10n.t('{0} {1} · idle {2}', counted(running.length, 'model'), formatYuanPerHour(yuanPerHour), durationText(longestIdle * 60, { precision: 'minute' }))}`;
    this.item.tooltip = [vscode.l10n.t('Your deployments bill while they run, answering or idle.'), ...lines, vscode.l10n.t('Click to set idle pause.')].join('\n');
    this.item.show();
    this.shown = true;
  }

  dispose(): void {
    clearInterval(this.timer);
    this.item.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
