// Keeps the Tasks view current without the user pressing Refresh: while a task is Pending (it will
// change soon), or while the view is visible and `computeToolkit.tasks.autoRefresh` is on. Paused
// when hidden; one timer, so refreshes never overlap; backs off while the platform keeps failing.
import * as vscode from 'vscode';
import { Config } from '../config';
import type { TaskElement, TasksTree } from './tasksTree';

/** Longest wait between attempts while refreshes keep failing. */
const MAX_BACKOFF_MS = 5 * 60_000;

export class TasksAutoRefresh implements vscode.Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private failures = 0;
  private disposed = false;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly tree: TasksTree,
    private readonly view: vscode.TreeView<TaskElement>,
    private readonly config: Config,
    /** Whether there is a profile to refresh for. */
    private readonly hasProfile: () => boolean,
  ) {
    this.subscriptions = [
      // Every settled load (ours, the user's, or after a lifecycle action) restarts the countdown.
      tree.data.onDidChange(() => {
        const state = tree.data.state;
        if (state.kind === 'failed') this.failures += 1;
        else if (state.kind === 'loaded') this.failures = 0;
        this.schedule();
      }),
      view.onDidChangeVisibility(({ visible }) => {
        // Coming back after a while: show fresh rows at once instead of waiting a full interval.
        const state = tree.data.state;
        if (visible && state.kind === 'loaded' && Date.now() - state.loadedAt >= config.tasksRefreshIntervalMs) void tree.data.refresh();
        else this.schedule();
      }),
      config.onDidChange((event) => {
        if (Config.affects(event, 'tasks')) this.schedule();
      }),
    ];
    this.schedule();
  }

  /** Whether the view should be polling right now. */
  get active(): boolean {
    if (!this.hasProfile()) return false;
    return this.tree.hasPending() || (this.view.visible && this.config.tasksAutoRefresh);
  }

  private schedule(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.disposed || !this.active) return;
    const intervalMs = this.config.tasksRefreshIntervalMs;
    const delay = Math.min(intervalMs * 2 ** Math.min(this.failures, 10), Math.max(intervalMs, MAX_BACKOFF_MS));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // A load already running (user refresh) counts; its settle reschedules us.
      if (this.active) void this.tree.data.refresh();
    }, delay);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
