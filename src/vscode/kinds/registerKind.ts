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

export function registerKind<Item>(services: ExtensionServices, state: RemoteState, center: NotificationCenter, descriptor: KindDescriptor<Item>): RegisteredKind<Item> {
  const tree = new KindTree(services, state, descriptor);
  const view = vscode.window.createTreeView(descriptor.viewId, { treeDataProvider: tree });
  tree.bindView(view);
  return { tree, view, disposables: [tree, view, followKindNotices(state, center, descriptor, services)] };
}
