// The Compute Toolkit kernel in VS Code's own notebook editor (`jupyter-notebook`, the built-in .ipynb
// support): listed as "Compute Toolkit" in the kernel picker; the first run asks which running Jupyter task
// to use (and, for a task the extension did not create, its token once, kept in SecretStorage). Cells run on
// the task's kernel through the kernel client (src/core/notebooks, loaded on first run): streamed outputs
// drawn at most every DRAW_MS (cellExecution.ts), rich outputs by VS Code's renderers, interrupt, restart, execution order and
// time. Which notebook used which task and kernel is remembered (no secrets), so a notebook reopened after
// an editor restart attaches to its still-running kernel; a dropped connection is shown while the library
// reconnects. docs/notebooks.md.

import * as vscode from 'vscode';
import { Refusal } from '../errors/refusal';
import { taskServiceOf } from '../client/computeServices';
import type { CellOutputs } from '../../core/notebooks/cellOutputs';
import type { JupyterServer } from '../../core/notebooks/connection';
import type { KernelLink, KernelState, RemoteKernel } from '../../core/notebooks/remoteKernel';
import { forgetKernel, kernelRecordOf, rememberKernel } from '../../core/notebooks/kernelRecords';
import type { Activity, ActivityRegistry } from '../../core/spend/activity';
import type { TaskSummary } from '../../core/tasks/operations';
import { formatYuanPerHour, pointsPerSecondToYuanPerHour } from '../../core/spend/units';
import { Commands, Views } from '../commandIds';
import type { ExtensionServices } from '../services';
import { JupyterTokens } from '../jupyterTokens';
import { isJupyterTask, jupyterUrlOf } from './jupyterTasks';
import { busyKernels, kernelOfBinding } from './bindingKernel';
import { NotebookBindings } from '../../core/notebooks/notebookBindings';
import { kernelCore } from './kernelCore';
import { planNewKernel, type NewKernelHooks } from './newGpuKernel';
import type { StartTookPort } from '../../core/preheat/preheatFollow';
import { missingFileOffer, showMissingFileOffer, volumeOfTask, type MissingFileOffer } from './volumeOffers';
import { abortSignalFor } from '../ui/cancellation';
import { jupyterTaskItem } from './jupyterTaskPick';
import { sleep } from '../../core/http/retry';
import { executeCell, PRODUCT } from './cellExecution';
import { kernelStateWord, type KernelStatus, type NotebookKernels } from './kernelStatus';

export const NOTEBOOK_TYPE = 'jupyter-notebook';
/** How often New GPU Kernel looks whether its task runs and has its URL. */
const START_POLL_MS = 3_000;

export interface NotebookTasks {
  /** Active tasks as the store last listed them (polls now). */
  refreshTasks(): Promise<readonly TaskSummary[]>;
  /** Price per node in points per second, when known. */
  priceOfTask(task: TaskSummary): Promise<number | undefined>;
  /** The one activity rule for pausing: a kernel running a cell keeps its task from pausing by itself. */
  readonly activity: Pick<ActivityRegistry, 'add'>;
}

interface Binding {
  profileId: string;
  taskId: number;
  taskName: string;
  yuanPerHour: number | undefined;
  server: JupyterServer;
  kernel: Promise<RemoteKernel> | undefined;
  /** The NAS volume the task mounts as the kernel's working folder. */
  storageId: number | undefined;
  /** The kernel to attach to (remembered from an earlier session), then the one in use. */
  kernelId: string | undefined;
  state: KernelState | 'connecting';
  link: KernelLink | undefined;
  /** The link was up once: a later 'connecting' is a reconnect. */
  linkedOnce: boolean;
}

/** What the kernel of a notebook is doing and how it is reached (tests wait for these). */
export interface KernelChange {
  notebook: vscode.Uri;
  state: KernelState | 'connecting';
  link: KernelLink | undefined;
}

