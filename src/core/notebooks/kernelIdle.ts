// Opt-in idle pause for Jupyter kernel tasks (docs/notebooks.md, "Idle pause"): a task whose kernels ran no
// cell for the set minutes is warned first (Keep Running), and paused only if it is still idle a grace
// period after the warning. A task several notebooks use is idle only when every one is. Plain Node: the
// editor feeds kernel states and the clock; the warning and its grace are the one idle pause's
// (core/spend/idleGrace.ts), and the one activity rule (core/spend/activity.ts) still decides.

import { IDLE_GRACE_MS, IdleGrace, type IdleCandidate, type IdleGraceStep } from '../spend/idleGrace';

export interface KernelSeen {
  /** The notebook's URI. */
  notebook: string;
  profileId: string;
  taskId: number;
  taskName: string;
  busy: boolean;
}

export type IdleTask = IdleCandidate;
export type IdleStep = IdleGraceStep<IdleTask>;
export { IDLE_GRACE_MS };

const MAX_NOTEBOOKS = 1_000;

interface Entry extends KernelSeen {
  since: number;
}

const taskKey = (profileId: string, taskId: number): string => `${profileId}\n${taskId}`;

export class KernelIdleClock {
  private readonly entries = new Map<string, Entry>();
  private readonly grace = new IdleGrace();

  /** A kernel's state changed (or it was bound): a cell ending starts its idle time. */
  seen(kernel: KernelSeen, now: number): void {
    const before = this.entries.get(kernel.notebook);
    if (!before && this.entries.size >= MAX_NOTEBOOKS) return;
    const since = kernel.busy || !before || before.busy || before.taskId !== kernel.taskId ? now : before.since;
    this.entries.set(kernel.notebook, { ...kernel, since });
    if (kernel.busy) this.grace.forget(kernel.profileId, kernel.taskId);
  }

  /** The notebook let go of its kernel (closed, another task picked). */
  drop(notebook: string): void {
    this.entries.delete(notebook);
  }

  /** Keep Running: the task's idle time counts again from now. */
  keep(profileId: string, taskId: number, now: number): void {
    for (const entry of this.entries.values()) if (entry.profileId === profileId && entry.taskId === taskId) entry.since = now;
    this.grace.forget(profileId, taskId);
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
    const idle = [...tasks.values()].filter((task) => !task.busy && now - task.idleSince >= idleMs).map(({ busy: _busy, ...task }) => task);
    return this.grace.step(idle, now, graceMs);
  }

  /** After a pause: the task's kernels are gone. */
  forgetTask(profileId: string, taskId: number): void {
    for (const [notebook, entry] of this.entries) if (entry.profileId === profileId && entry.taskId === taskId) this.entries.delete(notebook);
    this.grace.forget(profileId, taskId);
  }
}
