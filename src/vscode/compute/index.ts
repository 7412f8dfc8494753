// The compute area: Resources, Tasks and Storage views, their commands, the create-task wizard, node
// logs and the storage check. Wires the parts together and hands the composition root a ComputeApi.
import * as vscode from 'vscode';
import type { ExtensionServices } from '../services';
import { registerGuarded } from './commandGuard';
import type { ComputeApi, ComputeViewName } from './computeApi';
import { runCreateTaskWizard, type RegionHint } from './createTaskWizard';
import { NodeLogViewer } from './nodeLog';
import { registerResourceCommands } from './resourceCommands';
import { ResourceFilterStore } from './resourceFilter';
import { flattenRegions, searchDevices } from './resourceSearch';
import { RESOURCES_VIEW_ID, ResourcesTree } from './resourcesTree';
import { snapshotTree } from './snapshot';
import { checkStorage, runStorageCheckWizard } from './storageCheck';
import { STORAGE_VIEW_ID, StorageTree } from './storageTree';
import { TaskActions } from './taskActions';
import { registerTaskCommands, taskDetailDocument } from './taskCommands';
import { TasksAutoRefresh } from './tasksAutoRefresh';
import { TaskItem, TASKS_VIEW_ID, TasksTree } from './tasksTree';

export type { ComputeApi, ComputeViewName, TreeRow, ViewSnapshot } from './computeApi';
export type { NodeLogTarget } from './nodeLog';
export type { RegionChoice } from './resourceSearch';
export type { StorageCheckResult } from './storageCheck';
export type { TaskCreateInput } from './taskInput';

export function registerCompute(services: ExtensionServices): ComputeApi {
  const subscriptions = services.context.subscriptions;

  const filter = new ResourceFilterStore(services.context.workspaceState);
  const resources = new ResourcesTree(services, filter);
  const tasks = new TasksTree(services);
  const storage = new StorageTree(services);
  const resourcesView = vscode.window.createTreeView(RESOURCES_VIEW_ID, { treeDataProvider: resources, showCollapseAll: true });
  const tasksView = vscode.window.createTreeView(TASKS_VIEW_ID, { treeDataProvider: tasks, showCollapseAll: true });
  const storageView = vscode.window.createTreeView(STORAGE_VIEW_ID, { treeDataProvider: storage });
  resources.bindView(resourcesView);
  tasks.bindView(tasksView);
  storage.bindView(storageView);

  const actions = new TaskActions(services, tasks);
  const nodeLog = new NodeLogViewer(services, (taskId) => tasks.findTask(taskId)?.status);
  const autoRefresh = new TasksAutoRefresh(tasks, tasksView, () => services.profiles.active !== undefined);

  const revealTask = (taskId: number): void => {
    const task = tasks.findTask(taskId);
    if (!task) return;
    tasksView.reveal(new TaskItem(task), { select: true, focus: false }).then(undefined, (error: unknown) => {
      services.logger.debug(`Tasks: could not reveal task ${taskId}: ${String(error)}`);
    });
  };
  const runCreateWizard = (hint?: RegionHint): Promise<number | undefined> => runCreateTaskWizard({ services, actions, filter, revealTask }, hint);

  const refreshed = new vscode.EventEmitter<ComputeViewName>();
  const views = { resources: { tree: resources }, tasks: { tree: tasks }, storage: { tree: storage } } as const;

  subscriptions.push(
    filter,
    resources,
    tasks,
    storage,
    resourcesView,
    tasksView,
    storageView,
    nodeLog,
    autoRefresh,
    refreshed,
    resources.data.onDidChange(() => refreshed.fire('resources')),
    tasks.data.onDidChange(() => refreshed.fire('tasks')),
    storage.data.onDidChange(() => refreshed.fire('storage')),
    // A profile switch re-scopes every view at once: nothing of the old profile stays on screen.
    services.profiles.onDidChangeActive(() => {
      nodeLog.stop();
      resources.data.reset();
      tasks.reset();
      storage.data.reset();
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('computeToolkit.resources.deviceType') || event.affectsConfiguration('computeToolkit.resources.taskType')) {
        void filter.resetToSettings();
      }
    }),
    ...registerResourceCommands({ services, tree: resources, filter, runCreateWizard }),
    ...registerTaskCommands({ services, tree: tasks, actions, nodeLog, runCreateWizard }),
    registerGuarded(services, 'computeToolkit.storage.refresh', 'Refresh storage', () => storage.refresh()),
    registerGuarded(services, 'computeToolkit.storage.check', 'Check storage credentials', (arg) => runStorageCheckWizard(services, arg, () => storage.listed())),
  );

  return {
    ready: true,
    onDidRefresh: refreshed.event,
    refresh: (view) => views[view].tree.refresh(),
    refreshAll: async () => {
      await Promise.all([resources.refresh(), tasks.refresh(), storage.refresh()]);
    },
    snapshot: async (view, options) => {
      const depth = Math.max(1, options?.depth ?? 1);
      // One call per provider type: each tree has its own element type.
      const rows =
        view === 'resources'
          ? await snapshotTree(resources, depth)
          : view === 'tasks'
            ? await snapshotTree(tasks, depth)
            : await snapshotTree(storage, depth);
      return { message: views[view].tree.message(), rows };
    },
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
    listedTasks: () => tasks.tasks,
    checkStorage: (body, signal) => checkStorage(services, body, signal),
  };
}
