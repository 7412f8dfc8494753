// One kernel on a Jupyter server, spoken to with Jupyter's own client (@jupyterlab/services): start or
// attach, execute with streamed, bounded outputs (./cellOutputs.ts), interrupt, restart, reconnect after a
// cut connection (the server keeps the kernel; the library reconnects by itself with backoff, reconnect()
// does it now), shut down. Loaded lazily by the editor (src/vscode/notebooks), never at activation.

import { KernelAPI, KernelConnection, type Kernel, type KernelMessage } from '@jupyterlab/services';
import { CellOutputs } from './cellOutputs';
import { checkJupyterServer, probeKernelWebSocket, serverSettings, shownAddress, type JupyterServer } from './connection';
import { JupyterConnectionError } from './errors';
import { lostReply, type LostReplyPorts } from './lostReply';

export type KernelState = KernelMessage.Status;
export type KernelLink = Kernel.ConnectionStatus;

export interface ExecuteOutcome {
  /** 'lost': the connection dropped while the cell ran and its end never arrived (lostReply.ts). */
  status: 'ok' | 'error' | 'aborted' | 'lost';
  executionCount: number | null;
}

export interface KernelEvents {
  /** idle / busy / starting / restarting / dead / unknown … */
  onState?: (state: KernelState) => void;
  /** connected / connecting / disconnected. */
  onLink?: (link: KernelLink) => void;
}

function problemOf(error: unknown, server: JupyterServer): JupyterConnectionError {
  if (error instanceof JupyterConnectionError) return error;
  const status = (error as { response?: { status?: unknown } } | undefined)?.response?.status;
  if (status === 401 || status === 403) return new JupyterConnectionError('wrong-token', `The Jupyter server at ${shownAddress(server.baseUrl)} refused the token (${status})`, status);
  if (status === 404) return new JupyterConnectionError('kernel-dead', `The kernel is gone from ${shownAddress(server.baseUrl)}`, status);
  const message = error instanceof Error ? error.message : String(error);
  return new JupyterConnectionError(typeof status === 'number' ? 'http' : 'unreachable', `${shownAddress(server.baseUrl)}: ${message.slice(0, 500)}`, typeof status === 'number' ? status : undefined);
}

export class RemoteKernel {
  private readonly connection: KernelConnection;

  private constructor(
    private readonly server: JupyterServer,
    model: Kernel.IModel,
    events: KernelEvents,
  ) {
    this.connection = new KernelConnection({ model, serverSettings: serverSettings(server), handleComms: false });
    this.connection.statusChanged.connect((_sender, state) => events.onState?.(state));
    this.connection.connectionStatusChanged.connect((_sender, link) => events.onLink?.(link));
  }

  /** Checks the server and token, starts a kernel, checks the WebSocket passes, waits until it answers. */
  static async start(server: JupyterServer, options: { kernelName?: string } & KernelEvents = {}): Promise<RemoteKernel> {
    await checkJupyterServer(server);
    let model: Kernel.IModel;
    try {
      model = await KernelAPI.startNew(options.kernelName ? { name: options.kernelName } : {}, serverSettings(server));
    } catch (error) {
      throw problemOf(error, server);
    }
    return RemoteKernel.attach(server, model, options, true);
  }

  /** Attaches to a kernel that still runs (after a dropped network or an editor restart). */
  static async connect(server: JupyterServer, kernelId: string, events: KernelEvents = {}): Promise<RemoteKernel> {
    await checkJupyterServer(server);
    let model: Kernel.IModel | undefined;
    try {
      model = await KernelAPI.getKernelModel(kernelId, serverSettings(server));
    } catch (error) {
      throw problemOf(error, server);
    }
    if (!model) throw new JupyterConnectionError('kernel-dead', `The kernel is gone from ${shownAddress(server.baseUrl)}`);
    return RemoteKernel.attach(server, model, events, false);
  }

  private static async attach(server: JupyterServer, model: Kernel.IModel, events: KernelEvents, owned: boolean): Promise<RemoteKernel> {
    try {
      await probeKernelWebSocket(server, model.id);
    } catch (error) {
      // A kernel we started but cannot talk to would run (and bill) for nothing.
      if (owned) await KernelAPI.shutdownKernel(model.id, serverSettings(server)).catch(() => undefined);
      throw error;
    }
    const kernel = new RemoteKernel(server, model, events);
    await kernel.ready();
    return kernel;
  }

