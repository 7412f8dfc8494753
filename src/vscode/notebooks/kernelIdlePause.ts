// Opt-in idle pause of Jupyter kernel tasks (docs/notebooks.md, "Idle pause";
// `computeToolkit.notebooks.idlePauseMinutes`, off by default): the kernels' states feed the idle clock
// (core/notebooks/kernelIdle.ts); a task idle for the set minutes is warned with Keep Running first, and
// paused a grace period later only if nothing ran meanwhile and the one activity rule (core/spend/activity.ts)
// finds nothing active on it. Pausing keeps the task and its volume and offers Recover.

import * as vscode from 'vscode';
import { KernelIdleClock, IDLE_GRACE_MS, type IdleTask } from '../../core/notebooks/kernelIdle';
import { decidePause, type ActivityRegistry } from '../../core/spend/activity';
import { taskServiceOf } from '../client/computeServices';
import type { ExtensionServices } from '../services';
import { counted } from '../ui/counts';
import { activitiesText } from '../ui/activityText';
import type { ComputeKernelController } from './kernelController';

const CHECK_EVERY_MS = 30_000;

export interface KernelIdleEvent {
  taskId: number;
  action: 'warned' | 'held' | 'paused';
}

export class KernelIdlePause implements vscode.Disposable {
  private readonly idle = new KernelIdleClock();
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** What the idle pause did this session (the in-host tests read it). */
  readonly events: KernelIdleEvent[] = [];
  /** Swappable clock: the tests move time instead of waiting minutes. */
  now: () => number = () => Date.now();

  constructor(
    private readonly services: ExtensionServices,
    private readonly kernels: ComputeKernelController,
    private readonly activity: Pick<ActivityRegistry, 'of'>,
    /** Pauses the task (the task service by default). */
    private readonly pauseTask: (taskId: number) => Promise<void> = (taskId) => taskServiceOf(services).lifecycle('pause', taskId),
  ) {
    this.subscriptions.push(kernels.onDidChangeKernel((change) => this.seen(change.notebook, change.state === 'busy')));
    this.subscriptions.push(vscode.workspace.onDidCloseNotebookDocument((notebook) => this.idle.drop(notebook.uri.toString())));
    this.timer = setInterval(() => void this.check(), CHECK_EVERY_MS);
  }

  private seen(uri: vscode.Uri, busy: boolean): void {
    const notebook = vscode.workspace.notebookDocuments.find((document) => document.uri.toString() === uri.toString());
    const taskId = notebook ? this.kernels.boundTask(notebook) : undefined;
    const profileId = this.services.profiles.active?.id;
    if (taskId === undefined || profileId === undefined) {
      this.idle.drop(uri.toString());
      return;
    }
    const taskName = uri.path.split('/').pop() ?? uri.toString();
    this.idle.seen({ notebook: uri.toString(), profileId, taskId, taskName, busy }, this.now());
  }

  /** One look (also the timer's): warn what became idle, pause what stayed idle after its warning. */
  async check(): Promise<void> {
    const idleMs = this.services.config.notebookIdlePauseMs;
    if (idleMs === 0) return;
    const step = this.idle.step(idleMs, this.now());
    for (const task of step.warn) this.warn(task, idleMs);
    for (const task of step.pause) await this.pause(task);
  }

  private warn(task: IdleTask, idleMs: number): void {
    this.events.push({ taskId: task.taskId, action: 'warned' });
    const keep = vscode.l10n.t('Keep Running');
    const pauseNow = vscode.l10n.t('Pause Now');
    void vscode.window
      .showWarningMessage(
        vscode.l10n.t('The kernel of "{0}" ran no cell for {1}: its task {2} pauses in {3}. Pausing keeps the task and its volume; the kernel\'s variables are lost.', task.taskName, counted(Math.round(idleMs / 60_000), 'minute'), task.taskId, counted(Math.round(IDLE_GRACE_MS / 60_000), 'minute')),
        keep,
        pauseNow,
      )
      .then((picked) => {
        if (picked === keep) this.idle.keep(task.profileId, task.taskId, this.now());
        if (picked === pauseNow) return this.pause(task);
        return undefined;
      })
      .then(undefined, (error: unknown) => this.services.reportError(error, vscode.l10n.t('Pause task {0}', task.taskId)));
  }

  private async pause(task: IdleTask): Promise<void> {
    if (task.profileId !== this.services.profiles.active?.id) return;
    const decision = decidePause('idle', this.activity.of(task.profileId, task.taskId));
    if (decision.action === 'hold') {
      this.events.push({ taskId: task.taskId, action: 'held' });
      this.idle.keep(task.profileId, task.taskId, this.now());
      void vscode.window.showInformationMessage(vscode.l10n.t('Did not pause task {0} of "{1}": {2}.', task.taskId, task.taskName, activitiesText(decision.active)));
      return;
    }
    await this.pauseTask(task.taskId);
    this.idle.forgetTask(task.profileId, task.taskId);
    this.events.push({ taskId: task.taskId, action: 'paused' });
    this.services.logger.info(`Notebooks: paused task ${task.taskId} after its kernel ran no cell.`);
    const recover = vscode.l10n.t('Recover');
    void vscode.window
      .showInformationMessage(vscode.l10n.t('Paused task {0} of "{1}": its kernel ran no cell. It is not billed while paused.', task.taskId, task.taskName), recover)
      .then((picked) => (picked === recover ? taskServiceOf(this.services).lifecycle('recover', task.taskId) : undefined))
      .then(undefined, (error: unknown) => this.services.reportError(error, vscode.l10n.t('Recover task {0}', task.taskId)));
  }

  dispose(): void {
    clearInterval(this.timer);
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
