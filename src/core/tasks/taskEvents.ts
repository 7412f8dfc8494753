// What changed between two looks at a profile's tasks: the state diff behind the "task started",
// "task ended", "stuck in Pending" and "node restarted / failed" notifications. Pure and linear in
// the number of tasks and nodes; names and URLs come from the server and are passed on as data.

import type { TaskStatus, TaskSummary } from '../compute/api';

export type TaskEvent =
  | { kind: 'started'; taskId: number; taskName: string; urls: string[] }
  | { kind: 'ended'; taskId: number; taskName: string; from: TaskStatus }
  | { kind: 'stuckPending'; taskId: number; taskName: string; pendingMs: number }
  | { kind: 'nodeRestarted'; taskId: number; taskName: string; pointId: number; nodeName: string; restartCount: number; reason?: string }
  | { kind: 'nodeFailed'; taskId: number; taskName: string; pointId: number; nodeName: string; reason?: string };

export type TaskEventKind = TaskEvent['kind'];

/** The statuses watched: a task in any other state (End, Other) needs no polling. */
export const WATCHED_STATUSES: readonly TaskStatus[] = ['Pending', 'Running', 'Paused'];

/** Pending and Running can change on their own; Paused and End only by someone's action. */
export function changesOnItsOwn(status: TaskStatus): boolean {
  return status === 'Pending' || status === 'Running';
}

export interface TaskMemory {
  status: TaskStatus;
  name: string;
  /** When the watcher first saw the current Pending episode (ms). */
  pendingSince?: number;
  stuckAnnounced?: boolean;
}

/** Public URLs of a task's services (only http(s) ones; anything else from the server is dropped). */
export function publicUrls(task: Pick<TaskSummary, 'services'>): string[] {
  const urls: string[] = [];
  for (const service of task.services ?? []) {
    for (const port of service.remote_ports ?? []) {
      const url = port.url;
      if (typeof url === 'string' && url.length <= 2048 && /^https?:\/\//i.test(url)) urls.push(url);
    }
  }
  return urls;
}

/**
 * Diffs the previous memory against the watched tasks just listed (Pending, Running, Paused).
 * A task that was watched and is missing from the list has ended (stopped here, in the console,
 * or by the platform). `previous` undefined = the first look: it only records, it never announces.
 */
export function diffTasks(
  previous: ReadonlyMap<number, TaskMemory> | undefined,
  listed: readonly TaskSummary[],
  nowMs: number,
  stuckAfterMs: number,
): { events: TaskEvent[]; memory: Map<number, TaskMemory> } {
  const events: TaskEvent[] = [];
  const memory = new Map<number, TaskMemory>();
  for (const task of listed) {
    const before = previous?.get(task.task_id);
    const entry: TaskMemory = { status: task.status, name: task.task_name };
    if (task.status === 'Pending') {
      entry.pendingSince = before?.status === 'Pending' ? (before.pendingSince ?? nowMs) : nowMs;
      entry.stuckAnnounced = before?.status === 'Pending' ? before.stuckAnnounced : false;
      const pendingMs = nowMs - entry.pendingSince;
      if (previous && !entry.stuckAnnounced && pendingMs >= stuckAfterMs) {
        entry.stuckAnnounced = true;
        events.push({ kind: 'stuckPending', taskId: task.task_id, taskName: task.task_name, pendingMs });
      }
    }
    if (previous && before && before.status !== 'Running' && task.status === 'Running') {
      events.push({ kind: 'started', taskId: task.task_id, taskName: task.task_name, urls: publicUrls(task) });
    } else if (previous && !before && task.status === 'Running') {
      // Created and started between two looks (or created elsewhere): still news.
      events.push({ kind: 'started', taskId: task.task_id, taskName: task.task_name, urls: publicUrls(task) });
    }
    if (previous && before && task.status === 'End' && before.status !== 'End') {
      events.push({ kind: 'ended', taskId: task.task_id, taskName: task.task_name, from: before.status });
    }
    if (task.status !== 'End') memory.set(task.task_id, entry);
  }
  if (previous) {
    const seen = new Set(listed.map((task) => task.task_id));
    for (const [taskId, before] of previous) {
      if (!seen.has(taskId) && before.status !== 'End') {
        events.push({ kind: 'ended', taskId, taskName: before.name, from: before.status });
      }
    }
  }
  return { events, memory };
}

/** One node as the restart check needs it (a subset of the node list item). */
export interface NodeLook {
  point_id: number;
  name: string;
  status: string;
  describe_dto?: { restart_count?: number | null } | null;
  containers?: readonly { reason?: string | null; message?: string | null }[] | null;
}

/**
 * Restart counts and Failed states of one task's nodes, compared with the last look at them.
 * `sawStart`: the watcher saw this task start, so on a first look every restart is news (a node
 * that crashed before its first check is still announced); otherwise a first look only records.
 */
export function diffNodes(
  task: { taskId: number; taskName: string },
  previous: ReadonlyMap<number, { restarts: number; status: string }> | undefined,
  nodes: readonly NodeLook[],
  sawStart = false,
): { events: TaskEvent[]; memory: Map<number, { restarts: number; status: string }> } {
  const events: TaskEvent[] = [];
  const memory = new Map<number, { restarts: number; status: string }>();
  const fresh = sawStart ? { restarts: 0, status: 'Running' } : undefined;
  for (const node of nodes) {
    const restarts = typeof node.describe_dto?.restart_count === 'number' ? node.describe_dto.restart_count : 0;
    const before = previous ? (previous.get(node.point_id) ?? fresh) : fresh;
    const reason = lastReason(node);
    if (before && restarts > before.restarts) {
      events.push({ kind: 'nodeRestarted', ...task, pointId: node.point_id, nodeName: node.name, restartCount: restarts, ...(reason ? { reason } : {}) });
    }
    if ((previous || fresh) && node.status === 'Failed' && before?.status !== 'Failed') {
      events.push({ kind: 'nodeFailed', ...task, pointId: node.point_id, nodeName: node.name, ...(reason ? { reason } : {}) });
    }
    memory.set(node.point_id, { restarts, status: node.status });
  }
  return { events, memory };
}

function lastReason(node: NodeLook): string | undefined {
  for (const container of node.containers ?? []) {
    const parts = [container.reason, container.message].filter((part): part is string => typeof part === 'string' && part.length > 0);
    if (parts.length > 0) return parts.join(': ').slice(0, 300);
  }
  return undefined;
}
