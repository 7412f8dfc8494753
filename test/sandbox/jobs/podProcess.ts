// One container of a job pod, really run: `/bin/sh -c 'exec "$0" "$@"' command… args…` as a local
// process in its own process group, so stop and timeout kill everything it started. Output (stdout and
// stderr interleaved, as a container log is) is kept as a bounded tail: at most MAX_LOG_LINES lines
// and MAX_LOG_BYTES characters, the oldest dropped first (docs/platform.md: node log is one blob).
// The environment is built from scratch (PATH, HOME, LANG and the job's env): nothing of the sandbox
// process's own environment, which may hold secrets, reaches the command.

import { spawn, type ChildProcess } from 'node:child_process';

export const MAX_LOG_LINES = 2000;
export const MAX_LOG_BYTES = 256 * 1024;

export interface ContainerRun {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
}

export interface ContainerResult {
  /** null when killed by a signal (stop, timeout). */
  exitCode: number | null;
  signal: string | null;
}

/** The bounded tail of a log: whole lines plus the line being written. */
export class LogTail {
  private lines: string[] = [];
  private head = 0;
  private chars = 0;
  private partial = '';

  append(text: string): void {
    const parts = (this.partial + text).split('\n');
    this.partial = parts.pop() ?? '';
    for (const line of parts) this.push(line);
    // A line without a newline that keeps growing is bounded too.
    if (this.partial.length > MAX_LOG_BYTES) {
      this.push(this.partial.slice(0, MAX_LOG_BYTES));
      this.partial = '';
    }
  }

  /** Adds a line the platform itself writes (e.g. "pod killed: timeout"). */
  note(line: string): void {
    if (this.partial !== '') {
      this.push(this.partial);
      this.partial = '';
    }
    this.push(line);
  }

  text(): string {
    const kept = this.lines.slice(this.head);
    return kept.length === 0 ? this.partial : `${kept.join('\n')}\n${this.partial}`;
  }

  private push(line: string): void {
    this.lines.push(line);
    this.chars += line.length + 1;
    while (this.lines.length - this.head > MAX_LOG_LINES || this.chars > MAX_LOG_BYTES) {
      this.chars -= (this.lines[this.head]?.length ?? 0) + 1;
      this.head++;
    }
    // Compact now and then so the array does not grow without bound (amortised linear).
    if (this.head > 4096 && this.head * 2 > this.lines.length) {
      this.lines = this.lines.slice(this.head);
      this.head = 0;
    }
  }
}

export class ContainerProcess {
  readonly log = new LogTail();
  private child: ChildProcess | undefined;
  private finished = false;
  readonly done: Promise<ContainerResult>;

  constructor(run: ContainerRun) {
    this.done = new Promise<ContainerResult>((resolve) => {
      if (run.argv.length === 0) {
        this.log.note('error: the container has no command (start_script.command is empty and the image has none in the sandbox)');
        this.finished = true;
        resolve({ exitCode: 127, signal: null });
        return;
      }
      const child = spawn('/bin/sh', ['-c', 'exec "$0" "$@"', ...run.argv], {
        cwd: run.cwd,
        env: run.env,
        detached: true, // own process group: kill(-pid) reaches what the command started
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      this.child = child;
      child.stdout?.setEncoding('utf8');
      child.stderr?.setEncoding('utf8');
      child.stdout?.on('data', (chunk: string) => this.log.append(chunk));
      child.stderr?.on('data', (chunk: string) => this.log.append(chunk));
      child.once('error', (error) => {
        this.log.note(`error: ${error.message}`);
        this.finished = true;
        resolve({ exitCode: 127, signal: null });
      });
      child.once('close', (code, signal) => {
        this.finished = true;
        resolve({ exitCode: code, signal });
      });
    });
  }

  get running(): boolean {
    return !this.finished;
  }

  /** Kills the whole process group (SIGKILL: a container that is deleted gets no grace here). */
  kill(): void {
    if (this.finished || !this.child?.pid) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      this.child.kill('SIGKILL');
    }
  }
}
