// Notifications on task state changes for the active profile: started (with Open URL for public
// services), ended, a node restarting or failing, stuck in Pending. Polls through the core
// TaskWatcher, so the cost is one task-list request per interval (plus at most one node list),
// none while every task is at rest, slower while the window is unfocused, backing off on errors.

import * as vscode from 'vscode';
import type { TaskSummary } from '../../core/compute/api';
import type { TaskEvent } from '../../core/tasks/taskEvents';
import { TaskWatcher, WATCH_LIST_PARAMS } from '../../core/tasks/taskWatcher';
import { Config } from '../config';
import type { ExtensionServices } from '../services';
import { plain, type NotificationCenter } from '../ui/notificationCenter';

export interface TaskNotifierHooks {
  /** Reveals the task in the Tasks view. */
  showTask(taskId: number): void;
  /** Called after every successful poll with the watched tasks (burn rate, budgets, timers). */
  onPoll(tasks: readonly TaskSummary[]): void;
}

export class TaskNotifier implements vscode.Disposable {
  private watcher: TaskWatcher | undefined;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly services: ExtensionServices,
    private readonly center: NotificationCenter,
    private readonly hooks: TaskNotifierHooks,
  ) {
    this.subscriptions = [
      services.profiles.onDidChangeActive(() => this.restart()),
      vscode.window.onDidChangeWindowState((state) => {
        this.watcher?.setFocused(state.focused);
        // Back at the window after a quiet spell: one look, in case tasks changed elsewhere.
        if (state.focused && this.watcher && !this.watcher.active) this.watcher.wake();
      }),
      services.config.onDidChange((event) => {
        if (Config.affects(event, 'notifications')) this.restart();
      }),
    ];
    this.restart();
  }

  /** True while polling (some task can change on its own). */
  get active(): boolean {
    return this.watcher?.active ?? false;
  }

  /** Polls now: after a create, a recover, a scale, or anything else that sets tasks moving. */
  wake(): void {
    this.watcher?.wake();
  }

  private restart(): void {
    this.watcher?.dispose();
    this.watcher = undefined;
    const profile = this.services.profiles.active;
    if (!profile) return;
    const { config } = this.services;
    this.watcher = new TaskWatcher(
      {
        listTasks: async (signal) => (await this.services.computeClient().call('task.list', WATCH_LIST_PARAMS, { signal })).results,
        listNodes: config.notificationEnabled('nodeProblems')
          ? async (taskId, signal) => (await this.services.computeClient().call('node.list', { task_id: taskId }, { signal })).results
          : undefined,
        now: () => Date.now(),
        setTimer: (callback, ms) => setTimeout(callback, ms),
        clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
      },
      (events, tasks) => {
        for (const event of events) this.announce(event);
        this.hooks.onPoll(tasks);
      },
      { intervalMs: config.watchIntervalMs, stuckAfterMs: config.stuckPendingMs },
      (error) => this.services.logger.warn(`Task watch: ${error instanceof Error ? error.message : String(error)}`),
    );
    this.watcher.setFocused(vscode.window.state.focused);
    this.watcher.wake();
  }

  private announce(event: TaskEvent): void {
    const { config } = this.services;
    const showTask = { title: vscode.l10n.t('Show Task'), run: () => this.hooks.showTask(event.taskId) };
    const name = plain(event.taskName);
    switch (event.kind) {
      case 'started': {
        if (!config.notificationEnabled('taskStarted')) return;
        const url = event.urls[0];
        const actions = url ? [{ title: vscode.l10n.t('Open URL'), run: () => vscode.env.openExternal(vscode.Uri.parse(url, true)) }, showTask] : [showTask];
        this.center.show('taskStarted', 'info', vscode.l10n.t('Task "{0}" is running.', name), actions);
        return;
      }
      case 'ended':
        if (!config.notificationEnabled('taskEnded')) return;
        this.center.show('taskEnded', 'warning', vscode.l10n.t('Task "{0}" has ended (it was {1}).', name, event.from), [showTask]);
        return;
      case 'stuckPending':
        if (!config.notificationEnabled('stuckPending')) return;
        this.center.show(
          'stuckPending',
          'warning',
          vscode.l10n.t('Task "{0}" has been Pending for {1} minutes: the region may have no free capacity.', name, Math.round(event.pendingMs / 60_000)),
          [showTask],
        );
        return;
      case 'nodeRestarted':
        if (!config.notificationEnabled('nodeProblems')) return;
        this.center.show(
          'nodeProblems',
          'warning',
          event.reason
            ? vscode.l10n.t('A node of task "{0}" restarted (restart {1}): {2}', name, event.restartCount, plain(event.reason, 160))
            : vscode.l10n.t('A node of task "{0}" restarted (restart {1}).', name, event.restartCount),
          [showTask],
        );
        return;
      case 'nodeFailed':
        if (!config.notificationEnabled('nodeProblems')) return;
        this.center.show(
          'nodeProblems',
          'error',
          event.reason ? vscode.l10n.t('A node of task "{0}" failed: {1}', name, plain(event.reason, 160)) : vscode.l10n.t('A node of task "{0}" failed.', name),
          [showTask],
        );
        return;
    }
  }

  dispose(): void {
    this.watcher?.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
