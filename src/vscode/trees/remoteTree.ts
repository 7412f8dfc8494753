// What the Resources, Tasks and Storage trees share: one RemoteData list behind a TreeDataProvider,
// the view's message line kept in step with the load state, and one refresh with the view's progress bar.
import * as vscode from 'vscode';
import type { ExtensionServices } from '../services';
import { RemoteData } from './remoteData';

export abstract class RemoteTree<T, E extends vscode.TreeItem> implements vscode.TreeDataProvider<E>, vscode.Disposable {
  readonly data: RemoteData<T>;
  private readonly changed = new vscode.EventEmitter<E | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  protected readonly disposables: vscode.Disposable[] = [];
  protected view: vscode.TreeView<E> | undefined;

  constructor(
    protected readonly services: ExtensionServices,
    private readonly viewId: string,
    load: (signal: AbortSignal) => Promise<T>,
  ) {
    this.data = new RemoteData(load);
    this.disposables.push(this.data, this.changed, this.data.onDidChange(() => this.render()));
  }

  /** The view line above the rows (errors, empty states); undefined hides it. */
  abstract message(): string | undefined;

  abstract getChildren(element?: E): Promise<E[]>;

  bindView(view: vscode.TreeView<E>): void {
    this.view = view;
    this.render();
  }

  /**
   * Reloads from the platform, with the view's progress bar (user-initiated refresh). The answer comes
   * from a load that started after the click: one already running may predate a key or profile change.
   */
  refresh(): Promise<void> {
    return Promise.resolve(vscode.window.withProgress({ location: { viewId: this.viewId } }, () => this.data.refreshAfterChange()));
  }

  /** Profile switch: drop the rows of the old profile (trees with more state override this). */
  reset(): void {
    this.data.reset();
  }

  getTreeItem(element: E): vscode.TreeItem {
    return element;
  }

  /** Re-renders every row and the message line (after a load, a filter change, an optimistic insert). */
  protected render(): void {
    if (this.view) this.view.message = this.message();
    this.changed.fire(undefined);
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }
}
