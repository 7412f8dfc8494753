// The compute trees as a list of descriptors: the view id, how the tree is built, and the view options.
// views/index.ts creates each view, binds it, forwards its loads to onDidRefresh, resets it on a
// profile switch and snapshots it from this one table. Adding a tree: one descriptor here (plus its
// name in ComputeViewName, its view in package.json and its command entries in views/commands.ts).
import * as vscode from 'vscode';
import { Views } from '../commandIds';
import type { ExtensionServices } from '../services';
import type { ComputeViewName } from './computeApi';
import type { RemoteTree } from '../trees/remoteTree';
import type { ResourceFilterStore } from '../resources/resourceFilter';
import { ResourcesTree } from '../resources/resourcesTree';
import { StorageTree } from '../storage/storageTree';
import { TasksTree } from '../tasks/tasksTree';
import type { RemoteState } from '../state/index';
import type { ComputePorts } from './ports';

/** What the trees are built from besides the services. */
export interface TreeDeps {
  filter: ResourceFilterStore;
  state: RemoteState;
  ports: ComputePorts;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the element type differs per tree
export type AnyRemoteTree = RemoteTree<any, vscode.TreeItem>;

export interface TreeDescriptor<Tree extends AnyRemoteTree> {
  viewId: string;
  showCollapseAll: boolean;
  create(services: ExtensionServices, deps: TreeDeps): Tree;
}

export const TREE_DESCRIPTORS = {
  resources: { viewId: Views.resources, showCollapseAll: true, create: (services, { filter }) => new ResourcesTree(services, filter) },
  tasks: { viewId: Views.tasks, showCollapseAll: true, create: (services, { state, ports }) => new TasksTree(services, state, (taskId) => ports.taskAnnotation(taskId)) },
  storage: { viewId: Views.storage, showCollapseAll: false, create: (services) => new StorageTree(services) },
} satisfies { [Name in ComputeViewName]: TreeDescriptor<AnyRemoteTree> };

type Descriptors = typeof TREE_DESCRIPTORS;
/** Each tree, typed by its descriptor: `trees.tasks` is a TasksTree. */
export type ComputeTrees = { [Name in ComputeViewName]: ReturnType<Descriptors[Name]['create']> };
export type ComputeTreeViews = { [Name in ComputeViewName]: vscode.TreeView<vscode.TreeItem> };

export const TREE_NAMES = Object.keys(TREE_DESCRIPTORS) as ComputeViewName[];

/** Builds every tree and its view, each pushed into `own` as it is created (the caller disposes them). */
export function createTrees(services: ExtensionServices, deps: TreeDeps, own: vscode.Disposable[]): { trees: ComputeTrees; views: ComputeTreeViews } {
  const trees = {} as Record<ComputeViewName, AnyRemoteTree>;
  const views = {} as ComputeTreeViews;
  for (const name of TREE_NAMES) {
    const descriptor: TreeDescriptor<AnyRemoteTree> = TREE_DESCRIPTORS[name];
    const tree = descriptor.create(services, deps);
    own.push(tree);
    const view = vscode.window.createTreeView(descriptor.viewId, { treeDataProvider: tree, showCollapseAll: descriptor.showCollapseAll });
    own.push(view);
    tree.bindView(view);
    trees[name] = tree;
    views[name] = view;
  }
  return { trees: trees as ComputeTrees, views };
}