/** Only saved notebooks are remembered: an untitled URI is reused by another notebook in the next session. */
function remembered(notebook: vscode.NotebookDocument): boolean {
  return !notebook.isUntitled;
}

export class ComputeKernelController implements vscode.Disposable {
  readonly controller: vscode.NotebookController;
  /** The kernel picker's "New GPU Kernel…": choosing it starts that flow, then selects `controller`. */
  readonly starter: vscode.NotebookController;
  /** Released when VS Code deselects the controller for a notebook (kernelStatus.ts). */
  private readonly bindings = new NotebookBindings<Binding>(() => this.showStatus());
  private readonly queues = new Map<string, Promise<void>>();
  private readonly tokens: JupyterTokens;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly changes = new vscode.EventEmitter<KernelChange>();
  /** Every change of a notebook kernel's state or connection. */
  readonly onDidChangeKernel = this.changes.event;
  /** Upload offers made this session (the in-host tests read them). */
  readonly missingFileOffers: MissingFileOffer[] = [];
  /** Test hook: answers the task pick and the token prompt without UI. */
  pickTaskHook: ((tasks: readonly TaskSummary[]) => Promise<TaskSummary | undefined>) | undefined;

  constructor(
    private readonly services: ExtensionServices,
    private readonly tasks: NotebookTasks,
    private readonly hooks: NewKernelHooks,
    /** The kernels' one status-bar item, Restart and interrupt (kernelStatus.ts). */
    private readonly kernels: NotebookKernels,
    /** Told how long a new kernel took to start (the preheat offer). */
    private readonly startTook: StartTookPort = () => undefined,
  ) {
    this.tokens = new JupyterTokens(services.context.secrets);
    this.controller = vscode.notebooks.createNotebookController(Views.notebookKernel, NOTEBOOK_TYPE, PRODUCT);
    this.controller.description = vscode.l10n.t('A kernel on a running Jupyter task');
    this.controller.supportedLanguages = ['python'];
    this.controller.supportsExecutionOrder = true;
    this.controller.executeHandler = (cells, notebook) => this.enqueue(notebook, cells);
    this.controller.interruptHandler = (notebook) => kernels.interrupt(notebook);
    this.starter = vscode.notebooks.createNotebookController(Views.notebookNewKernel, NOTEBOOK_TYPE, vscode.l10n.t('New GPU Kernel…'));
    this.starter.description = vscode.l10n.t('{0}: a GPU, a Jupyter image and a NAS volume, priced before it starts', PRODUCT);
    this.starter.supportedLanguages = ['python'];
    this.starter.executeHandler = (_cells, notebook) => this.startFromPicker(notebook);
    this.disposables.push(
      this.controller,
      kernels.add(this.controller, { status: (notebook) => this.status(notebook), kernel: (notebook) => this.bindings.get(notebook.uri.toString())?.kernel, release: (notebook) => this.release(notebook) }),
      this.starter,
      this.starter.onDidChangeSelectedNotebooks(({ notebook, selected }) => {
        if (selected) void this.startFromPicker(notebook);
      }),
      this.changes,
      vscode.workspace.onDidCloseNotebookDocument((notebook) => this.release(notebook)),
      { dispose: tasks.activity.add(() => this.activities()) },
    );
  }

