// "Show Node Log": one read-only document per node, named after it ("worker-1.log"), that opens at
// its last line and follows the node — through the one node-log follower (core/jobs/nodeLogTail.ts, the
// job terminal's too): each round adds only the new lines, at its interval, scrolled along while the
// cursor is at the end — until the node or its task ends; the header then says why following stopped.
// Lines the platform dropped between two reads are marked; the document keeps at most MAX_LINES.
import * as vscode from 'vscode';
import { taskStatusLabel } from '../ui/format';
import { nodeStatusLabel } from '../ui/statusWords';
import type { TaskNode, TaskStatus } from '../../core/compute/api';
import { FOLLOW_INTERVAL_MS, NodeLogTail } from '../../core/jobs/nodeLogTail';
import type { TaskService } from '../../core/tasks/taskService';
import { taskServiceNow, taskServiceOf } from '../client/computeServices';
import type { ExtensionServices, ReadOnlyDocumentOptions } from '../services';
import { errorSummary } from '../trees/treeMessages';
import { formatTime } from '../ui/dates';

/** A node's log followed through the task service. */
function nodeLogTail(tasks: TaskService, target: { taskId: number; pointId: number; serviceId: number }): NodeLogTail {
  return new NodeLogTail((node, signal) => tasks.nodeLog({ taskId: node.task_id, pointId: node.point_id, serviceId: node.service_id }, signal), { task_id: target.taskId, point_id: target.pointId, service_id: target.serviceId });
}

export interface NodeLogTarget {
  taskId: number;
  taskName: string;
  pointId: number;
  nodeName: string;
  serviceId: number;
  serviceName: string;
}

/** The most lines a node log document keeps (the oldest go first). */
const MAX_LINES = 20_000;
const NODE_PAGE_SIZE = 100;
const ENDED_NODE_STATUSES: ReadonlySet<string> = new Set(['Succeeded', 'Failed', 'End']);

/** Why a log is no longer followed, for its header. */
export type StopReason = { kind: 'task'; status: TaskStatus } | { kind: 'node'; status: string };

interface Follow {
  readonly target: NodeLogTarget;
  readonly options: ReadOnlyDocumentOptions;
  uri?: string;
  /** Created at the first fetch (it reads through the client of the profile active then). */
  tail?: NodeLogTail;
  /** The complete lines seen so far (bounded), gap markers included. */
  readonly lines: string[];
  stopped?: StopReason;
}

/** The document key of a node's log: one document per task, node and service. */
export function nodeLogKey(target: Pick<NodeLogTarget, 'taskId' | 'pointId' | 'serviceId'>): string {
  return `node-log/${target.taskId}/${target.pointId}/${target.serviceId}`;
}

