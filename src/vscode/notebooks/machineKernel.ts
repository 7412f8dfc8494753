// "Jupyter on a Machine…" in the kernel picker (docs/notebooks.md, "A kernel on a machine"): a Serving rented
// machine picked (GPU and time left), connected as Connect… does (host key pinned, key installed once), a
// Jupyter server started there on a free 127.0.0.1 port with a token made here and kept in SecretStorage
// (core/notebooks/machineJupyter.ts), reached through a tunnel that outlives its SSH connection, and cells
// run on it as on a task's kernel (cellExecution.ts). Which notebook used which machine, server and kernel is
// remembered without secrets, so a dropped connection or an editor restart attaches again while the server
// runs. Shut Down stops the server; a rental that ends says so and fails the running cell.

import * as vscode from 'vscode';
import type { MachineJupyter, MachineJupyterError, MachineTunnel } from '../../core/notebooks/index';
import type { KernelLink, KernelState, RemoteKernel } from '../../core/notebooks/remoteKernel';
import { newJupyterToken } from '../../core/notebooks/jupyterLaunch';
import { forgetMachineKernel, rememberMachineKernel, type MachineKernelRecord } from '../../core/notebooks/machineKernelRecords';
import type { Activity, ActivityRegistry } from '../../core/spend/activity';
import type { SshConnection } from '../../core/ssh/sshConnection';
import { sleep } from '../../core/http/retry';
import { SecretKeys, Views } from '../commandIds';
import { Refusal } from '../errors/refusal';
import type { ExtensionServices } from '../services';
import { MultiStepInput } from '../ui/multiStepInput';
import { executeCell, PRODUCT } from './cellExecution';
import { busyKernels, kernelOfBinding } from './bindingKernel';
import { NotebookBindings } from '../../core/notebooks/notebookBindings';
import { kernelCore } from './kernelCore';
import { NOTEBOOK_TYPE } from './kernelController';
import { kernelStateWord, type KernelStatus, type NotebookKernels } from './kernelStatus';

/** A Serving machine as the picker shows it (the machine connections area's run port gives these). */
export interface KernelMachine {
  deviceId: number;
  label: string;
  timeLeft(): string | undefined;
  /** The rental's price as the platform gives it ("¥12.00 per Hour pack"); undefined when not a price. */
  price: string | undefined;
}

/** What the machine connections area lends the kernel (src/vscode/machines/connect, its run port). */
export interface MachineKernelPort {
  /** The active profile's Serving machines as the one store holds them (`fresh`: polled now). */
  serving(fresh: boolean): Promise<readonly KernelMachine[]>;
  /** A key is on the machine (Connect… runs the first time); false when the user backed out. */
  ready(deviceId: number): Promise<boolean>;
  /** A key-only connection (never asks). */
  connect(deviceId: number, signal: AbortSignal): Promise<SshConnection>;
}

/** Where the server starts: the home, or an absolute folder on the machine. */
export interface MachinePick {
  deviceId: number;
  folder?: string;
}

interface Binding {
  profileId: string;
  deviceId: number;
  label: string;
  /** The machine as the store last held it (the status bar's price and time left). */
  machine: KernelMachine | undefined;
  server: MachineJupyter;
  token: string;
  tunnel: MachineTunnel;
  kernel: Promise<RemoteKernel> | undefined;
  kernelId: string | undefined;
  state: KernelState | 'connecting';
  link: KernelLink | undefined;
  /** The link was up once: a later 'connecting' is a reconnect. */
  linkedOnce: boolean;
  ended: boolean;
  /** The server answered once (before, a failed forward is a server still starting, not a rental ending). */
  answered: boolean;
}

/** How many times a starting server is looked at (every MACHINE_READY_PAUSE_MS) before giving up: about two minutes. */
const READY_LOOKS = 240;

const tokenKey = (profileId: string, deviceId: number, remotePort: number): string => `${SecretKeys.jupyterTokenPrefix}.${profileId}.machine.${deviceId}.${remotePort}`;

export class MachineKernelController implements vscode.Disposable {
  readonly controller: vscode.NotebookController;
  /** Released when VS Code deselects the controller for a notebook (kernelStatus.ts): the tunnel closes, the server and kernel keep running. */
  private readonly bindings = new NotebookBindings<Binding>((binding) => {
    binding.tunnel.close();
    this.kernels.show();
  });
  private readonly queues = new Map<string, Promise<void>>();
  /** A bind under way per notebook: the picker's selection and a first run share it. */
  private readonly pending = new Map<string, Promise<boolean>>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly changes = new vscode.EventEmitter<{ notebook: vscode.Uri; state: KernelState | 'connecting'; link: KernelLink | undefined }>();
  readonly onDidChangeKernel = this.changes.event;
  /** Test hook: answers the machine and folder pick without UI. */
  pickMachineHook: ((machines: readonly KernelMachine[]) => Promise<MachinePick | undefined>) | undefined;

