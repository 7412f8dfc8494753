// The compute area: Resources, Tasks and Storage views (from the descriptors in treeDescriptors.ts),
// their commands (views/commands.ts), the create-task wizard, node logs and the storage check.
// Wires the parts together and hands the composition root a ComputeApi.
import * as vscode from 'vscode';
import { registerCommandTable } from '../commands/commandTable';
import { describeError } from '../errors/describeError';
import type { RegisteredArea } from '../areaRegistry';
import type { ExtensionServices } from '../services';
import type { RemoteState } from '../state/index';
import { COMPUTE_COMMANDS } from './commands';
import type { ComputeApi, ComputeViewName } from './computeApi';
import type { ComputeContext } from './computeContext';
import type { ComputePorts } from './ports';
import { runCreateTaskWizard, type RegionHint } from './createTaskWizard';
import { LoadFailureNotice } from './loadFailureNotice';
import { NodeLogViewer } from '../tasks/nodeLog';
import { ResourceFilterStore } from '../resources/resourceFilter';
import { flattenRegions, searchDevices } from '../resources/resourceSearch';
import { snapshotTree } from './snapshot';
import { loadedThing } from '../trees/treeMessages';
import { checkStorage } from '../storage/storageCheck';
import { TaskActions } from '../tasks/taskActions';
import { taskDetailDocument } from '../tasks/taskCommands';
import { TaskItem, type TaskElement } from '../tasks/taskRows';
import { TREE_NAMES, createTrees, type AnyRemoteTree } from './treeDescriptors';

export type { ComputeApi, ComputeViewName, TreeRow, ViewSnapshot } from './computeApi';
export type { NodeLogTarget } from '../tasks/nodeLog';
export type { RegionChoice } from '../resources/resourceSearch';
export type { StorageCheckResult } from '../storage/storageCheck';
export type { TaskCreateInput } from '../tasks/taskInput';

/** `subscriptions`: the registry's list for this area (areaRegistry.ts); each disposable goes in as it is created. */
export function registerCompute(services: ExtensionServices, state: RemoteState, ports: ComputePorts, subscriptions: vscode.Disposable[] = []): RegisteredArea<ComputeApi> {
  const filter = new ResourceFilterStore(services.context.workspaceState, services.config);
  subscriptions.push(filter);
  const { trees, views } = createTrees(services, { filter, state, ports }, subscriptions);
  const tasksView = views.tasks as vscode.TreeView<TaskElement>;

  const actions = new TaskActions(services, trees.tasks);
  const nodeLog = new NodeLogViewer(services, (taskId) => trees.tasks.findTask(taskId)?.status);
  subscriptions.push(nodeLog);

  const revealTask = (taskId: number): void => {
    const task = trees.tasks.findTask(taskId);
    if (!task) return;
    tasksView.reveal(new TaskItem(task), { select: true, focus: false }).then(undefined, (error: unknown) => {
      services.logger.debug(`Tasks: could not reveal task ${taskId}: ${String(error)}`);
    });
  };
  const runCreateWizard = (hint?: RegionHint): Promise<number | undefined> => runCreateTaskWizard({ services, actions, filter, revealTask, state }, hint);
  const context: ComputeContext = { services, ...trees, filter, actions, nodeLog, runCreateWizard };

  const refreshed = new vscode.EventEmitter<ComputeViewName>();
  subscriptions.push(refreshed);
  const failureNotice = new LoadFailureNotice({
    // The same cause reads the same in every view once the view's name is left out.
    causeOf: (error) => describeError(error, '')?.message,
    show: (error, view) => services.reportError(error, vscode.l10n.t('Load {0}', loadedThing(view))),
  });
  for (const name of TREE_NAMES) {
    const tree: AnyRemoteTree = trees[name];
    subscriptions.push(
      tree.data.onDidChange(() => {
        const state = tree.data.state;
        if (state.kind === 'failed') failureNotice.failed(name, state.error);
        else if (state.kind === 'loaded') failureNotice.loaded(name);
        refreshed.fire(name);
      }),
    );
  }
  subscriptions.push(
    // A followed node log whose task stopped running ends with a calm line at once (same store event).
    state.followTasks((change, profile) => {
      if (profile.id !== services.profiles.active?.id) return;
      if (change.removed.length > 0 || change.changed.some(({ before, after }) => before.status !== after.status)) void nodeLog.tick();
    }),
    // A profile switch re-scopes every view at once: nothing of the old profile stays on screen.
    services.profiles.onDidChangeActive(() => {
      nodeLog.stop();
      failureNotice.reset();
      for (const name of TREE_NAMES) trees[name].reset();
    }),
    services.config.onDidChange((event) => {
      if (services.config.affectsResourceFilter(event)) void filter.resetToSettings();
    }),
  );
  subscriptions.push(...registerCommandTable(COMPUTE_COMMANDS, context, services.reportError));

  const api: ComputeApi = {
    onDidRefresh: refreshed.event,
    refresh: (view) => trees[view].refresh(),
    snapshot: async (view, options) => {
      const depth = Math.max(1, options?.depth ?? 1);
      const tree: AnyRemoteTree = trees[view];
      return { message: tree.message(), rows: await snapshotTree(tree, depth) };
    },
    resourceFilter: filter,
    searchRegions: async (signal) => flattenRegions(await searchDevices(services, filter, signal ?? new AbortController().signal)),
    createTask: (input, signal) => actions.create(input, signal),
    pauseTask: (taskId) => actions.lifecycle('pause', taskId),
    recoverTask: (taskId) => actions.lifecycle('recover', taskId),
    stopTask: (taskId) => actions.lifecycle('stop', taskId),
    changePoints: (taskId, points) => actions.changePoints(taskId, points),
    // Same document as the command; errors reach the caller instead of a notification.
    openTaskDetail: (taskId) => services.openReadOnlyDocument(taskDetailDocument(actions, taskId)),
    openNodeLog: (target) => nodeLog.show(target),
    revealTask,
    listedTasks: () => trees.tasks.tasks,
    rerenderTasks: () => trees.tasks.rerender(),
    followNodeLogs: () => nodeLog.tick(),
    isFollowingNodeLog: (target) => nodeLog.following(target),
    checkStorage: (body, signal) => checkStorage(services, body, signal),
  };
  return { api, disposables: subscriptions };
}
