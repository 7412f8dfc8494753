// A job's pod logs in a VS Code terminal (a Pseudoterminal): lines as they come, colour kept and every
// other escape sequence removed (src/core/terminalText.ts, the only source of what is written here), one
// prefix per pod when there are several.
// Ctrl+C asks whether to stop the job (modal; Keep Running is the safe default) instead of stopping it.

import * as vscode from 'vscode';
import type { PodLine } from '../../core/jobs/polling';
import { plainLogLine, plainTerminalText, terminalLogLine, terminalStatusLine, type TerminalChunk, type TerminalStyle } from '../../core/terminalText';

export interface JobTerminalOptions {
  name: string;
  /** Asked after Ctrl+C: resolves true when the user chose to stop the job. */
  onInterrupt: () => Promise<void>;
  /** The terminal was closed by the user (stop following; the job keeps running). */
  onClose: () => void;
}

export class JobTerminal implements vscode.Disposable {
  private readonly writer = new vscode.EventEmitter<TerminalChunk>();
  private readonly terminal: vscode.Terminal;
  private readonly pending: TerminalChunk[] = [];
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
    this.status('dim', text);
  }

  warn(text: string): void {
    this.status('warn', text);
  }

  result(ok: boolean, text: string): void {
    this.status(ok ? 'ok' : 'error', text);
  }

  private status(style: TerminalStyle, text: string): void {
    this.emit(terminalStatusLine(style, text), plainTerminalText(text));
  }

  lines(lines: readonly PodLine[], gap: boolean, gapText: string): void {
    if (gap) this.warn(gapText);
    if (!this.multiPod && lines.some((line) => line.podIndex > 0)) this.multiPod = true;
    for (const line of lines) {
      this.emit(terminalLogLine(line.text, this.multiPod ? `[${line.podIndex}]` : undefined), plainLogLine(line.text));
    }
  }

  /** A line from one of several sources with its tag (a group run's `[rank N]`), in the transcript too. */
  tagged(tag: string, text: string): void {
    this.emit(terminalLogLine(text, tag), `${plainLogLine(tag)} ${plainLogLine(text)}`);
  }

  private emit(chunk: TerminalChunk, plainText: string): void {
    this.transcript.push(plainText);
    if (this.transcript.length > 5000) this.transcript.splice(0, 1000);
    if (this.opened) this.writer.fire(chunk);
    else this.pending.push(chunk);
  }

  dispose(): void {
    this.writer.dispose();
    this.terminal.dispose();
  }
}
