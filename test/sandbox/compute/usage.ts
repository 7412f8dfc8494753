// What the sandbox bills: one interval per node per run (from the moment it runs until it is
// released), at the task's price in points per second. The task store opens and closes intervals;
// the billing routes read them. History (tasks that ran and ended before the sandbox started) is
// generated from the seed, so the Spend view has weeks of realistic records on first start.

import type { SeededRandom } from './random';

export interface UsageInterval {
  taskId: number;
  pointId: number;
  /** Points per second for this node. */
  pricePerSecond: number;
  /** Real ms the node started running (billing starts). */
  fromMs: number;
  /** Real ms it was released; undefined while it still runs. */
  toMs?: number;
}

export interface BilledTask {
  taskId: number;
  name: string;
  type: 'Deployment' | 'Development';
}

const DAY_MS = 86_400_000;
const HISTORY_NAMES = ['llama-finetune', 'sdxl-batch', 'whisper-transcribe', 'jupyter-lab', 'embedding-index', 'vllm-bench', 'comfyui-render', 'dev-box'];

export class UsageLedger {
  private readonly intervals: UsageInterval[] = [];
  private readonly open = new Map<number, UsageInterval>();
  readonly tasks = new Map<number, BilledTask>();

  nameTask(task: BilledTask): void {
    this.tasks.set(task.taskId, task);
  }

  start(taskId: number, pointId: number, pricePerSecond: number, fromMs: number): void {
    const interval: UsageInterval = { taskId, pointId, pricePerSecond, fromMs };
    this.intervals.push(interval);
    this.open.set(pointId, interval);
  }

  /** Ends a node's billing at `atMs` (a node released before it ran bills nothing). */
  stop(pointId: number, atMs: number): void {
    const interval = this.open.get(pointId);
    if (!interval) return;
    this.open.delete(pointId);
    interval.toMs = Math.max(interval.fromMs, atMs);
  }

  all(): readonly UsageInterval[] {
    return this.intervals;
  }

  /**
   * Points billed for the intervals matching `taskFilter` within [fromMs, toMs), counting only
   * time before `postedUntilMs` (the platform posts charges every 5 minutes).
   */
  points(fromMs: number, toMs: number, postedUntilMs: number, taskFilter?: (taskId: number) => boolean): Map<number, number> {
    const byTask = new Map<number, number>();
    const end = Math.min(toMs, postedUntilMs);
    if (end <= fromMs) return byTask;
    for (const interval of this.intervals) {
      if (taskFilter && !taskFilter(interval.taskId)) continue;
      // Billing is per whole second: a node's time starts at its next whole second, so a split
      // of any window at whole seconds bills exactly what the whole window bills.
      const start = Math.max(Math.floor(fromMs / 1000), Math.ceil(interval.fromMs / 1000));
      const stop = Math.min(Math.floor(end / 1000), Math.floor((interval.toMs ?? end) / 1000));
      if (stop <= start) continue;
      const points = (stop - start) * interval.pricePerSecond;
      byTask.set(interval.taskId, (byTask.get(interval.taskId) ?? 0) + points);
    }
    return byTask;
  }

  /**
   * Ended tasks over the last `days` days: a few runs a week of 1–4 nodes for 1–30 hours each at
   * prices drawn from the catalogue's range, ids below the live ones.
   */
  seedHistory(random: SeededRandom, nowMs: number, days: number, prices: readonly number[], firstTaskId: number): void {
    let taskId = firstTaskId;
    let pointId = 700001;
    for (let day = days; day >= 1; day--) {
      if (random.next() < 0.45) continue;
      const id = taskId++;
      const name = HISTORY_NAMES[id % HISTORY_NAMES.length] ?? 'task';
      this.nameTask({ taskId: id, name: `${name}-${id % 1000}`, type: random.next() < 0.8 ? 'Deployment' : 'Development' });
      const price = prices[random.int(0, prices.length - 1)] ?? 466;
      const startMs = nowMs - day * DAY_MS + random.int(0, 20) * 3600_000;
      const hours = random.int(1, 30);
      const nodes = random.int(1, 4);
      for (let node = 0; node < nodes; node++) {
        this.intervals.push({ taskId: id, pointId: pointId++, pricePerSecond: price, fromMs: startMs, toMs: Math.min(nowMs, startMs + hours * 3600_000) });
      }
    }
  }
}