  /** The task a notebook runs on (pick it now when `taskId` is given: tests and the Pick Task command). */
  async bind(notebook: vscode.NotebookDocument, taskId?: number): Promise<boolean> {
    const profile = await this.services.requireProfile();
    if (!profile) return false;
    const running = (await this.tasks.refreshTasks()).filter((task) => task.status === 'Running' && isJupyterTask(task));
    const record = remembered(notebook) ? kernelRecordOf(this.services.state.get('notebookKernels'), notebook.uri.toString(), profile.id) : undefined;
    const wanted = taskId ?? record?.taskId;
    let task = wanted !== undefined ? running.find((candidate) => candidate.task_id === wanted) : undefined;
    // The remembered task no longer runs (paused, stopped): its kernel is gone with it.
    if (record && task?.task_id !== record.taskId) await this.forget(notebook);
    if (!task && taskId === undefined) task = await this.pickTask(running);
    if (!task) {
      if (taskId !== undefined || running.length === 0) void vscode.window.showInformationMessage(vscode.l10n.t('No running Jupyter task. Create one with "Create Task…" and its JupyterLab template, then run the cell again.'));
      return false;
    }
    const detail = await taskServiceOf(this.services).detail(task.task_id);
    const url = jupyterUrlOf(detail);
    if (!url) throw new Refusal(vscode.l10n.t('Task "{0}" has no public URL for Jupyter yet.', task.task_name));
    const token = (await this.tokens.get(profile.id, task.task_id)) ?? (await this.askToken(profile.id, task));
    if (token === undefined) return false;
    const price = await this.tasks.priceOfTask(task).catch(() => undefined);
    this.release(notebook);
    this.bindings.set(notebook.uri.toString(), {
      profileId: profile.id,
      taskId: task.task_id,
      taskName: task.task_name,
      yuanPerHour: price !== undefined ? pointsPerSecondToYuanPerHour(price) * Math.max(1, task.points) : undefined,
      server: { baseUrl: url, token },
      kernel: undefined,
      kernelId: record?.taskId === task.task_id ? record.kernelId : undefined,
      storageId: volumeOfTask(detail),
      state: 'connecting',
      link: undefined,
      linkedOnce: false,
    });
    this.showStatus();
    return true;
  }

