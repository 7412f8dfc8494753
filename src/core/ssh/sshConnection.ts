// One SSH connection over ssh2 (a kept library; no protocol code here): log in with a password or a
// private key, verify the host key by the caller's policy before any credential is sent, and offer
// what the connection carries: SFTP, commands (exec), a shell with a pty, and port forwarding.
// Credentials are never part of an error or a log line.

import { Client, type BaseAgent, type ClientChannel, type SFTPWrapper } from 'ssh2';
import type { Duplex } from 'node:stream';
import { AbortedError, ComputeToolkitError } from '../errors';
import { SshAuthError, SshConnectionError } from './errors';
import { hostKeyFingerprint, trustFirstInProcess, type HostKeyPolicy } from './hostKeys';

export interface SshEndpoint {
  host: string;
  port: number;
  username: string;
  /** One of three: the password, a private key (OpenSSH or PEM text), or an SSH agent (core/ssh/agent.ts). */
  password?: string;
  agent?: BaseAgent;
  privateKey?: string;
  /** The private key's passphrase, when it has one (held in memory for the connect, never logged). */
  passphrase?: string;
}

/** How errors name the server and the login (NAS: "the volume", "SFTP"). */
export interface SshWords {
  place: string;
  protocol: string;
  /** The message of a refused login. */
  refused: string;
}

export interface SshOpenOptions {
  hostKeys?: HostKeyPolicy;
  words?: SshWords;
  signal?: AbortSignal;
  readyTimeoutMs?: number;
}

const DEFAULT_WORDS: SshWords = { place: 'the server', protocol: 'SSH', refused: 'The server refused the SSH login.' };
const CONNECT_TIMEOUT_MS = 20_000;
/** Output of one `exec` kept in memory at most (more is cut; the command keeps running). */
export const MAX_EXEC_OUTPUT = 1024 * 1024;

export interface PtyOptions {
  rows: number;
  cols: number;
  term?: string;
}

export interface ExecResult {
  code: number | null;
  signal: string | undefined;
  stdout: string;
  stderr: string;
}

export class SshConnection {
  private closedFlag = false;
  private readonly closeListeners = new Set<() => void>();

  private constructor(
    readonly client: Client,
    readonly words: SshWords,
  ) {
    const onClose = (): void => this.markClosed();
    client.on('close', onClose);
    client.on('end', onClose);
  }

