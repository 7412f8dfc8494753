// The core Logger port backed by the "Compute Toolkit" LogOutputChannel, plus a bounded in-memory copy of
// what was written (after redaction) so the in-host tests can prove no secret reached the channel.

import type * as vscode from 'vscode';
import type { Logger } from '../../core/log';

type Level = keyof Logger;

/** The last lines written to the channel, exactly as written (already redacted). */
export class LogTail {
  private readonly lines: string[] = [];

  constructor(private readonly capacity = 2000) {}

  push(level: Level, message: string): void {
    this.lines.push(`[${level}] ${message}`);
    if (this.lines.length > this.capacity) this.lines.splice(0, this.lines.length - this.capacity);
  }

  text(): string {
    return this.lines.join('\n');
  }
}

/** Writes to the channel and mirrors each line into `tail`. Wrap it with `redactingLogger` before use. */
export function channelLogger(channel: vscode.LogOutputChannel, tail: LogTail): Logger {
  const write = (level: Level) => (message: string) => {
    tail.push(level, message);
    channel[level](message);
  };
  return {
    trace: write('trace'),
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
  };
}