  /**
   * New GPU Kernel…: asks GPU, image, volume and the go-ahead, creates the Jupyter task with a token the
   * extension made, waits until it runs with its URL, and runs the notebook on it. The task id, or undefined.
   */
  async newKernel(notebook: vscode.NotebookDocument): Promise<number | undefined> {
    const profile = await this.services.requireProfile();
    if (!profile) return undefined;
    const plan = await planNewKernel(this.services, this.hooks, this.tokens, profile.label);
    if (!plan) return undefined;
    const started = Date.now();
    const taskId = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Starting a GPU kernel…'), cancellable: true }, async (progress, token) => {
      const signal = abortSignalFor(token);
      const created = await taskServiceOf(this.services).create(plan.body, { signal });
      await plan.keep(profile.id, created);
      this.services.logger.info(`New GPU Kernel: created task ${created} "${plan.body.task_name}".`);
      progress.report({ message: vscode.l10n.t('task "{0}" created; waiting for it to run (cancelling leaves it running)', plan.body.task_name) });
      await this.untilJupyterUrl(created, signal);
      return created;
    });
    this.startTook({ what: vscode.l10n.t('The GPU kernel of {0}', notebook.uri.path.split('/').pop() ?? ''), image: plan.image, region: plan.region, ms: Date.now() - started });
    if (!(await this.bind(notebook, taskId))) return undefined;
    await vscode.commands.executeCommand('notebook.selectKernel', { notebookEditor: vscode.window.visibleNotebookEditors.find((editor) => editor.notebook === notebook), id: this.controller.id, extension: this.services.context.extension.id });
    return taskId;
  }

  private async startFromPicker(notebook: vscode.NotebookDocument): Promise<void> {
    try {
      await this.newKernel(notebook);
    } catch (error) {
      this.services.reportError(error, vscode.l10n.t('Start a new GPU kernel'));
    }
  }

  private async untilJupyterUrl(taskId: number, signal: AbortSignal): Promise<void> {
    for (;;) {
      const task = (await this.tasks.refreshTasks()).find((candidate) => candidate.task_id === taskId);
      if (task?.status === 'End' || task?.status === 'Paused') throw new Refusal(vscode.l10n.t('Task "{0}" stopped before its Jupyter server started.', task.task_name));
      if (task?.status === 'Running' && jupyterUrlOf(await taskServiceOf(this.services).detail(taskId, signal)) !== null) return;
      await sleep(START_POLL_MS, signal);
    }
  }

  /** The kernel of a notebook, started on first use. */
  async kernelOf(notebook: vscode.NotebookDocument): Promise<RemoteKernel | undefined> {
    const key = notebook.uri.toString();
    if (!this.bindings.has(key) && !(await this.bind(notebook))) return undefined;
    const binding = this.bindings.get(key);
    if (!binding) return undefined;
    return kernelOfBinding(binding, () => this.bindings.get(key) === binding, () => this.open(notebook, binding));
  }

  /** Restart Notebook Kernel, for whichever Compute kernel the notebook runs on (kernelStatus.ts). */
  async restart(notebook: vscode.NotebookDocument): Promise<void> {
    await this.kernels.restart(notebook);
  }

  boundTask(notebook: vscode.NotebookDocument): number | undefined {
    return this.bindings.get(notebook.uri.toString())?.taskId;
  }

  /** Open Volume in Explorer: the volume the notebook's task mounts as its working folder. */
  async openVolume(notebook: vscode.NotebookDocument): Promise<void> {
    const storageId = this.bindings.get(notebook.uri.toString())?.storageId;
    if (storageId === undefined) {
      void vscode.window.showInformationMessage(vscode.l10n.t('This notebook\'s task mounts no NAS volume: its files are inside the container only. New GPU Kernel… mounts one.'));
      return;
    }
    await vscode.commands.executeCommand(Commands.nasOpenInExplorer, storageId);
  }

  /** The volume a notebook's task mounts, if bound. */
  volumeOf(notebook: vscode.NotebookDocument): number | undefined {
    return this.bindings.get(notebook.uri.toString())?.storageId;
  }

  /** The id of the kernel a notebook uses (or will attach to). */
  kernelIdOf(notebook: vscode.NotebookDocument): string | undefined {
    return this.bindings.get(notebook.uri.toString())?.kernelId;
  }

  /** Kernels running a cell now (core/spend/activity.ts): their tasks do not pause by a timer or idle pause. */
  activities(): Activity[] {
    return busyKernels(this.bindings.entries(), (binding) => ({ taskId: binding.taskId }));
  }

  /** Ends every connection and forgets the bindings, leaving the kernels running (as closing the editor does). */
  detachAll(): void {
    this.bindings.releaseAll();
    this.showStatus();
  }

  statusText(): string {
    return this.kernels.statusText();
  }

  dispose(): void {
    this.detachAll();
    for (const disposable of this.disposables) disposable.dispose();
  }

  /** Attaches to the remembered kernel while it still runs, else starts one; remembers which. */
  private async open(notebook: vscode.NotebookDocument, binding: Binding): Promise<RemoteKernel> {
    const core = kernelCore();
    const events = {
      onState: (state: KernelState) => this.changed(notebook, binding, { state }),
      onLink: (link: KernelLink) => this.changed(notebook, binding, { link }),
    };
    let kernel: RemoteKernel | undefined;
    if (binding.kernelId !== undefined) {
      try {
        kernel = await core.RemoteKernel.connect(binding.server, binding.kernelId, events);
      } catch (error) {
        if (!(error instanceof core.JupyterConnectionError && error.problem === 'kernel-dead')) throw error;
        void vscode.window.showInformationMessage(vscode.l10n.t('The kernel this notebook used on "{0}" is gone; a new one was started (earlier variables are not there).', binding.taskName));
      }
    }
    kernel ??= await core.RemoteKernel.start(binding.server, events);
    binding.kernelId = kernel.id;
    if (remembered(notebook)) {
      const record = { notebook: notebook.uri.toString(), profileId: binding.profileId, taskId: binding.taskId, kernelId: kernel.id, at: Date.now() };
      await this.services.state.update('notebookKernels', rememberKernel(this.services.state.get('notebookKernels'), record));
    }
    return kernel;
  }

  private changed(notebook: vscode.NotebookDocument, binding: Binding, change: { state?: KernelState; link?: KernelLink }): void {
    if (change.state !== undefined) binding.state = change.state;
    if (change.link !== undefined) binding.link = change.link;
    if (change.link === 'connected') binding.linkedOnce = true;
    if (this.bindings.get(notebook.uri.toString()) === binding) this.showStatus();
    this.changes.fire({ notebook: notebook.uri, state: binding.state, link: binding.link });
  }

  private async forget(notebook: vscode.NotebookDocument): Promise<void> {
    await this.services.state.update('notebookKernels', forgetKernel(this.services.state.get('notebookKernels'), notebook.uri.toString()));
  }

  private async pickTask(running: readonly TaskSummary[]): Promise<TaskSummary | undefined> {
    if (this.pickTaskHook) return this.pickTaskHook(running);
    if (running.length === 0) return undefined;
    const items = await Promise.all(
      running.map(async (task) => {
        const price = await this.tasks.priceOfTask(task).catch(() => undefined);
        return jupyterTaskItem(task, price);
      }),
    );
    const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Run this notebook on which Jupyter task?'), placeHolder: vscode.l10n.t('Running tasks with a Jupyter port') });
    return picked?.task;
  }

  private async askToken(profileId: string, task: TaskSummary): Promise<string | undefined> {
    const token = await vscode.window.showInputBox({
      title: vscode.l10n.t('Jupyter token of "{0}"', task.task_name),
      prompt: vscode.l10n.t('The token the task\'s Jupyter server was started with (JUPYTER_TOKEN, or the one in its node log). Kept in VS Code\'s secret storage.'),
      password: true,
      ignoreFocusOut: true,
      validateInput: (text) => (text.trim() === '' ? vscode.l10n.t('Enter the token.') : undefined),
    });
    if (token === undefined) return undefined;
    await this.tokens.set(profileId, task.task_id, token.trim());
    return token.trim();
  }

  private enqueue(notebook: vscode.NotebookDocument, cells: readonly vscode.NotebookCell[]): Promise<void> {
    const key = notebook.uri.toString();
    const next = (this.queues.get(key) ?? Promise.resolve()).then(async () => {
      for (const cell of cells) await this.runCell(notebook, cell);
    });
    const settled = next.catch(() => undefined);
    this.queues.set(key, settled);
    return next;
  }

  private async runCell(notebook: vscode.NotebookDocument, cell: vscode.NotebookCell): Promise<void> {
    const failed = await executeCell(this.controller, cell, () => this.kernelOf(notebook), this.services.logger);
    if (failed) void this.offerUpload(notebook, failed);
  }

  /** A cell could not read a relative file: offer to upload it to the volume (never blocks the queue). */
  private async offerUpload(notebook: vscode.NotebookDocument, outputs: CellOutputs): Promise<void> {
    try {
      const offer = await missingFileOffer(notebook, outputs.view(), this.bindings.get(notebook.uri.toString())?.storageId);
      if (!offer) return;
      this.missingFileOffers.push(offer);
      await showMissingFileOffer(offer);
    } catch (error) {
      this.services.reportError(error, vscode.l10n.t('Upload to volume'));
    }
  }

  /** The kernel keeps running on the task (its variables survive a closed editor); only the connection ends. */
  private release(notebook: vscode.NotebookDocument): void {
    this.bindings.release(notebook.uri.toString());
  }

  private showStatus(): void {
    this.kernels.show();
  }

  private status(notebook: vscode.NotebookDocument): KernelStatus | undefined {
    const binding = this.bindings.get(notebook.uri.toString());
    if (!binding) return undefined;
    return { where: binding.taskName, price: binding.yuanPerHour !== undefined ? formatYuanPerHour(binding.yuanPerHour) : undefined, left: undefined, state: kernelStateWord(binding) };
  }
}