  static open(endpoint: SshEndpoint, options: SshOpenOptions = {}): Promise<SshConnection> {
    const words = options.words ?? DEFAULT_WORDS;
    const signal = options.signal;
    const cancelled = `Connecting to ${words.place} was cancelled.`;
    if (signal?.aborted) return Promise.reject(new AbortedError(cancelled));
    const client = new Client();
    const address = `${endpoint.host}:${endpoint.port}`;
    const policy = options.hostKeys ?? trustFirstInProcess;
    return new Promise<SshConnection>((resolve, reject) => {
      let settled = false;
      const onAbort = (): void => fail(new AbortedError(cancelled));
      const fail = (error: unknown): void => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        client.end();
        const level = (error as { level?: unknown }).level;
        // The credentials are never part of the message: only what failed.
        if (error instanceof ComputeToolkitError) reject(error);
        else if (level === 'client-authentication') reject(new SshAuthError(words.refused, { cause: error }));
        else reject(new SshConnectionError(`Cannot connect to ${words.place} over ${words.protocol} at ${address} (${(error as Error).message?.slice(0, 120) ?? 'error'}).`, { cause: error }));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      client.on('error', fail);
      client.on('ready', () => {
        if (settled) {
          client.end();
          return;
        }
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        client.removeListener('error', fail);
        client.on('error', () => undefined);
        resolve(new SshConnection(client, words));
      });
      client.connect({
        host: endpoint.host,
        port: endpoint.port,
        username: endpoint.username,
        ...(endpoint.agent !== undefined ? { agent: endpoint.agent } : endpoint.privateKey !== undefined ? { privateKey: endpoint.privateKey, ...(endpoint.passphrase !== undefined ? { passphrase: endpoint.passphrase } : {}) } : { password: endpoint.password }),
        tryKeyboard: false,
        readyTimeout: options.readyTimeoutMs ?? CONNECT_TIMEOUT_MS,
        keepaliveInterval: 15_000,
        hostVerifier: (key: Buffer) => {
          const refused = policy(address, { blob: key, fingerprint: hostKeyFingerprint(key) });
          if (refused) fail(refused);
          return refused === undefined;
        },
      });
    });
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  onClose(listener: () => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  close(): void {
    this.client.end();
    this.markClosed();
  }

  private markClosed(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    for (const listener of [...this.closeListeners]) listener();
  }

  private lost(action: string): SshConnectionError {
    return new SshConnectionError(`${action}: the connection to ${this.words.place} is closed.`);
  }

  /** The SFTP subsystem on this connection. */
  sftp(): Promise<SFTPWrapper> {
    if (this.closedFlag) return Promise.reject(this.lost('SFTP'));
    return new Promise((resolve, reject) => this.client.sftp((error, sftp) => (error ? reject(new SshConnectionError(`SFTP: ${error.message.slice(0, 120)}`, { cause: error })) : resolve(sftp))));
  }

  /** A command's channel (stdout on the channel, stderr on `.stderr`); with `pty`, one is allocated. */
  execChannel(command: string, pty?: PtyOptions): Promise<ClientChannel> {
    if (this.closedFlag) return Promise.reject(this.lost('Run'));
    const options = pty ? { pty: { rows: pty.rows, cols: pty.cols, term: pty.term ?? 'xterm-256color' } } : {};
    return new Promise((resolve, reject) => this.client.exec(command, options, (error, channel) => (error ? reject(new SshConnectionError(`Run: ${error.message.slice(0, 120)}`, { cause: error })) : resolve(channel))));
  }

  /**
   * Runs a command and collects its output (at most MAX_EXEC_OUTPUT characters of each stream).
   * Aborting closes the channel; the result then says so by a null code.
   */
  async exec(command: string, options: { signal?: AbortSignal; stdin?: string } = {}): Promise<ExecResult> {
    const channel = await this.execChannel(command);
    return new Promise<ExecResult>((resolve) => {
      let stdout = '';
      let stderr = '';
      let code: number | null = null;
      let exitSignal: string | undefined;
      const keep = (kept: string, chunk: Buffer): string => (kept.length >= MAX_EXEC_OUTPUT ? kept : (kept + chunk.toString('utf8')).slice(0, MAX_EXEC_OUTPUT));
      channel.on('data', (chunk: Buffer) => (stdout = keep(stdout, chunk)));
      channel.stderr.on('data', (chunk: Buffer) => (stderr = keep(stderr, chunk)));
      channel.on('exit', (exitCode: number | null, signalName?: string) => {
        code = exitCode;
        exitSignal = signalName;
      });
      const onAbort = (): void => void channel.close();
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const stopWatching = this.onClose(() => channel.emit('close'));
      channel.once('close', () => {
        options.signal?.removeEventListener('abort', onAbort);
        stopWatching();
        resolve({ code, signal: exitSignal, stdout, stderr });
      });
      if (options.stdin !== undefined) channel.end(options.stdin);
    });
  }

  /** An interactive shell with a pty (resize with `channel.setWindow(rows, cols, 0, 0)`). */
  shell(pty: PtyOptions): Promise<ClientChannel> {
    if (this.closedFlag) return Promise.reject(this.lost('Shell'));
    return new Promise((resolve, reject) =>
      this.client.shell({ rows: pty.rows, cols: pty.cols, term: pty.term ?? 'xterm-256color' }, (error, channel) => (error ? reject(new SshConnectionError(`Shell: ${error.message.slice(0, 120)}`, { cause: error })) : resolve(channel))),
    );
  }

  /** A stream to `host:port` as seen from the server (direct-tcpip), for a local port forward. */
  forwardOut(host: string, port: number): Promise<Duplex> {
    if (this.closedFlag) return Promise.reject(this.lost('Forward'));
    return new Promise((resolve, reject) =>
      this.client.forwardOut('127.0.0.1', 0, host, port, (error, channel) => (error ? reject(new SshConnectionError(`Forward to ${host}:${port}: ${error.message.slice(0, 120)}`, { cause: error })) : resolve(channel))),
    );
  }
}
