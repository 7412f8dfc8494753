// Opt-in idle pause of Jupyter kernel tasks (docs/notebooks.md, "Idle pause";
// `computeToolkit.notebooks.idlePauseMinutes`, off by default): the kernels' states feed the idle clock
// (core/notebooks/kernelIdle.ts); a task idle for the set minutes is warned with Keep Running first, and
// paused a grace period later only if nothing ran meanwhile and the one activity rule finds nothing active
// on it (the one idle pause's notices: ui/idlePauseFlow.ts). Pausing keeps the task and its volume and
// offers Recover.

import * as vscode from 'vscode';
import { KernelIdleClock, IDLE_GRACE_MS, type IdleTask } from '../../core/notebooks/kernelIdle';
import type { ActivityRegistry } from '../../core/spend/activity';
import { taskServiceOf } from '../client/computeServices';
import type { ExtensionServices } from '../services';
import { counted } from '../ui/counts';
import { IdlePauseFlow, type IdlePauseStep } from '../ui/idlePauseFlow';
import type { NotificationCenter } from '../ui/notificationCenter';
import type { ComputeKernelController } from './kernelController';

const CHECK_EVERY_MS = 30_000;

export type KernelIdleEvent = IdlePauseStep;

export class KernelIdlePause implements vscode.Disposable {
  private readonly idle = new KernelIdleClock();
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly flow: IdlePauseFlow<IdleTask>;
  /** Swappable clock: the tests move time instead of waiting minutes. */
  now: () => number = () => Date.now();

  constructor(
    private readonly services: ExtensionServices,
    private readonly kernels: ComputeKernelController,
    activity: Pick<ActivityRegistry, 'of'>,
    center: NotificationCenter,
    /** Pauses the task (the task service by default). */
    pauseTask: (taskId: number) => Promise<void> = (taskId) => taskServiceOf(services).lifecycle('pause', taskId),
  ) {
    this.flow = new IdlePauseFlow<IdleTask>(center, services.reportError, {
      activity: (task) => activity.of(task.profileId, task.taskId),
      pause: async (task) => {
        await pauseTask(task.taskId);
        this.idle.forgetTask(task.profileId, task.taskId);
        services.logger.info(`Notebooks: paused task ${task.taskId} after its kernel ran no cell.`);
      },
      recover: (task) => taskServiceOf(services).lifecycle('recover', task.taskId),
      keep: (task) => this.idle.keep(task.profileId, task.taskId, this.now()),
      warnText: (task) =>
        vscode.l10n.t(
          'The kernel of "{0}" ran no cell for {1}: its task {2} pauses in {3}. Pausing keeps the task and its volume; the kernel\'s variables are lost.',
          task.taskName,
          counted(Math.round(this.services.config.notebookIdlePauseMs / 60_000), 'minute'),
          task.taskId,
          counted(Math.round(IDLE_GRACE_MS / 60_000), 'minute'),
        ),
      heldText: (task, active) => vscode.l10n.t('Did not pause task {0} of "{1}": {2}.', task.taskId, task.taskName, active),
      pausedText: (task) => vscode.l10n.t('Paused task {0} of "{1}": its kernel ran no cell. It is not billed while paused.', task.taskId, task.taskName),
      pauseDoing: (task) => vscode.l10n.t('Pause task {0}', task.taskId),
    });
    this.subscriptions.push(kernels.onDidChangeKernel((change) => this.seen(change.notebook, change.state === 'busy')));
    this.subscriptions.push(vscode.workspace.onDidCloseNotebookDocument((notebook) => this.idle.drop(notebook.uri.toString())));
    this.timer = setInterval(() => void this.check(), CHECK_EVERY_MS);
  }

  /** What the idle pause did this session (the in-host tests read it). */
  get events(): readonly KernelIdleEvent[] {
    return this.flow.events;
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
    // Only the active profile's tasks: the task service pauses through its client.
    const mine = (task: IdleTask): boolean => task.profileId === this.services.profiles.active?.id;
    await this.flow.act({ warn: step.warn.filter(mine), pause: step.pause.filter(mine) });
  }

  dispose(): void {
    clearInterval(this.timer);
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
