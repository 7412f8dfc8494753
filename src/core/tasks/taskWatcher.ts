// Turns the task store's changes (core/state, core/tasks/taskState.ts) into the events behind the
// notifications: started, ended, stuck in Pending, and — when a node-check port is given — a node
// restarting or failing. It lists nothing itself: the store's one poll feeds it. The node check is
// at most one node list per change (round robin over the running tasks, young tasks every other
// time), so a crash loop is seen within two polls even among hundreds of tasks.

import type { TaskSummary } from '../compute/api';
import type { StateChange } from '../state/definition';
import { diffNodes, diffTasks, type NodeLook, type TaskEvent, type TaskMemory } from './taskEvents';

export interface WatchPorts {
  /** Lists one task's nodes (one request); omit to skip restart checks. */
  listNodes?(taskId: number, signal?: AbortSignal): Promise<readonly NodeLook[]>;
  now(): number;
}

/** A task that started this recently gets every other node check. */
const YOUNG_MS = 15 * 60_000;

export class TaskWatcher {
  private memory: Map<number, TaskMemory> | undefined;
  private readonly nodeMemory = new Map<number, Map<number, { restarts: number; status: string }>>();
  private nodeCursor = 0;
  private youngCursor = 0;
  private nodeChecks = 0;
  /** When the watcher saw each task start (Pending → Running): young tasks are the likeliest to crash-loop. */
  private readonly startedAt = new Map<number, number>();

  constructor(
    private readonly ports: WatchPorts,
    /** A task Pending this long is announced as stuck (once per Pending episode). */
    private readonly stuckAfterMs: number,
  ) {}

  /**
   * The events of one store change. The store's items already keep tasks an incomplete listing did
   * not reach, so a task is taken as ended only when a complete listing no longer has it.
   */
  async take(change: StateChange<TaskSummary>, signal?: AbortSignal): Promise<{ events: TaskEvent[]; nodeError?: unknown }> {
    const now = this.ports.now();
    const { events, memory } = diffTasks(this.memory, change.items, now, this.stuckAfterMs);
    this.memory = memory;
    for (const event of events) if (event.kind === 'started') this.startedAt.set(event.taskId, now);
    try {
      events.push(...(await this.checkOneTaskNodes(change.items, signal)));
      return { events };
    } catch (error) {
      // The task events stand; only the node check failed.
      return { events, nodeError: error };
    }
  }

  /** Forgets what was seen (the profile's watching restarts). */
  reset(): void {
    this.memory = undefined;
    this.nodeMemory.clear();
    this.startedAt.clear();
  }

  private async checkOneTaskNodes(tasks: readonly TaskSummary[], signal?: AbortSignal): Promise<TaskEvent[]> {
    const running = tasks.filter((task) => task.status === 'Running');
    const live = new Set(running.map((task) => task.task_id));
    for (const taskId of this.nodeMemory.keys()) if (!live.has(taskId)) this.nodeMemory.delete(taskId);
    const now = this.ports.now();
    for (const [taskId, at] of this.startedAt) if (!live.has(taskId) || now - at > YOUNG_MS) this.startedAt.delete(taskId);
    if (!this.ports.listNodes || running.length === 0) return [];
    const young = running.filter((candidate) => this.startedAt.has(candidate.task_id));
    let task: TaskSummary | undefined;
    if (young.length > 0 && this.nodeChecks++ % 2 === 0) {
      task = young[this.youngCursor % young.length];
      this.youngCursor = (this.youngCursor + 1) % young.length;
    } else {
      task = running[this.nodeCursor % running.length];
      this.nodeCursor = (this.nodeCursor + 1) % running.length;
    }
    if (!task) return [];
    const nodes = await this.ports.listNodes(task.task_id, signal);
    const previous = this.nodeMemory.get(task.task_id);
    const { events, memory } = diffNodes({ taskId: task.task_id, taskName: task.task_name }, previous, nodes, this.startedAt.has(task.task_id));
    this.nodeMemory.set(task.task_id, memory);
    return events;
  }
}
