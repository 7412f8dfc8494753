// Notifications on task state changes of every watched profile: started (with Open URL for public
// services), ended, a node restarting or failing, stuck in Pending. It lists no tasks: it follows
// the remote-state store (state/), after the Tasks view has taken the same change. Node checks (at
// most one node list per poll) run for the active profile only, while their notifications are on.

import * as vscode from 'vscode';
import type { TaskSummary } from '../../core/compute/api';
import type { StateChange } from '../../core/state/definition';
import type { TaskEvent } from '../../core/tasks/taskEvents';
import { TaskWatcher } from '../../core/tasks/taskWatcher';
import { Config } from '../config';
import { taskServiceFor } from '../client/computeServices';
import type { ExtensionServices, Profile } from '../services';
import type { RemoteState } from '../state/index';
import { errorMessage } from '../../shared/errorMessage';
import { plain, type NotificationAction, type NotificationCenter } from '../ui/notificationCenter';
import { counted } from '../ui/counts';

export interface TaskNotifierHooks {
  /** Reveals the task in the Tasks view (active profile). */
  showTask(taskId: number): void;
}

export class TaskNotifier implements vscode.Disposable {
  /** One watcher (what was seen) per profile. */
  private readonly watchers = new Map<string, TaskWatcher>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly services: ExtensionServices,
    private readonly center: NotificationCenter,
    private readonly state: RemoteState,
    private readonly hooks: TaskNotifierHooks,
  ) {
    this.subscriptions = [
      // Not awaited: the task events are diffed at once (in order), and a slow node check must never
      // hold up the store's poll (a Refresh waits for it).
      state.followTasks((change, profile) => {
        void this.take(change, profile);
      }),
      services.config.onDidChange((event) => {
        if (Config.affects(event, 'notifications.nodeProblems')) this.watchers.clear();
      }),
      state.onDidChangeWatched(() => {
        for (const id of this.watchers.keys()) if (!state.of(id)) this.watchers.delete(id);
      }),
    ];
  }

  /** True while the active profile is being polled (some task can change on its own). */
  get active(): boolean {
    return this.state.active?.scheduler.active ?? false;
  }

  /** Polls now: after a create, a recover, a scale, or anything else that sets tasks moving. */
  wake(): void {
    this.state.wake();
  }

  private watcherFor(profile: Profile): TaskWatcher {
    let watcher = this.watchers.get(profile.id);
    if (!watcher) {
      const isActive = (): boolean => this.services.profiles.active?.id === profile.id;
      const checkNodes = this.services.config.notificationEnabled('nodeProblems');
      watcher = new TaskWatcher(
        {
          ...(checkNodes
            ? {
                listNodes: async (taskId: number, signal?: AbortSignal) =>
                  isActive() ? taskServiceFor(this.services, profile).nodes(taskId, undefined, signal) : [],
              }
            : {}),
          now: () => Date.now(),
        },
        this.services.config.stuckPendingMs,
      );
      this.watchers.set(profile.id, watcher);
    }
    return watcher;
  }

  private async take(change: StateChange<TaskSummary>, profile: Profile): Promise<void> {
    const watcher = this.watcherFor(profile);
    const { events, nodeError } = await watcher.take(change);
    if (nodeError !== undefined) this.services.logger.warn(`Task watch (nodes): ${errorMessage(nodeError)}`);
    for (const event of events) this.announce(event, profile);
  }

  private announce(event: TaskEvent, profile: Profile): void {
    const { config } = this.services;
    const isActive = this.services.profiles.active?.id === profile.id;
    const showTask = { title: vscode.l10n.t('Show Task'), run: () => this.hooks.showTask(event.taskId) };
    // Another profile's news says whose it is; Show Task reveals rows of the active profile only.
    const center = {
      show: (kind: Parameters<NotificationCenter['show']>[0], level: Parameters<NotificationCenter['show']>[1], message: string, actions: NotificationAction[] = []): void => {
        this.center.show(kind, level, isActive ? message : vscode.l10n.t('[{0}] {1}', plain(profile.label, 40), message), isActive ? actions : actions.filter((action) => action !== showTask));
      },
    };
    const name = plain(event.taskName);
    switch (event.kind) {
      case 'started': {
        if (!config.notificationEnabled('taskStarted')) return;
        const url = event.urls[0];
        const actions = url ? [{ title: vscode.l10n.t('Open URL'), run: () => vscode.env.openExternal(vscode.Uri.parse(url, true)) }, showTask] : [showTask];
        center.show('taskStarted', 'info', vscode.l10n.t('Task "{0}" is running.', name), actions);
        return;
      }
      case 'ended':
        if (!config.notificationEnabled('taskEnded')) return;
        center.show('taskEnded', 'warning', vscode.l10n.t('Task "{0}" has ended (it was {1}).', name, event.from), [showTask]);
        return;
      case 'stuckPending':
        if (!config.notificationEnabled('stuckPending')) return;
        center.show(
          'stuckPending',
          'warning',
          vscode.l10n.t('Task "{0}" has been Pending for {1}: the region may have no free capacity.', name, counted(Math.round(event.pendingMs / 60_000), 'minute')),
          [showTask],
        );
        return;
      case 'nodeRestarted':
        if (!config.notificationEnabled('nodeProblems')) return;
        center.show(
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
        center.show(
          'nodeProblems',
          'error',
          event.reason ? vscode.l10n.t('A node of task "{0}" failed: {1}', name, plain(event.reason, 160)) : vscode.l10n.t('A node of task "{0}" failed.', name),
          [showTask],
        );
        return;
    }
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
