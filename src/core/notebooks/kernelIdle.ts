// Opt-in idle pause for Jupyter kernel tasks (docs/notebooks.md, "Idle pause"): a task whose kernels ran no
// cell for the set minutes is warned first (Keep Running), and paused only if it is still idle a grace
// period after the warning. A task several notebooks use is idle only when every one is. Plain Node: the
// editor feeds kernel states and the clock; the one activity rule (core/spend/activity.ts) still decides.

export interface KernelSeen {
  /** The notebook's URI. */
  notebook: string;
  profileId: string;
  taskId: number;
  taskName: string;
  busy: boolean;
}

export interface IdleTask {
  profileId: string;
  taskId: number;
  taskName: string;
  idleSince: number;
}

export interface IdleStep {
  /** Idle for the set minutes: warn now (Keep Running first). */
  warn: IdleTask[];
  /** Warned at least the grace period ago and idle all along: pause now. */
  pause: IdleTask[];
}

/** The warning comes this long before the pause. */
export const IDLE_GRACE_MS = 2 * 60_000;

const MAX_NOTEBOOKS = 1_000;

interface Entry extends KernelSeen {
  since: number;
}

const taskKey = (profileId: string, taskId: number): string => `${profileId}\n${taskId}`;

export class KernelIdleClock {
  private readonly entries = new Map<string, Entry>();
  private readonly warnedAt = new Map<string, number>();

  /** A kernel's state changed (or it was bound): a cell ending starts its idle time. */
  seen(kernel: KernelSeen, now: number): void {
    const before = this.entries.get(kernel.notebook);
    if (!before && this.entries.size >= MAX_NOTEBOOKS) return;
    const since = kernel.busy || !before || before.busy || before.taskId !== kernel.taskId ? now : before.since;
    this.entries.set(kernel.notebook, { ...kernel, since });
    if (kernel.busy) this.warnedAt.delete(taskKey(kernel.profileId, kernel.taskId));
  }

  /** The notebook let go of its kernel (closed, another task picked). */
  drop(notebook: string): void {
    this.entries.delete(notebook);
  }

  /** Keep Running: the task's idle time counts again from now. */
  keep(profileId: string, taskId: number, now: number): void {
    for (const entry of this.entries.values()) if (entry.profileId === profileId && entry.taskId === taskId) entry.since = now;
    this.warnedAt.delete(taskKey(profileId, taskId));
  }

  /** What to warn about and what to pause at `now`, for tasks idle `idleMs` (warned tasks are remembered). */
  step(idleMs: number, now: number, graceMs = IDLE_GRACE_MS): IdleStep {
    const tasks = new Map<string, IdleTask & { busy: boolean }>();
    for (const entry of this.entries.values()) {
      const key = taskKey(entry.profileId, entry.taskId);
      const task = tasks.get(key);
      if (!task) tasks.set(key, { profileId: entry.profileId, taskId: entry.taskId, taskName: entry.taskName, idleSince: entry.since, busy: entry.busy });
      else {
        task.idleSince = Math.max(task.idleSince, entry.since);
        task.busy ||= entry.busy;
      }
    }
    const result: IdleStep = { warn: [], pause: [] };
    for (const [key, { busy, ...task }] of tasks) {
      const warned = this.warnedAt.get(key);
      if (busy || now - task.idleSince < idleMs) {
        this.warnedAt.delete(key);
        continue;
      }
      if (warned === undefined) {
        this.warnedAt.set(key, now);
        result.warn.push(task);
      } else if (now - warned >= graceMs) {
        this.warnedAt.delete(key);
        result.pause.push(task);
      }
    }
    for (const key of this.warnedAt.keys()) if (!tasks.has(key)) this.warnedAt.delete(key);
    return result;
  }

  /** After a pause: the task's kernels are gone. */
  forgetTask(profileId: string, taskId: number): void {
    for (const [notebook, entry] of this.entries) if (entry.profileId === profileId && entry.taskId === taskId) this.entries.delete(notebook);
    this.warnedAt.delete(taskKey(profileId, taskId));
  }
}
