// The local end of a machine's Jupyter server (docs/notebooks.md, "A kernel on a machine"): a listener on
// 127.0.0.1 whose connections are carried to the server's port over SSH (direct-tcpip). Unlike a Forward
// Port… forward it outlives its SSH connection: after a drop, the next connection the kernel client opens
// (its own bounded reconnects) opens a new SSH connection, so the local address — and the kernel — stay the
// same. One SSH connection at a time; a failed connect is told to `onTrouble` and ends that socket only.

import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { SshConnection } from '../ssh/sshConnection';

export interface MachineTunnelOptions {
  /** A key-only connection to the machine (never asks the user). */
  connect: (signal: AbortSignal) => Promise<SshConnection>;
  remotePort: number;
  /** A connect or a forward failed (the rental ended, the machine is unreachable, nothing listens yet). */
  onTrouble?: (error: unknown) => void;
  /** The SSH connection dropped (a reconnect follows on the next use). */
  onDropped?: () => void;
}

export class MachineTunnel {
  private connection: Promise<SshConnection> | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly aborter = new AbortController();
  private closed = false;

  private constructor(
    private readonly server: Server,
    private readonly options: MachineTunnelOptions,
  ) {}

  /** Listens on a free local port (or `localPort`). */
  static async open(options: MachineTunnelOptions, localPort = 0): Promise<MachineTunnel> {
    const server = createServer();
    const tunnel = new MachineTunnel(server, options);
    server.on('connection', (socket) => tunnel.carry(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(localPort, '127.0.0.1', () => resolve());
    });
    return tunnel;
  }

  get localPort(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.localPort}/`;
  }

  /** The SSH connection now (opened when there is none); shared by every carried socket. */
  ssh(): Promise<SshConnection> {
    if (this.closed) return Promise.reject(new Error('tunnel closed'));
    if (!this.connection) {
      const opening = this.options.connect(this.aborter.signal).then((connection) => {
        if (this.closed) connection.close();
        connection.onClose(() => {
          if (this.connection === opening) this.connection = undefined;
          for (const socket of this.sockets) socket.destroy();
          if (!this.closed) this.options.onDropped?.();
        });
        return connection;
      });
      opening.catch(() => {
        if (this.connection === opening) this.connection = undefined;
      });
      this.connection = opening;
    }
    return this.connection;
  }

  /** Drops the SSH connection (as a network cut does); the tunnel stays. */
  async drop(): Promise<void> {
    const connection = await this.connection?.catch(() => undefined);
    connection?.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.aborter.abort();
    this.server.close();
    for (const socket of this.sockets) socket.destroy();
    void this.connection?.then((connection) => connection.close(), () => undefined);
    this.connection = undefined;
  }

  private carry(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.pause();
    this.ssh()
      .then((connection) => connection.forwardOut('127.0.0.1', this.options.remotePort))
      .then(
        (channel) => {
          if (socket.destroyed) return void channel.destroy();
          channel.on('error', () => socket.destroy());
          socket.pipe(channel).pipe(socket);
          socket.on('close', () => channel.destroy());
          channel.on('close', () => socket.destroy());
          socket.resume();
        },
        (error: unknown) => {
          socket.destroy();
          if (!this.closed) this.options.onTrouble?.(error);
        },
      );
  }
}