export class NodeLogViewer implements vscode.Disposable {
  private readonly follows = new Map<string, Follow>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private ticking = false;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly services: ExtensionServices,
    /** The task's status as the Tasks view last saw it (undefined when it is not listed). */
    private readonly taskStatus: (taskId: number) => TaskStatus | undefined,
  ) {
    this.subscriptions = [
      vscode.workspace.onDidCloseTextDocument((document) => {
        for (const [key, follow] of this.follows) if (follow.uri === document.uri.toString()) this.follows.delete(key);
        this.stopTimerWhenIdle();
      }),
    ];
  }

  /** Opens (or reveals) the node's log at its end and follows it. Throws when the first fetch fails. */
  async show(target: NodeLogTarget): Promise<vscode.TextEditor> {
    const key = nodeLogKey(target);
    const follow: Follow = this.follows.get(key) ?? {
      target,
      lines: [],
      options: { key, title: logFileName(target), language: 'log', content: () => this.render(follow) },
    };
    follow.stopped = undefined;
    const editor = await this.services.openReadOnlyDocument(follow.options);
    follow.uri = editor.document.uri.toString();
    this.follows.set(key, follow);
    revealEnd(editor);
    this.timer ??= setInterval(() => void this.tick(), FOLLOW_INTERVAL_MS);
    return editor;
  }

  /** True while any node log is followed (or this node's, given a target). */
  following(target?: Pick<NodeLogTarget, 'taskId' | 'pointId' | 'serviceId'>): boolean {
    if (target) {
      const follow = this.follows.get(nodeLogKey(target));
      return follow !== undefined && follow.stopped === undefined && this.timer !== undefined;
    }
    return this.timer !== undefined && [...this.follows.values()].some((follow) => follow.stopped === undefined);
  }

  /** Stops following every log (a profile switch): their documents stay as they are. */
  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    this.follows.clear();
  }

  /** One round: checks each followed node, refreshes its log, and stops those whose node or task ended. */
  async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      for (const follow of [...this.follows.values()]) {
        if (follow.stopped) continue;
        follow.stopped = await this.whyStop(follow.target);
        await this.refresh(follow);
      }
    } finally {
      this.ticking = false;
      this.stopTimerWhenIdle();
    }
  }

  private async whyStop(target: NodeLogTarget): Promise<StopReason | undefined> {
    const status = this.taskStatus(target.taskId);
    // Paused or stopped tasks write no more lines: nothing left to follow.
    if (status !== undefined && status !== 'Running' && status !== 'Pending') return { kind: 'task', status };
    try {
      const nodes = await taskServiceOf(this.services).nodes(target.taskId, { page: 1, pageSize: NODE_PAGE_SIZE });
      const node: TaskNode | undefined = nodes.find((candidate) => candidate.point_id === target.pointId);
      // Only a full first page proves a node is gone; on a longer list it may sit on a later page.
      if (!node) return nodes.length < NODE_PAGE_SIZE ? { kind: 'node', status: 'End' } : undefined;
      return ENDED_NODE_STATUSES.has(node.status) ? { kind: 'node', status: node.status } : undefined;
    } catch (error) {
      this.services.logger.warn(`Node log: could not check node ${target.pointId} of task ${target.taskId}: ${errorSummary(error)}`);
      return undefined;
    }
  }

  /** Refreshes in place, visible or not, keeping the view at the end where the user left it there. */
  private async refresh(follow: Follow): Promise<void> {
    const atEnd = vscode.window.visibleTextEditors.filter((editor) => editor.document.uri.toString() === follow.uri && isAtEnd(editor));
    try {
      const stillOpen = await this.services.refreshReadOnlyDocument(follow.options);
      if (!stillOpen) {
        this.follows.delete(nodeLogKey(follow.target));
        return;
      }
      for (const editor of atEnd) revealEnd(editor);
    } catch (error) {
      this.services.logger.warn(`Node log: refresh failed: ${errorSummary(error)}`);
    }
  }

  private stopTimerWhenIdle(): void {
    if (this.timer !== undefined && ![...this.follows.values()].some((follow) => follow.stopped === undefined)) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** Header + log text. After the first success a failed fetch keeps the last lines and says why. */
  private async render(follow: Follow): Promise<string> {
    const { target, stopped } = follow;
    const header = [
      `# ${vscode.l10n.t('Node {0} (point {1}) · task "{2}" ({3}) · service {4}', target.nodeName, target.pointId, target.taskName, target.taskId, target.serviceName)}`,
      `# ${vscode.l10n.t('Fetched {0}', formatTime(Date.now()))} · ${stopped ? describeStop(stopped) : vscode.l10n.t('following while the node runs')}`,
      '',
    ];
    // Once the node is gone or its task paused or ended there is nothing new to fetch (and the
    // platform refuses: the task has no node any more): keep the last lines.
    if (stopped && follow.tail?.started) return [...header, this.logText(follow)].join('\n');
    try {
      // Through the task service, on the client of the profile the follow started on (CONTRIBUTING "Add a platform operation").
      follow.tail ??= nodeLogTail(taskServiceNow(this.services), target);
      const update = await follow.tail.read();
      if (update.gap) follow.lines.push(vscode.l10n.t('… some lines are missing here: the platform dropped them, or too many came at once …'));
      follow.lines.push(...update.lines);
      if (follow.lines.length > MAX_LINES) follow.lines.splice(0, follow.lines.length - MAX_LINES);
      const text = this.logText(follow);
      return [...header, text.length > 0 ? text : vscode.l10n.t('(the node has written no log lines yet)')].join('\n');
    } catch (error) {
      if (!follow.tail?.started) throw error;
      // The task stopped running between the status check and this fetch: say so calmly.
      const status = this.taskStatus(target.taskId);
      if (status !== undefined && status !== 'Running' && status !== 'Pending') {
        follow.stopped = { kind: 'task', status };
        const calm = [
          `# ${vscode.l10n.t('Node {0} (point {1}) · task "{2}" ({3}) · service {4}', target.nodeName, target.pointId, target.taskName, target.taskId, target.serviceName)}`,
          `# ${vscode.l10n.t('Fetched {0}', formatTime(Date.now()))} · ${describeStop(follow.stopped)}`,
          '',
        ];
        return [...calm, this.logText(follow)].join('\n');
      }
      return [...header, `# ${vscode.l10n.t('Could not refresh: {0} — showing the last lines fetched.', errorSummary(error))}`, '', this.logText(follow)].join('\n');
    }
  }

  /** The lines seen so far and the line still being written. */
  private logText(follow: Follow): string {
    const partial = follow.tail?.partial ?? '';
    return partial === '' ? follow.lines.join('\n') : [...follow.lines, partial].join('\n');
  }

  dispose(): void {
    this.stop();
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}

export function describeStop(reason: StopReason): string {
  switch (reason.kind) {
    case 'task':
      if (reason.status === 'Paused') return vscode.l10n.t('stopped following: the task is paused');
      // "ended (Ended)" would say it twice; another status is worded, never the platform's value.
      return reason.status === 'End' ? vscode.l10n.t('stopped following: the task ended') : vscode.l10n.t('stopped following: the task ended ({0})', taskStatusLabel(reason.status));
    case 'node':
      return vscode.l10n.t('stopped following: the node ended ({0})', nodeStatusLabel(reason.status));
  }
}

/** The document's name: the node's, as a .log file (slashes would make it a path). */
function logFileName(target: Pick<NodeLogTarget, 'nodeName' | 'pointId'>): string {
  const name = target.nodeName.replace(/[\\/]/g, '_') || String(target.pointId);
  return name + '.log';
}

function isAtEnd(editor: vscode.TextEditor): boolean {
  return editor.selection.active.line >= editor.document.lineCount - 1;
}

function revealEnd(editor: vscode.TextEditor): void {
  const end = editor.document.lineAt(editor.document.lineCount - 1).range.end;
  editor.selection = new vscode.Selection(end, end);
  editor.revealRange(new vscode.Range(end, end), vscode.TextEditorRevealType.Default);
}
