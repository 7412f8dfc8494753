// The notebook kernels' one status-bar item and Restart/interrupt, for task and machine kernels alike
// (docs/notebooks.md): each controller lends a source that says how the active notebook's kernel runs
// (where, its price as the platform gives it, the time left, its state) and which kernel it is; the item
// shows the active notebook's, Restart and interrupt act only on the source VS Code has selected for the
// notebook, and a controller VS Code deselects lets its binding go (core/notebooks/notebookBindings.ts).

import * as vscode from 'vscode';
import type { KernelLink, KernelState, RemoteKernel } from '../../core/notebooks/remoteKernel';
import { KernelSelection } from '../../core/notebooks/notebookBindings';
import { Views } from '../commandIds';

/** What the status bar shows of one notebook's kernel. */
export interface KernelStatus {
  /** The task's name or the machine's label. */
  where: string;
  /** "¥2.50/h", "¥12.00 per Hour pack"; undefined when unknown. */
  price: string | undefined;
  /** The rental's time left in words, when the kernel's place has an end. */
  left: string | undefined;
  state: string;
}

/** A kind of Compute kernel (a controller): the notebooks it holds. */
export interface KernelSource {
  status(notebook: vscode.NotebookDocument): KernelStatus | undefined;
  /** The notebook's kernel once started (undefined: not bound here, or nothing started yet). */
  kernel(notebook: vscode.NotebookDocument): Promise<RemoteKernel> | undefined;
  /** Reads what the status shows again from where it is kept (a store, never a request), before a redraw. */
  reread?(): Promise<void>;
  /** VS Code deselected the controller for the notebook: its connection ends, the kernel keeps running. */
  release(notebook: vscode.NotebookDocument): void;
}

/** How a binding's kernel is doing, in words (a drop after the link was up once is a reconnect). */
export function kernelStateWord(binding: { state: KernelState | 'connecting'; link: KernelLink | undefined; linkedOnce: boolean }): string {
  const { state, link } = binding;
  if (link === 'connecting' && binding.linkedOnce) return vscode.l10n.t('reconnecting');
  if (link === 'disconnected') return vscode.l10n.t('disconnected');
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

/** The item is redrawn this often while shown: a time left moves (read from the store's rental window, no request). */
const LEFT_REDRAW_MS = 30_000;

export class NotebookKernels implements vscode.Disposable {
  private readonly sources: KernelSource[] = [];
  private readonly selection = new KernelSelection<KernelSource>();
  private readonly byController = new Map<vscode.NotebookController, KernelSource>();
  private readonly item = vscode.window.createStatusBarItem(Views.notebookStatusBar, vscode.StatusBarAlignment.Right, 90);
  private readonly disposables: vscode.Disposable[] = [];
  private ticker: ReturnType<typeof setInterval> | undefined;
  private disposed = false;

  constructor() {
    this.item.name = vscode.l10n.t('Compute Toolkit kernel');
    this.disposables.push(
      this.item,
      vscode.window.onDidChangeActiveNotebookEditor(() => this.show()),
      vscode.workspace.onDidCloseNotebookDocument((notebook) => this.selection.forget(notebook.uri.toString())),
    );
  }

  /** `controller`'s notebooks, as `source` holds them; VS Code's selection of `controller` decides when they count. */
  add(controller: vscode.NotebookController, source: KernelSource): vscode.Disposable {
    this.sources.push(source);
    this.byController.set(controller, source);
    return controller.onDidChangeSelectedNotebooks(({ notebook, selected }) => {
      this.selection.change(notebook.uri.toString(), source, selected);
      if (!selected) source.release(notebook);
      this.show();
    });
  }

  /** Draws the active notebook's kernel (or hides the item); the controllers call it on every change. */
  show(): void {
    if (this.disposed) return;
    const notebook = vscode.window.activeNotebookEditor?.notebook;
    const status = notebook ? this.statusOf(notebook) : undefined;
    this.tick(status !== undefined);
    if (!status) {
      this.item.hide();
      return;
    }
    const parts = [status.where, status.price, status.left === undefined ? undefined : vscode.l10n.t('{0} left', status.left), status.state].filter((part) => part !== undefined);
    this.item.text = `$(server-process) ${parts.join(' · ')}`;
    this.item.tooltip = vscode.l10n.t('Compute Toolkit kernel on {0} ({1})', status.where, status.state);
    this.item.show();
  }

  /** Whether VS Code has `controller` selected for `notebook` now (as far as its events said). */
  isSelected(notebook: vscode.NotebookDocument, controller: vscode.NotebookController): boolean {
    const source = this.selection.of(notebook.uri.toString());
    return source !== undefined && source === this.byController.get(controller);
  }

  statusText(): string {
    return this.item.text;
  }

  /** Restart Notebook Kernel: the same kernel, its variables cleared; false when the notebook has none started. */
  async restart(notebook: vscode.NotebookDocument): Promise<boolean> {
    const kernel = await this.kernelOf(notebook)?.catch(() => undefined);
    if (!kernel) {
      void vscode.window.showInformationMessage(vscode.l10n.t('This notebook has no Compute Toolkit kernel running: run a cell first.'));
      return false;
    }
    await kernel.restart();
    return true;
  }

  async interrupt(notebook: vscode.NotebookDocument): Promise<void> {
    await (await this.kernelOf(notebook)?.catch(() => undefined))?.interrupt();
  }

  dispose(): void {
    this.disposed = true;
    this.tick(false);
    for (const disposable of this.disposables) disposable.dispose();
  }

  private statusOf(notebook: vscode.NotebookDocument): KernelStatus | undefined {
    return this.selection.of(notebook.uri.toString())?.status(notebook);
  }

  private kernelOf(notebook: vscode.NotebookDocument): Promise<RemoteKernel> | undefined {
    return this.selection.of(notebook.uri.toString())?.kernel(notebook);
  }

  private async redraw(): Promise<void> {
    await Promise.all(this.sources.map((source) => source.reread?.().catch(() => undefined)));
    this.show();
  }

  private tick(on: boolean): void {
    if (on) this.ticker ??= setInterval(() => void this.redraw(), LEFT_REDRAW_MS);
    else if (this.ticker !== undefined) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }
}