  get id(): string {
    return this.connection.id;
  }

  get state(): KernelState {
    return this.connection.status;
  }

  get link(): KernelLink {
    return this.connection.connectionStatus;
  }

  /** Resolves when the kernel answers kernel_info; rejects when the connection gives up or the kernel dies. */
  async ready(): Promise<void> {
    const failed = new Promise<never>((_resolve, reject) => {
      const check = (): void => {
        if (this.connection.connectionStatus === 'disconnected') reject(new JupyterConnectionError('unreachable', `Lost the connection to the kernel at ${shownAddress(this.server.baseUrl)}`));
        if (this.connection.status === 'dead') reject(new JupyterConnectionError('kernel-dead', 'The kernel died'));
      };
      this.connection.connectionStatusChanged.connect(check);
      this.connection.statusChanged.connect(check);
      check();
    });
    failed.catch(() => undefined);
    await Promise.race([this.connection.info, failed]);
  }

  /**
   * Runs code; `onOutput` hears every change of the cell's outputs (read them with outputs.view(), at the
   * pace the view wants). Resolves with the reply's status and execution count.
   */
  async execute(code: string, outputs: CellOutputs, onOutput: () => void): Promise<ExecuteOutcome> {
    const future = this.connection.requestExecute({ code, stop_on_error: true, allow_stdin: false, store_history: true });
    let executionCount: number | null = null;
    future.onIOPub = (message) => {
      if (message.header.msg_type === 'execute_input') {
        const count = (message.content as { execution_count?: unknown }).execution_count;
        if (typeof count === 'number') executionCount = count;
      }
      if (outputs.add(message)) onOutput();
    };
    const heard = new AbortController();
    const lost = lostReply(this.lostReplyPorts(), heard.signal);
    try {
      const reply = await Promise.race([future.done, lost]);
      if (typeof reply === 'string') {
        future.dispose();
        return { status: 'lost', executionCount };
      }
      const content = reply.content as { status?: string; execution_count?: unknown };
      if (typeof content.execution_count === 'number') executionCount = content.execution_count;
      return { status: content.status === 'ok' ? 'ok' : content.status === 'error' ? 'error' : 'aborted', executionCount };
    } catch {
      // The future is disposed when the kernel restarts or dies mid-run.
      return { status: 'aborted', executionCount };
    } finally {
      heard.abort();
    }
  }

  /** What lostReply watches: this connection's link, the kernel's state over REST, a timer. */
  private lostReplyPorts(): LostReplyPorts {
    return {
      onLink: (listener) => {
        const slot = (_sender: unknown, link: KernelLink): void => listener(link);
        this.connection.connectionStatusChanged.connect(slot);
        return () => void this.connection.connectionStatusChanged.disconnect(slot);
      },
      executionState: async () => (await KernelAPI.getKernelModel(this.connection.id, serverSettings(this.server)))?.execution_state,
      wait: (ms, signal) =>
        new Promise((resolve) => {
          const timer = setTimeout(resolve, ms);
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve();
          }, { once: true });
        }),
    };
  }

  async interrupt(): Promise<void> {
    try {
      await this.connection.interrupt();
    } catch (error) {
      throw problemOf(error, this.server);
    }
  }

  async restart(): Promise<void> {
    try {
      await this.connection.restart();
    } catch (error) {
      throw problemOf(error, this.server);
    }
    await this.ready();
  }

  /** Reconnects the WebSocket now (the library's own retries back off up to a minute). */
  async reconnect(): Promise<void> {
    try {
      await this.connection.reconnect();
    } catch (error) {
      throw problemOf(error, this.server);
    }
  }

  /** Stops the kernel on the server. */
  async shutdown(): Promise<void> {
    try {
      await this.connection.shutdown();
    } catch (error) {
      throw problemOf(error, this.server);
    } finally {
      this.connection.dispose();
    }
  }

  /** Leaves the kernel running on the server (a later connect() finds it). */
  dispose(): void {
    this.connection.dispose();
  }
}
