// The Compute Toolkit kernel in VS Code's own notebook editor (`jupyter-notebook`, the built-in .ipynb
// support): listed as "Compute Toolkit" in the kernel picker; the first run asks which running Jupyter task
// to use (and its token once, kept in SecretStorage). Cells run on the task's kernel through the kernel
// client (src/core/notebooks, loaded on first run): streamed outputs drawn at most every DRAW_MS, rich
// outputs by VS Code's renderers, interrupt, restart, execution order and time. docs/notebooks.md.

import * as vscode from 'vscode';
import { Refusal } from '../errors/refusal';
import { taskServiceOf } from '../client/computeServices';
import type { CellOutputs } from '../../core/notebooks/cellOutputs';
import type { JupyterServer } from '../../core/notebooks/connection';
import type { KernelState, RemoteKernel } from '../../core/notebooks/remoteKernel';
import type { TaskSummary } from '../../core/tasks/operations';
import { formatYuanPerHour, pointsPerSecondToYuanPerHour } from '../../core/spend/units';
import { Views } from '../commandIds';
import type { ExtensionServices } from '../services';
import { isJupyterTask, jupyterUrlOf, JupyterTokens } from './jupyterTasks';
import { kernelCore } from './kernelCore';
import { problemText } from './kernelWords';
import { notebookOutputs } from './outputItems';

export const NOTEBOOK_TYPE = 'jupyter-notebook';
/** Streamed output is redrawn at most this often, so 100,000 lines never block the editor. */
const DRAW_MS = 100;
/** The product's name, the same in every language (the kernel picker's label). */
// eslint-disable-next-line no-restricted-syntax -- the product name, not translated
const PRODUCT = 'Compute Toolkit';

export interface NotebookTasks {
  /** Active tasks as the store last listed them (polls now). */
  refreshTasks(): Promise<readonly TaskSummary[]>;
  /** Price per node in points per second, when known. */
  priceOfTask(task: TaskSummary): Promise<number | undefined>;
}

interface Binding {
  profileId: string;
  taskId: number;
  taskName: string;
  yuanPerHour: number | undefined;
  server: JupyterServer;
  kernel: Promise<RemoteKernel> | undefined;
  state: KernelState | 'connecting';
}

function stateWord(state: KernelState | 'connecting'): string {
  switch (state) {
    case 'idle':
      return vscode.l10n.t('idle');
    case 'busy':
      return vscode.l10n.t('busy');
    case 'dead':
      return vscode.l10n.t('stopped');
    case 'starting':
    case 'restarting':
    case 'autorestarting':
      return vscode.l10n.t('starting');
    default:
      return vscode.l10n.t('connecting');
  }
}

export class ComputeKernelController implements vscode.Disposable {
  readonly controller: vscode.NotebookController;
  private readonly bindings = new Map<string, Binding>();
  private readonly queues = new Map<string, Promise<void>>();
  private readonly tokens: JupyterTokens;
  private readonly statusBar: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  /** Test hook: answers the task pick and the token prompt without UI. */
  pickTaskHook: ((tasks: readonly TaskSummary[]) => Promise<TaskSummary | undefined>) | undefined;

  constructor(
    private readonly services: ExtensionServices,
    private readonly tasks: NotebookTasks,
  ) {
    this.tokens = new JupyterTokens(services.context.secrets);
    this.controller = vscode.notebooks.createNotebookController(Views.notebookKernel, NOTEBOOK_TYPE, PRODUCT);
    this.controller.description = vscode.l10n.t('A kernel on a running Jupyter task');
    this.controller.supportedLanguages = ['python'];
    this.controller.supportsExecutionOrder = true;
    this.controller.executeHandler = (cells, notebook) => this.enqueue(notebook, cells);
    this.controller.interruptHandler = (notebook) => this.interrupt(notebook);
    this.statusBar = vscode.window.createStatusBarItem(Views.notebookStatusBar, vscode.StatusBarAlignment.Right, 90);
    this.statusBar.name = vscode.l10n.t('Compute Toolkit kernel');
    this.disposables.push(
      this.controller,
      this.statusBar,
      vscode.window.onDidChangeActiveNotebookEditor(() => this.showStatus()),
      this.controller.onDidChangeSelectedNotebooks(() => this.showStatus()),
      vscode.workspace.onDidCloseNotebookDocument((notebook) => this.release(notebook)),
    );
  }

