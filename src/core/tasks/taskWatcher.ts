// Watches one profile's tasks by polling, within a fixed request budget: one task-list request per
// interval whatever the number of tasks, plus at most one node-list request (round robin over the
// running tasks, for restart counts). No request at all while every task is at rest (Paused, End,
// or none): `wake()` starts it again. Errors back off exponentially; an unfocused window slows it.
// Timers and the clock are injected, so tests drive it on plain Node without waiting.

import type { TaskSummary } from '../compute/api';
import { WATCHED_STATUSES, changesOnItsOwn, diffNodes, diffTasks, type NodeLook, type TaskEvent, type TaskMemory } from './taskEvents';

export interface WatchPorts {
  /** Lists the profile's Pending, Running and Paused tasks (one request). */
  listTasks(signal: AbortSignal): Promise<readonly TaskSummary[]>;
  /** Lists one task's nodes (one request); omit to skip restart checks. */
  listNodes?(taskId: number, signal: AbortSignal): Promise<readonly NodeLook[]>;
  now(): number;
  setTimer(callback: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export interface WatchOptions {
  /** Base interval (ms); the platform asks for at most one poll per 10 s. */
  intervalMs: number;
  /** A task Pending this long is announced as stuck (once per Pending episode). */
  stuckAfterMs: number;
  /** After the window has been unfocused this long, intervals are multiplied by `unfocusedFactor`. */
  unfocusedAfterMs: number;
  unfocusedFactor: number;
  /** Ceiling of the error backoff (ms). */
  maxBackoffMs: number;
}

export const DEFAULT_WATCH_OPTIONS: WatchOptions = {
  intervalMs: 15_000,
  stuckAfterMs: 10 * 60_000,
  unfocusedAfterMs: 5 * 60_000,
  unfocusedFactor: 4,
  maxBackoffMs: 5 * 60_000,
};

/**
 * The one list request per poll: the tasks that can still change, at most 100 (the largest page).
 * A task missing from it that was watched has ended.
 */
export const WATCH_LIST_PARAMS = { type: 'Deployment', status: WATCHED_STATUSES.join(','), page_size: 100 } as const;

/** A task that started this recently gets every other node check. */
const YOUNG_MS = 15 * 60_000;

/** The platform's floor between two polls (at most once every 10 s). */
export const MIN_INTERVAL_MS = 10_000;

export type WatchListener = (events: TaskEvent[], tasks: readonly TaskSummary[]) => void;

export class TaskWatcher {
  private memory: Map<number, TaskMemory> | undefined;
  private readonly nodeMemory = new Map<number, Map<number, { restarts: number; status: string }>>();
  private nodeCursor = 0;
  private youngCursor = 0;
  private nodeChecks = 0;
  /** When the watcher saw each task start (Pending → Running): young tasks are the likeliest to crash-loop. */
  private readonly startedAt = new Map<number, number>();
  private failures = 0;
  private focused = true;
  private unfocusedSince: number | undefined;
  private timer: unknown;
  private running: AbortController | undefined;
  private disposed = false;
  private readonly options: WatchOptions;

  constructor(
    private readonly ports: WatchPorts,
    private readonly listener: WatchListener,
    options: Partial<WatchOptions> = {},
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    this.options = { ...DEFAULT_WATCH_OPTIONS, ...options };
    this.options.intervalMs = Math.max(MIN_INTERVAL_MS, this.options.intervalMs);
  }

  /** True while a poll is scheduled or in flight. */
  get active(): boolean {
    return this.timer !== undefined || this.running !== undefined;
  }

  /** True while a poll's requests are in flight. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Starts polling now (after a create, a recover, a profile switch, focus regained). */
  wake(): void {
    if (this.disposed || this.running) return;
    this.cancelTimer();
    void this.tick();
  }

  setFocused(focused: boolean): void {
    if (focused === this.focused) return;
    this.focused = focused;
    this.unfocusedSince = focused ? undefined : this.ports.now();
  }

  /** The delay before the next poll, given the failures so far and the window's focus. */
  nextDelayMs(): number {
    const { intervalMs, maxBackoffMs, unfocusedAfterMs, unfocusedFactor } = this.options;
    let delay = this.failures === 0 ? intervalMs : Math.min(maxBackoffMs, intervalMs * 2 ** Math.min(this.failures, 16));
    const slow = !this.focused && this.unfocusedSince !== undefined && this.ports.now() - this.unfocusedSince >= unfocusedAfterMs;
    if (slow) delay = Math.max(delay, intervalMs * unfocusedFactor);
    return delay;
  }

  /** One poll: list, diff, maybe one node check, announce, schedule the next (or go quiet). */
  async tick(): Promise<void> {
    if (this.disposed || this.running) return;
    const controller = new AbortController();
    this.running = controller;
    let keepGoing = true;
    try {
      const tasks = await this.ports.listTasks(controller.signal);
      const { events, memory } = diffTasks(this.memory, tasks, this.ports.now(), this.options.stuckAfterMs);
      this.memory = memory;
      for (const event of events) if (event.kind === 'started') this.startedAt.set(event.taskId, this.ports.now());
      this.failures = 0;
      try {
        events.push(...(await this.checkOneTaskNodes(tasks, controller.signal)));
      } catch (error) {
        // The task events stand; only the node check failed, and it backs off like any failure.
        if (!this.disposed) {
          this.failures++;
          this.onError(error);
        }
      }
      keepGoing = tasks.some((task) => changesOnItsOwn(task.status));
      if (!this.disposed) this.listener(events, tasks);
    } catch (error) {
      if (this.disposed) return;
      this.failures++;
      this.onError(error);
    } finally {
      this.running = undefined;
    }
    if (this.disposed) return;
    if (keepGoing) this.schedule(this.nextDelayMs());
  }

  dispose(): void {
    this.disposed = true;
    this.cancelTimer();
    this.running?.abort();
  }

  private schedule(ms: number): void {
    this.cancelTimer();
    this.timer = this.ports.setTimer(() => {
      this.timer = undefined;
      void this.tick();
    }, ms);
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.ports.clearTimer(this.timer);
    this.timer = undefined;
  }

  /**
   * Restart counts for one running task per poll, so the cost stays one request. Every other poll
   * checks a task that started in the last 15 minutes (taking turns among them), the rest take turns
   * over every running task: a fresh crash loop is seen within two polls even among hundreds of tasks.
   */
  private async checkOneTaskNodes(tasks: readonly TaskSummary[], signal: AbortSignal): Promise<TaskEvent[]> {
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
