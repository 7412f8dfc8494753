// An interactive shell on a machine (docs/machines.md): a pty over its own SSH connection, resized and
// written to as a terminal is, and reconnected by itself when the connection drops — a bounded number of
// times, each wait longer, every step reported as a state the terminal shows. A shell that exits with a
// code ends for good; a refused login, a changed host key or an ended rental is never retried.

import type { ClientChannel } from 'ssh2';
import { AbortedError } from '../errors';
import { SshAgentError, SshAuthError, SshHostKeyError } from '../ssh/errors';
import { RentalEndedError } from './rentalEnded';
import type { SshConnection } from '../ssh/sshConnection';

export type MachineShellState =
  | { kind: 'connecting'; attempt: number; of: number }
  | { kind: 'open' }
  /** The connection dropped; the next attempt starts after `waitMs`. */
  | { kind: 'lost'; reason: string; attempt: number; of: number; waitMs: number }
  /** No more attempts (or one that cannot succeed by retrying); `reconnect()` starts again. */
  | { kind: 'gave-up'; reason: string; error: unknown }
  | { kind: 'exited'; code: number }
  | { kind: 'closed' };

export interface MachineShellOptions {
  /** Opens a key-only connection (never asks the user anything). */
  connect: (signal: AbortSignal) => Promise<SshConnection>;
  rows: number;
  cols: number;
  onData: (text: string) => void;
  onState: (state: MachineShellState) => void;
  /** Attempts per drop, including the first (default 5). */
  attempts?: number;
  /** The wait before attempt n ≥ 2 (default 1 s, 2 s, 4 s … at most 15 s). */
  waitMs?: (attempt: number) => number;
  /** Waits (tests pass one they resolve themselves). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export const DEFAULT_SHELL_ATTEMPTS = 5;
const defaultWait = (attempt: number): number => Math.min(15_000, 1000 * 2 ** Math.max(0, attempt - 2));

export class MachineShell {
  private readonly abort = new AbortController();
  private connection: SshConnection | undefined;
  private channel: ClientChannel | undefined;
  private rows: number;
  private cols: number;
  private running = false;
  private ended = false;

  constructor(private readonly options: MachineShellOptions) {
    this.rows = options.rows;
    this.cols = options.cols;
  }

  private get attempts(): number {
    return Math.max(1, this.options.attempts ?? DEFAULT_SHELL_ATTEMPTS);
  }

  /** Connects (with the bounded retries); resolves once open, given up, or closed. */
  start(): Promise<void> {
    return this.run(undefined);
  }

  /** After giving up: tries again from the first attempt. */
  reconnect(): Promise<void> {
    return this.run(undefined);
  }

  write(data: string): void {
    this.channel?.write(data);
  }

  resize(rows: number, cols: number): void {
    this.rows = rows;
    this.cols = cols;
    this.channel?.setWindow(rows, cols, 0, 0);
  }

  /** Ends the shell and its connection; no reconnect after this. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    this.abort.abort();
    this.drop();
    this.options.onState({ kind: 'closed' });
  }

  private drop(): void {
    const connection = this.connection;
    this.connection = undefined;
    this.channel = undefined;
    connection?.close();
  }

  private async run(lostReason: string | undefined): Promise<void> {
    if (this.running || this.ended) return;
    this.running = true;
    const signal = this.abort.signal;
    let reason = lostReason;
    try {
      for (let attempt = 1; attempt <= this.attempts; attempt++) {
        if (attempt > 1 || reason !== undefined) {
          const waitMs = (this.options.waitMs ?? defaultWait)(attempt === 1 ? 2 : attempt);
          this.options.onState({ kind: 'lost', reason: reason ?? '', attempt, of: this.attempts, waitMs });
          await (this.options.sleep ?? sleep)(waitMs, signal);
        }
        this.options.onState({ kind: 'connecting', attempt, of: this.attempts });
        try {
          await this.open(signal);
          return;
        } catch (error) {
          if (this.ended || error instanceof AbortedError) return;
          reason = error instanceof Error ? error.message : String(error);
          if (cannotSucceedByRetrying(error) || attempt === this.attempts) {
            this.options.onState({ kind: 'gave-up', reason, error });
            return;
          }
        }
      }
    } catch (error) {
      if (!this.ended && !(error instanceof AbortedError)) this.options.onState({ kind: 'gave-up', reason: error instanceof Error ? error.message : String(error), error });
    } finally {
      this.running = false;
    }
  }

  private async open(signal: AbortSignal): Promise<void> {
    const connection = await this.options.connect(signal);
    if (this.ended) {
      connection.close();
      return;
    }
    let channel: ClientChannel;
    try {
      channel = await connection.shell({ rows: this.rows, cols: this.cols });
    } catch (error) {
      connection.close();
      throw error;
    }
    this.connection = connection;
    this.channel = channel;
    const decoder = new TextDecoder('utf-8');
    let code: number | undefined;
    let finished = false;
    const finish = (): void => {
      if (finished || this.connection !== connection) return;
      finished = true;
      const tail = decoder.decode();
      if (tail) this.options.onData(tail);
      this.drop();
      if (this.ended) return;
      // An exit code: the user's shell ended. No code (killed, or the connection went): reconnect.
      if (code !== undefined) {
        this.ended = true;
        this.options.onState({ kind: 'exited', code });
      } else {
        void this.run('the connection to the machine was lost');
      }
    };
    channel.on('data', (chunk: Buffer) => this.options.onData(decoder.decode(chunk, { stream: true })));
    channel.stderr.on('data', (chunk: Buffer) => this.options.onData(decoder.decode(chunk, { stream: true })));
    channel.on('exit', (exitCode: number | null) => {
      if (typeof exitCode === 'number') code = exitCode;
    });
    channel.on('close', finish);
    connection.onClose(finish);
    this.options.onState({ kind: 'open' });
  }
}

/** A refused login, a changed host key, an agent without the key, a rental that is over: retrying changes nothing. */
export function cannotSucceedByRetrying(error: unknown): boolean {
  return error instanceof SshHostKeyError || error instanceof SshAuthError || error instanceof SshAgentError || error instanceof RentalEndedError;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new AbortedError('Reconnecting was stopped.'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AbortedError('Reconnecting was stopped.'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