  constructor(
    private readonly services: ExtensionServices,
    private readonly machines: () => MachineKernelPort | undefined,
    activity: Pick<ActivityRegistry, 'add'>,
    /** The kernels' one status-bar item, Restart and interrupt (kernelStatus.ts). */
    private readonly kernels: NotebookKernels,
  ) {
    this.controller = vscode.notebooks.createNotebookController(Views.notebookMachineKernel, NOTEBOOK_TYPE, vscode.l10n.t('Jupyter on a Machine…'));
    this.controller.description = vscode.l10n.t('{0}: a Jupyter server on a rented machine, over SSH', PRODUCT);
    this.controller.supportedLanguages = ['python'];
    this.controller.supportsExecutionOrder = true;
    this.controller.executeHandler = (cells, notebook) => this.enqueue(notebook, cells);
    this.controller.interruptHandler = (notebook) => kernels.interrupt(notebook);
    this.disposables.push(
      this.controller,
      kernels.add(this.controller, { status: (notebook) => this.status(notebook), kernel: (notebook) => this.bindings.get(notebook.uri.toString())?.kernel, reread: () => this.reread(), release: (notebook) => this.deselected(notebook) }),
      this.changes,
      this.controller.onDidChangeSelectedNotebooks(({ notebook, selected }) => {
        if (selected) void this.bindOnce(notebook).catch((error: unknown) => this.services.reportError(error, vscode.l10n.t('Start Jupyter on a machine')));
      }),
      vscode.workspace.onDidCloseNotebookDocument((notebook) => this.release(notebook.uri.toString())),
      { dispose: activity.add(() => this.activities()) },
    );
  }

