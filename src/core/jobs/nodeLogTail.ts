// The one follower of `node.log` (docs/platform.md "Batch jobs": the whole log as one blob each time, no
// cursor, oldest lines may be dropped): one node's log read again and again, each read yielding only the
// lines not seen before (LogFollower). Both surfaces that follow a log consume it: the job terminal
// (polling.ts followJob, one per pod) and the node log document (src/vscode/tasks/nodeLog.ts), at the one
// interval FOLLOW_INTERVAL_MS. The text is passed on as the platform sent it (colour included): the
// terminal keeps colour, a document makes it plain (src/core/terminalText.ts).

import type { ComputeClient } from '../compute/api';
import { LogFollower, type LogUpdate } from './logFollower';

/** Between two reads of a followed log (terminal and document alike). */
export const FOLLOW_INTERVAL_MS = 3_000;

export interface NodeLogTarget {
  task_id: number;
  point_id: number;
  service_id: number;
}

/**
 * One read of a node's log: the editor passes TaskService.nodeLog, the job follower its client's call.
 * `logsFrom`: where `logs` starts in the whole log (the client keeps only its end: jsonAnswer.ts).
 */
export type NodeLogRead = (node: NodeLogTarget, signal?: AbortSignal) => Promise<{ logs: string; logsFrom?: number }>;

export class NodeLogTail {
  private readonly follower = new LogFollower();
  private reads = 0;

  private readonly readLog: NodeLogRead;

  constructor(
    source: ComputeClient | NodeLogRead,
    private readonly node: NodeLogTarget,
  ) {
    this.readLog = typeof source === 'function' ? source : (target, signal) => source.call('node.log', { ...target }, signal ? { signal } : undefined);
  }

  /** True once a read succeeded. */
  get started(): boolean {
    return this.reads > 0;
  }

  /** Reads the log once: the complete lines not seen before, and whether lines were lost in between. */
  async read(signal?: AbortSignal): Promise<LogUpdate> {
    const { logs, logsFrom } = await this.readLog(this.node, signal);
    this.reads += 1;
    return this.follower.update(logs, logsFrom ?? 0);
  }

  /** At the end of the log: its unterminated last line, if any (then it counts as seen). */
  flush(): string[] {
    return this.follower.flush();
  }

  /** The unterminated last line as it stands, without taking it (a document shows it; the next read may finish it). */
  get partial(): string {
    return this.follower.partial;
  }
}