  /** The task a notebook runs on (pick it now when `taskId` is given: tests and the Pick Task command). */
  async bind(notebook: vscode.NotebookDocument, taskId?: number): Promise<boolean> {
    const profile = await this.services.requireProfile();
    if (!profile) return false;
    const running = (await this.tasks.refreshTasks()).filter((task) => task.status === 'Running' && isJupyterTask(task));
    const task = taskId !== undefined ? running.find((candidate) => candidate.task_id === taskId) : await this.pickTask(running);
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
      state: 'connecting',
    });
    this.showStatus();
    return true;
  }

  /** The kernel of a notebook, started on first use. */
  async kernelOf(notebook: vscode.NotebookDocument): Promise<RemoteKernel | undefined> {
    const key = notebook.uri.toString();
    if (!this.bindings.has(key) && !(await this.bind(notebook))) return undefined;
    const binding = this.bindings.get(key);
    if (!binding) return undefined;
    binding.kernel ??= kernelCore().RemoteKernel.start(binding.server, {
      onState: (state) => {
        binding.state = state;
        this.showStatus();
      },
    });
    binding.kernel.catch(() => {
      // A failed start is tried again on the next run.
      if (this.bindings.get(key) === binding) binding.kernel = undefined;
    });
    return binding.kernel;
  }

  async restart(notebook: vscode.NotebookDocument): Promise<void> {
    const kernel = await this.bindings.get(notebook.uri.toString())?.kernel;
    await kernel?.restart();
  }

  boundTask(notebook: vscode.NotebookDocument): number | undefined {
    return this.bindings.get(notebook.uri.toString())?.taskId;
  }

  statusText(): string {
    return this.statusBar.text;
  }

  dispose(): void {
    for (const binding of this.bindings.values()) void binding.kernel?.then((kernel) => kernel.dispose(), () => undefined);
    this.bindings.clear();
    for (const disposable of this.disposables) disposable.dispose();
  }

  private async pickTask(running: readonly TaskSummary[]): Promise<TaskSummary | undefined> {
    if (this.pickTaskHook) return this.pickTaskHook(running);
    if (running.length === 0) return undefined;
    const items = await Promise.all(
      running.map(async (task) => {
        const price = await this.tasks.priceOfTask(task).catch(() => undefined);
        const device = task.resources[0]?.resource.device_name ?? '';
        return { label: task.task_name, description: price !== undefined ? formatYuanPerHour(pointsPerSecondToYuanPerHour(price) * Math.max(1, task.points)) : '', detail: device, task };
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
    const execution = this.controller.createNotebookCellExecution(cell);
    execution.start(Date.now());
    await execution.clearOutput();
    let kernel: RemoteKernel | undefined;
    try {
      kernel = await this.kernelOf(notebook);
    } catch (error) {
      await execution.replaceOutput(this.problemOutput(error));
      execution.end(false, Date.now());
      return;
    }
    if (!kernel) {
      execution.end(undefined);
      return;
    }
    const running = kernel;
    const cancel = execution.token.onCancellationRequested(() => void running.interrupt().catch((error: unknown) => this.services.logger.warn(`Notebook interrupt: ${error instanceof Error ? error.message : String(error)}`)));
    const outputs: CellOutputs = new (kernelCore().CellOutputs)();
    let drawn = -1;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const draw = async (): Promise<void> => {
      timer = undefined;
      if (outputs.version === drawn) return;
      drawn = outputs.version;
      await execution.replaceOutput(notebookOutputs(outputs.view()));
    };
    try {
      const outcome = await kernel.execute(cell.document.getText(), outputs, () => {
        timer ??= setTimeout(() => void draw(), DRAW_MS);
      });
      if (timer !== undefined) clearTimeout(timer);
      await draw();
      execution.executionOrder = outcome.executionCount ?? undefined;
      execution.end(outcome.status === 'ok', Date.now());
    } catch (error) {
      if (timer !== undefined) clearTimeout(timer);
      await execution.replaceOutput([...notebookOutputs(outputs.view()), ...this.problemOutput(error)]);
      execution.end(false, Date.now());
    } finally {
      cancel.dispose();
    }
  }

  private problemOutput(error: unknown): vscode.NotebookCellOutput[] {
    const core = kernelCore();
    const message = error instanceof core.JupyterConnectionError ? problemText(error.problem, error.status) : error instanceof Error ? error.message : String(error);
    this.services.logger.warn(`Notebook kernel: ${error instanceof Error ? error.message : String(error)}`);
    return [new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.error({ name: PRODUCT, message })])];
  }

  private async interrupt(notebook: vscode.NotebookDocument): Promise<void> {
    const kernel = await this.bindings.get(notebook.uri.toString())?.kernel?.catch(() => undefined);
    await kernel?.interrupt();
  }

  private release(notebook: vscode.NotebookDocument): void {
    const key = notebook.uri.toString();
    const binding = this.bindings.get(key);
    if (!binding) return;
    this.bindings.delete(key);
    // The kernel keeps running on the task (its variables survive a closed editor); only the connection ends.
    void binding.kernel?.then((kernel) => kernel.dispose(), () => undefined);
    this.showStatus();
  }

  private showStatus(): void {
    const notebook = vscode.window.activeNotebookEditor?.notebook;
    const binding = notebook ? this.bindings.get(notebook.uri.toString()) : undefined;
    if (!binding) {
      this.statusBar.hide();
      return;
    }
    const rate = binding.yuanPerHour !== undefined ? ` · ${formatYuanPerHour(binding.yuanPerHour)}` : '';
    const state = stateWord(binding.state);
    this.statusBar.text = `$(server-process) ${binding.taskName}${rate} · ${state}`;
    this.statusBar.tooltip = vscode.l10n.t('Compute Toolkit kernel on task "{0}" ({1})', binding.taskName, state);
    this.statusBar.show();
  }
}
