// A job's pod logs in a VS Code terminal (a Pseudoterminal): lines as they come, colour kept and every
// other escape sequence removed (src/core/jobs/ansi.ts), one prefix per pod when there are several.
// Ctrl+C asks whether to stop the job (modal; Keep Running is the safe default) instead of stopping it.

import * as vscode from 'vscode';
import { forTerminal } from '../../core/jobs/ansi';
import type { PodLine } from '../../core/jobs/polling';

export interface JobTerminalOptions {
  name: string;
  /** Asked after Ctrl+C: resolves true when the user chose to stop the job. */
  onInterrupt: () => Promise<void>;
  /** The terminal was closed by the user (stop following; the job keeps running). */
  onClose: () => void;
}

const DIM = '\x1b[2m';
const RESET = '\x1b[0m';
const RED = '\x1b[31m';
const GREEN = '\x1b[32m';
const YELLOW = '\x1b[33m';

export class JobTerminal implements vscode.Disposable {
  private readonly writer = new vscode.EventEmitter<string>();
  private readonly terminal: vscode.Terminal;
  private readonly pending: string[] = [];
  private opened = false;
  private closed = false;
  private multiPod = false;
  /** Every plain line written (tests read it through the jobs API). */
  readonly transcript: string[] = [];

  private handlers: Pick<JobTerminalOptions, 'onInterrupt' | 'onClose'>;
  /** False while a run writes into it; a finished run's terminal can take the next run (Run on GPU). */
  idle = false;

  constructor(options: JobTerminalOptions) {
    this.handlers = options;
    const pty: vscode.Pseudoterminal = {
      onDidWrite: this.writer.event,
      open: () => {
        this.opened = true;
        for (const chunk of this.pending.splice(0)) this.writer.fire(chunk);
      },
      close: () => {
        this.closed = true;
        this.handlers.onClose();
      },
      handleInput: (data) => {
        if (data.includes('\x03')) void this.handlers.onInterrupt();
      },
    };
    this.terminal = vscode.window.createTerminal({ name: options.name, pty, iconPath: new vscode.ThemeIcon('server-process') });
  }

  /** The next run in this terminal: its Ctrl+C and close go to the new run. */
  reuse(handlers: Pick<JobTerminalOptions, 'onInterrupt' | 'onClose'>): this {
    this.handlers = handlers;
    this.idle = false;
    return this;
  }

  show(): void {
    this.terminal.show(true);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** A status line from the extension (dim), e.g. "Synced 3 files". */
  info(text: string): void {
    this.emit(`${DIM}${text}${RESET}`, text);
  }

  warn(text: string): void {
    this.emit(`${YELLOW}${text}${RESET}`, text);
  }

  result(ok: boolean, text: string): void {
    this.emit(`${ok ? GREEN : RED}${text}${RESET}`, text);
  }

  lines(lines: readonly PodLine[], gap: boolean, gapText: string): void {
    if (gap) this.warn(gapText);
    if (!this.multiPod && lines.some((line) => line.podIndex > 0)) this.multiPod = true;
    for (const line of lines) {
      const safe = forTerminal(line.text);
      const prefix = this.multiPod ? `${DIM}[${line.podIndex}]${RESET} ` : '';
      this.emit(prefix + safe, line.text);
    }
  }

  private emit(coloured: string, plainText: string): void {
    this.transcript.push(plainText);
    if (this.transcript.length > 5000) this.transcript.splice(0, 1000);
    const chunk = `${coloured}\r\n`;
    if (this.opened) this.writer.fire(chunk);
    else this.pending.push(chunk);
  }

  dispose(): void {
    this.writer.dispose();
    this.terminal.dispose();
  }
}