  /**
   * The machine a notebook runs on: its remembered server while it still runs, else a Serving machine
   * picked (or `pick`), connected, and a new server started there. True when bound.
   */
  async bind(notebook: vscode.NotebookDocument, pick?: MachinePick): Promise<boolean> {
    const profile = await this.services.requireProfile();
    if (!profile) return false;
    const port = this.port();
    const key = notebook.uri.toString();
    const record = pick ? undefined : this.services.state.get('machineKernels').find((candidate) => candidate.notebook === key && candidate.profileId === profile.id);
    if (record && (await this.attach(notebook, record))) return true;
    const machines = await port.serving(true);
    const chosen = pick ?? (await this.pickMachine(machines));
    if (!chosen) return false;
    const machine = machines.find((candidate) => candidate.deviceId === chosen.deviceId);
    const label = machine?.label ?? vscode.l10n.t('Machine {0}', chosen.deviceId);
    if (!(await port.ready(chosen.deviceId))) return false;
    const token = newJupyterToken();
    const core = kernelCore();
    const server = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Starting Jupyter on {0}…', label) }, async () => {
      const ssh = await port.connect(chosen.deviceId, new AbortController().signal);
      try {
        return await core.startMachineJupyter(ssh, token, chosen.folder);
      } catch (error) {
        throw this.worded(error, label);
      } finally {
        ssh.close();
      }
    });
    await this.services.context.secrets.store(tokenKey(profile.id, chosen.deviceId, server.remotePort), token);
    this.services.logger.info(`Notebook kernel: started Jupyter on machine ${chosen.deviceId} (port ${server.remotePort}).`);
    const binding = await this.connect(notebook, { profileId: profile.id, deviceId: chosen.deviceId, label, machine, server, token, kernelId: undefined });
    await this.ready(binding);
    return true;
  }

  /** The kernel of a notebook, started (or attached to) on first use. */
  async kernelOf(notebook: vscode.NotebookDocument): Promise<RemoteKernel | undefined> {
    const key = notebook.uri.toString();
    if (!(await this.bindOnce(notebook))) return undefined;
    const binding = this.bindings.get(key);
    if (!binding) return undefined;
    if (binding.ended) throw this.endedRefusal(binding);
    return kernelOfBinding(binding, () => this.bindings.get(key) === binding, () => this.open(notebook, binding));
  }

  /** The notebook's binding, or the bind already under way, or a new one. */
  private bindOnce(notebook: vscode.NotebookDocument): Promise<boolean> {
    const key = notebook.uri.toString();
    if (this.bindings.has(key)) return Promise.resolve(true);
    let pending = this.pending.get(key);
    if (!pending) {
      pending = this.bind(notebook).finally(() => this.pending.delete(key));
      this.pending.set(key, pending);
    }
    return pending;
  }

  /** Shut Down: the kernel and the machine's Jupyter server stop; the notebook forgets them. */
  async shutDown(notebook: vscode.NotebookDocument): Promise<boolean> {
    const key = notebook.uri.toString();
    const binding = this.bindings.get(key);
    if (!binding) {
      void vscode.window.showInformationMessage(vscode.l10n.t('This notebook runs on no machine\'s Jupyter server.'));
      return false;
    }
    this.bindings.take(key);
    this.kernels.show();
    (await binding.kernel?.catch(() => undefined))?.dispose();
    try {
      const ssh = await binding.tunnel.ssh();
      await kernelCore().stopMachineJupyter(ssh, binding.server);
    } finally {
      binding.tunnel.close();
      await this.forget(key, binding);
    }
    void vscode.window.showInformationMessage(vscode.l10n.t('The Jupyter server on {0} is shut down.', binding.label));
    return true;
  }

  /** Which machine and server a notebook uses (tests). */
  boundMachine(notebook: vscode.NotebookDocument): { deviceId: number; remotePort: number; pid: number; localPort: number; kernelId: string | undefined } | undefined {
    const binding = this.bindings.get(notebook.uri.toString());
    return binding && { deviceId: binding.deviceId, remotePort: binding.server.remotePort, pid: binding.server.pid, localPort: binding.tunnel.localPort, kernelId: binding.kernelId };
  }

  /** Drops a notebook's SSH connection as a network cut does (tests). */
  async dropConnection(notebook: vscode.NotebookDocument): Promise<void> {
    await this.bindings.get(notebook.uri.toString())?.tunnel.drop();
  }

  /** Kernels running a cell now: activity on their machine (core/spend/activity.ts). */
  activities(): Activity[] {
    return busyKernels(this.bindings.entries(), (binding) => ({ deviceId: binding.deviceId }));
  }

  /** Ends every connection, leaving the servers and kernels running (as closing the editor does). */
  detachAll(): void {
    this.bindings.releaseAll();
  }

  dispose(): void {
    this.detachAll();
    for (const disposable of this.disposables) disposable.dispose();
  }

  private port(): MachineKernelPort {
    const port = this.machines();
    if (!port) throw new Refusal(vscode.l10n.t('Machine connections are not available in this window.'));
    return port;
  }

  /** The remembered server, when it still runs and its token is kept. */
  private async attach(notebook: vscode.NotebookDocument, record: MachineKernelRecord): Promise<boolean> {
    const token = await this.services.context.secrets.get(tokenKey(record.profileId, record.deviceId, record.remotePort));
    const serving = (await this.port().serving(true)).find((machine) => machine.deviceId === record.deviceId);
    const server = { remotePort: record.remotePort, pid: record.pid };
    if (token === undefined || !serving) {
      await this.services.state.update('machineKernels', forgetMachineKernel(this.services.state.get('machineKernels'), record.notebook));
      return false;
    }
    const binding = await this.connect(notebook, { profileId: record.profileId, deviceId: record.deviceId, label: serving.label, machine: serving, server, token, kernelId: record.kernelId });
    try {
      await this.ready(binding, 1);
      return true;
    } catch (error) {
      this.services.logger.info(`Notebook kernel: the remembered Jupyter server on machine ${record.deviceId} does not answer (${error instanceof Error ? error.message : String(error)}); starting a new one.`);
      this.release(notebook.uri.toString());
      await this.forget(notebook.uri.toString(), binding);
      return false;
    }
  }

  private async connect(notebook: vscode.NotebookDocument, fields: Pick<Binding, 'profileId' | 'deviceId' | 'label' | 'machine' | 'server' | 'token' | 'kernelId'>): Promise<Binding> {
    const key = notebook.uri.toString();
    this.release(key);
    const port = this.port();
    // The tunnel is made for the binding and tells it when the machine cannot be reached.
    const partial: Omit<Binding, 'tunnel'> = { ...fields, kernel: undefined, state: 'connecting', link: undefined, linkedOnce: false, ended: false, answered: false };
    const tunnel = await kernelCore().MachineTunnel.open({
      connect: (signal) => port.connect(fields.deviceId, signal),
      remotePort: fields.server.remotePort,
      onTrouble: () => void this.checkRental(key, binding),
    });
    const binding: Binding = Object.assign(partial, { tunnel });
    this.bindings.set(key, binding);
    this.kernels.show();
    return binding;
  }

  /** Waits until the server answers through the tunnel; a server that exited is a clear failure. */
  private async ready(binding: Binding, looks = READY_LOOKS): Promise<void> {
    const core = kernelCore();
    try {
      await core.untilMachineJupyterAnswers({ baseUrl: binding.tunnel.baseUrl, token: binding.token }, () => binding.tunnel.ssh(), binding.server, { looks, pause: (signal) => sleep(core.MACHINE_READY_PAUSE_MS, signal) });
      binding.answered = true;
    } catch (error) {
      throw this.worded(error, binding.label);
    }
  }

  private async open(notebook: vscode.NotebookDocument, binding: Binding): Promise<RemoteKernel> {
    const core = kernelCore();
    const server = { baseUrl: binding.tunnel.baseUrl, token: binding.token };
    const events = {
      onState: (state: KernelState) => this.changed(notebook, binding, { state }),
      onLink: (link: KernelLink) => this.changed(notebook, binding, { link }),
    };
    let kernel: RemoteKernel | undefined;
    if (binding.kernelId !== undefined) {
      try {
        kernel = await core.RemoteKernel.connect(server, binding.kernelId, events);
      } catch (error) {
        if (!(error instanceof core.JupyterConnectionError && error.problem === 'kernel-dead')) throw error;
        void vscode.window.showInformationMessage(vscode.l10n.t('The kernel this notebook used on {0} is gone; a new one was started (earlier variables are not there).', binding.label));
      }
    }
    kernel ??= await core.RemoteKernel.start(server, events);
    binding.kernelId = kernel.id;
    if (!notebook.isUntitled) {
      const record: MachineKernelRecord = { notebook: notebook.uri.toString(), profileId: binding.profileId, deviceId: binding.deviceId, remotePort: binding.server.remotePort, pid: binding.server.pid, kernelId: kernel.id, at: Date.now() };
      await this.services.state.update('machineKernels', rememberMachineKernel(this.services.state.get('machineKernels'), record));
    }
    return kernel;
  }

  /** A connect through the tunnel failed: when the rental has ended, say so once and end the kernel here. */
  private async checkRental(key: string, binding: Binding): Promise<void> {
    if (binding.ended || !binding.answered) return;
    const serving = await this.port()
      .serving(true)
      .then((machines) => machines.some((machine) => machine.deviceId === binding.deviceId))
      .catch(() => true);
    if (serving || binding.ended) return;
    binding.ended = true;
    // Disposing the connection ends a running cell (aborted) instead of leaving it waiting.
    (await binding.kernel?.catch(() => undefined))?.dispose();
    binding.tunnel.close();
    this.kernels.show();
    await this.forget(key, binding);
    this.services.refusals.show(this.endedRefusal(binding).message, []);
  }

  private endedRefusal(binding: Binding): Refusal {
    return new Refusal(vscode.l10n.t('The rental of {0} has ended: its Jupyter server and kernel are gone. Pick another kernel to go on.', binding.label), [], 'warning');
  }

  private async forget(key: string, binding: Pick<Binding, 'profileId' | 'deviceId' | 'server'>): Promise<void> {
    await this.services.state.update('machineKernels', forgetMachineKernel(this.services.state.get('machineKernels'), key));
    await this.services.context.secrets.delete(tokenKey(binding.profileId, binding.deviceId, binding.server.remotePort));
  }

  private worded(error: unknown, label: string): unknown {
    if (!(error instanceof kernelCore().MachineJupyterError)) return error;
    const problem = error as MachineJupyterError;
    switch (problem.problem) {
      case 'missing':
        return new Refusal(vscode.l10n.t('{0} has no Jupyter server to start (missing: {1}). Install it on the machine, e.g. `pip install jupyter-server ipykernel` (or `apt install jupyter-server python3-ipykernel`), then pick the machine again.', label, problem.detail), [], 'warning');
      case 'folder':
        return new Refusal(vscode.l10n.t('The folder for Jupyter on {0} must be an absolute path on the machine that exists (no ".."): {1}', label, problem.detail.slice(0, 200)), [], 'warning');
      case 'start':
        return new Refusal(vscode.l10n.t('The Jupyter server on {0} did not start. The end of its log: {1}', label, problem.detail.slice(-600)));
    }
  }

  private async pickMachine(machines: readonly KernelMachine[]): Promise<MachinePick | undefined> {
    if (this.pickMachineHook) return this.pickMachineHook(machines);
    if (machines.length === 0) throw new Refusal(vscode.l10n.t('No rented machine is Serving. Rent one in the Machines view, then pick "Jupyter on a Machine…" again.'), [], 'warning');
    type MachineItem = vscode.QuickPickItem & { machine: KernelMachine };
    const items: MachineItem[] = machines.map((machine) => ({ label: machine.label, description: machine.timeLeft() !== undefined ? vscode.l10n.t('{0} left', machine.timeLeft() ?? '') : '', machine }));
    const home = { label: vscode.l10n.t('Home folder'), description: '~', other: false };
    const other = { label: vscode.l10n.t('Another folder…'), description: '', other: true };
    let picked: MachineItem | undefined;
    let folder: string | undefined;
    const askFolder = async (input: MultiStepInput): Promise<void> => {
      const title = vscode.l10n.t('Working folder of the kernel on {0}', picked?.label ?? '');
      const where = await input.showQuickPick({ title, step: 2, items: [home, other], placeholder: title, activeItem: home });
      if (!where.other) {
        folder = undefined;
        return;
      }
      folder = (
        await input.showInputBox({
          title,
          step: 3,
          value: '',
          prompt: vscode.l10n.t('An absolute folder on the machine, e.g. /data/project'),
          validate: (text) => (/^\/[^\0\r\n]*$/.test(text.trim()) && !text.split('/').includes('..') ? undefined : vscode.l10n.t('An absolute path, without ".."')),
        })
      ).trim();
    };
    const finished = await MultiStepInput.run(async (input) => {
      picked = await input.showQuickPick({ title: vscode.l10n.t('Jupyter on a Machine'), step: 1, items, placeholder: vscode.l10n.t('A Serving rented machine (its GPU and the rental\'s time left)') });
      return askFolder;
    });
    if (!finished || !picked) return undefined;
    return folder === undefined ? { deviceId: picked.machine.deviceId } : { deviceId: picked.machine.deviceId, folder };
  }

  private changed(notebook: vscode.NotebookDocument, binding: Binding, change: { state?: KernelState; link?: KernelLink }): void {
    if (change.state !== undefined) binding.state = change.state;
    if (change.link !== undefined) binding.link = change.link;
    if (change.link === 'connected') binding.linkedOnce = true;
    if (this.bindings.get(notebook.uri.toString()) === binding) this.kernels.show();
    this.changes.fire({ notebook: notebook.uri, state: binding.state, link: binding.link });
  }

  private enqueue(notebook: vscode.NotebookDocument, cells: readonly vscode.NotebookCell[]): Promise<void> {
    const key = notebook.uri.toString();
    const next = (this.queues.get(key) ?? Promise.resolve()).then(async () => {
      for (const cell of cells) await executeCell(this.controller, cell, () => this.kernelOf(notebook), this.services.logger);
    });
    this.queues.set(key, next.catch(() => undefined));
    return next;
  }

  /** The server and kernel keep running on the machine; only this editor's connection ends. */
  private release(key: string): void {
    this.bindings.release(key);
  }

  /** Another kernel was picked for the notebook: its binding goes, also one a start under way makes later. */
  private deselected(notebook: vscode.NotebookDocument): void {
    const key = notebook.uri.toString();
    this.release(key);
    void this.pending.get(key)?.then(
      () => {
        if (!this.kernels.isSelected(notebook, this.controller)) this.release(key);
      },
      () => undefined,
    );
  }

  /** The status bar's view of a notebook's machine kernel: the machine, its rental's price and time left, the kernel's state. */
  private status(notebook: vscode.NotebookDocument): KernelStatus | undefined {
    const binding = this.bindings.get(notebook.uri.toString());
    if (!binding) return undefined;
    const state = binding.ended ? vscode.l10n.t('rental ended') : kernelStateWord(binding);
    return { where: binding.label, price: binding.machine?.price, left: binding.ended ? undefined : binding.machine?.timeLeft(), state };
  }

  /** Reads the bound machines again from the one store (no request): a renewal moves the time left. */
  private async reread(): Promise<void> {
    if (this.bindings.size === 0) return;
    const machines = await this.port().serving(false);
    for (const binding of this.bindings.values()) binding.machine = machines.find((machine) => machine.deviceId === binding.deviceId) ?? binding.machine;
  }
}
