// "Show Node Log": one reusable read-only document (key `node-log`) that follows the node while its
// task runs — it refreshes periodically while it is the active editor, and stops once closed.
import * as vscode from 'vscode';
import type { TaskStatus } from '../../core/compute/api';
import type { ExtensionServices, ReadOnlyDocumentOptions } from '../services';
import { errorSummary } from './treeMessages';

export interface NodeLogTarget {
  taskId: number;
  taskName: string;
  pointId: number;
  nodeName: string;
  serviceId: number;
  serviceName: string;
}

const LOG_KEY = 'node-log';
/** Constant, so every node reuses the same editor tab instead of piling up tabs. */
const LOG_TITLE = 'Node Log.log';
/** Logs move faster than task status; the platform's ≥10 s advice is for the task list. */
const FOLLOW_INTERVAL_MS = 5_000;

export class NodeLogViewer implements vscode.Disposable {
  private target: NodeLogTarget | undefined;
  private documentUri: string | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private ticking = false;
  private lastLogs: string | undefined;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly services: ExtensionServices,
    /** The task's status as the Tasks view last saw it (undefined when it is not listed). */
    private readonly taskStatus: (taskId: number) => TaskStatus | undefined,
  ) {
    this.subscriptions = [
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (document.uri.toString() === this.documentUri) this.stop();
      }),
    ];
  }

  /** Opens (or retargets) the log document and starts following. Throws when the first fetch fails. */
  async show(target: NodeLogTarget): Promise<vscode.TextEditor> {
    this.stop();
    this.target = target;
    this.lastLogs = undefined;
    const editor = await this.services.openReadOnlyDocument(this.documentOptions());
    this.documentUri = editor.document.uri.toString();
    this.timer = setInterval(() => void this.tick(), FOLLOW_INTERVAL_MS);
    return editor;
  }

  get following(): boolean {
    return this.timer !== undefined;
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private documentOptions(): ReadOnlyDocumentOptions {
    return { key: LOG_KEY, title: LOG_TITLE, language: 'log', content: () => this.render() };
  }

  private async tick(): Promise<void> {
    const target = this.target;
    if (this.ticking || !target || !this.documentUri) return;
    const status = this.taskStatus(target.taskId);
    if (status !== 'Running' && status !== 'Pending') {
      // Paused or stopped tasks write no more lines: nothing left to follow.
      this.stop();
      return;
    }
    this.ticking = true;
    try {
      // Refresh in place, visible or not, without taking the focus from whatever the user is doing.
      const stillOpen = await this.services.refreshReadOnlyDocument(this.documentOptions());
      if (!stillOpen) this.stop();
    } catch (error) {
      this.services.logger.warn(`Node log: refresh failed: ${errorSummary(error)}`);
    } finally {
      this.ticking = false;
    }
  }

  /** Header + log text. After the first success a failed fetch keeps the last lines and says why. */
  private async render(): Promise<string> {
    const target = this.target;
    if (!target) return 'No node selected.';
    const status = this.taskStatus(target.taskId);
    const following = status === 'Running' || status === 'Pending';
    const header = [
      `# Node ${target.nodeName} (point ${target.pointId}) · task "${target.taskName}" (${target.taskId}) · service ${target.serviceName}`,
      `# Fetched ${new Date().toLocaleTimeString()}${following ? ' · following while the task runs' : ''}`,
      '',
    ];
    try {
      const { logs } = await this.services
        .computeClient()
        .call('node.log', { task_id: target.taskId, point_id: target.pointId, service_id: target.serviceId });
      this.lastLogs = logs;
      return [...header, logs.length > 0 ? logs : '(the node has written no log lines yet)'].join('\n');
    } catch (error) {
      if (this.lastLogs === undefined) throw error;
      return [...header, `# Could not refresh: ${errorSummary(error)} — showing the last lines fetched.`, '', this.lastLogs].join('\n');
    }
  }

  dispose(): void {
    this.stop();
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
