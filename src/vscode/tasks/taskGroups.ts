// Rows of the Tasks view that are not tasks: the collapsed "Ended (N)" group whose tasks load page by
// page, and its "Load more…" row.
import * as vscode from 'vscode';
import { Commands } from '../commandIds';

const formatCount = (n: number): string => n.toLocaleString('en-US');

export class EndedGroupItem extends vscode.TreeItem {
  readonly kind = 'ended' as const;
  /**
   * `count`: what the platform holds (undefined until known); `matching`: rows that pass the view's
   * filter once every ended task was read (undefined without a filter).
   */
  constructor(count: number | undefined, matching: number | undefined, failed: boolean) {
    const total = count === undefined ? '…' : formatCount(count);
    super(vscode.l10n.t('Ended ({0})', matching === undefined ? total : vscode.l10n.t('{0} of {1} match', formatCount(matching), total)), vscode.TreeItemCollapsibleState.Collapsed);
    this.id = 'tasks/ended';
    this.description = failed ? vscode.l10n.t('could not load') : undefined;
    this.tooltip = vscode.l10n.t('Stopped tasks (status End). They load page by page when this group is expanded.');
    this.iconPath = new vscode.ThemeIcon('archive');
    this.contextValue = 'endedGroup';
  }
}

export class LoadMoreItem extends vscode.TreeItem {
  readonly kind = 'loadMore' as const;
  constructor(
    shown: number,
    count: number,
    readonly parent: EndedGroupItem,
  ) {
    super(vscode.l10n.t('Load more…'), vscode.TreeItemCollapsibleState.None);
    this.id = 'tasks/ended/more';
    this.description = vscode.l10n.t('showing {0} of {1}', formatCount(shown), formatCount(count));
    this.iconPath = new vscode.ThemeIcon('ellipsis');
    this.contextValue = 'loadMore';
    this.command = { title: vscode.l10n.t('Load More Ended Tasks'), command: Commands.tasksLoadMoreEnded };
  }
}
