// A kind in the editor from its descriptor alone: its tree and view (kindTree.ts) and its notifications,
// each shown through the one NotificationCenter (CONTRIBUTING "Add a notification kind"), for every
// watched profile's changes.
import * as vscode from 'vscode';
import type { ExtensionServices } from '../services';
import type { RemoteState } from '../state/index';
import type { NotificationCenter } from '../ui/notificationCenter';
import type { KindDescriptor } from './kindDescriptor';
import { KindTree, type KindElement } from './kindTree';

export interface RegisteredKind<Item> {
  tree: KindTree<Item>;
  view: vscode.TreeView<KindElement<Item>>;
  /** The tree, its view and the notification subscription. */
  disposables: vscode.Disposable[];
}

/** Follows the descriptor's notification rules on every watched profile (after the views rendered). */
export function followKindNotices<Item>(state: RemoteState, center: NotificationCenter, descriptor: KindDescriptor<Item>, services: ExtensionServices): vscode.Disposable {
  const notices = descriptor.notices;
  return state.follow(descriptor.state, (change, profile) => {
    if (!notices) return;
    const own = profile.id === services.profiles.active?.id;
    for (const notice of notices(change, profile, own)) center.show(notice.kind, notice.severity, notice.message, notice.actions);
  });
}

export interface KindTreeView<Item> {
  tree: KindTree<Item>;
  view: vscode.TreeView<KindElement<Item>>;
}

/** The kind's tree and its view, each pushed into `own` as it is created (a kind without notifications). */
export function createKindView<Item>(services: ExtensionServices, state: RemoteState, descriptor: KindDescriptor<Item>, own: vscode.Disposable[]): KindTreeView<Item> {
  const tree = new KindTree(services, state, descriptor);
  own.push(tree);
  const view = vscode.window.createTreeView(descriptor.viewId, { treeDataProvider: tree });
  own.push(view);
  tree.bindView(view);
  return { tree, view };
}

export function registerKind<Item>(services: ExtensionServices, state: RemoteState, center: NotificationCenter, descriptor: KindDescriptor<Item>): RegisteredKind<Item> {
  const disposables: vscode.Disposable[] = [];
  const { tree, view } = createKindView(services, state, descriptor, disposables);
  disposables.push(followKindNotices(state, center, descriptor, services));
  return { tree, view, disposables };
}
