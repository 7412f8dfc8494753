// What a tree shows instead of rows: a load error with one action, an empty state, stale data.
// Trees never pop up dialogs; the user acts through the error row or reads the view's message.
// The wording and the actions come from the one error mapping (errors/describeError.ts).
import * as vscode from 'vscode';
import { Commands, type CommandId } from '../commandIds';
import { describeError } from '../errors/describeError';
import { actionTarget, retryTitle, type ErrorAction } from '../errors/errorActions';
import type { Redactor } from '../../core/log';
import type { LoadState } from './remoteData';
import { errorText } from '../errors/errorText';
import { formatTime } from '../ui/dates';

export interface TreeAction {
  title: string;
  command: vscode.Command;
  icon: string;
}

/** The row's action from the one table (errors/errorActions.ts); Retry refreshes the view. */
function treeAction(action: ErrorAction, refreshCommand: CommandId, hasProfile: boolean): TreeAction {
  const target = actionTarget(action, { hasProfile });
  if (!target) return { title: retryTitle(), icon: 'refresh', command: { title: retryTitle(), command: refreshCommand } };
  const args = target.args.length > 0 ? { arguments: target.args } : {};
  return { title: target.title, icon: target.icon, command: { title: target.title, command: target.command, ...args } };
}

/** The first line of an error's message, for a log line or a document header. */
export function errorSummary(error: unknown): string {
  const text = errorText(error);
  return text.split('\n')[0] ?? text;
}

/**
 * A failed load as a view shows it: a one-line summary for the row and the message line, the whole
 * explanation for the tooltip (shown once as a notification by LoadFailureNotice), and the most useful action.
 */
/** What a view loads, in the display language ("tasks", "ended tasks", …; also the row's id). */
export function loadedThing(what: string): string {
  switch (what) {
    case 'tasks':
      return vscode.l10n.t('tasks');
    case 'ended tasks':
      return vscode.l10n.t('ended tasks');
    case 'nodes':
      return vscode.l10n.t('nodes');
    case 'resources':
      return vscode.l10n.t('resources');
    case 'storage':
      return vscode.l10n.t('storage');
    default:
      return what;
  }
}

export function describeLoadError(
  error: unknown,
  what: string,
  refreshCommand: CommandId,
  redactor: Redactor,
): { summary: string; message: string; action: TreeAction } {
  const report = describeError(error, vscode.l10n.t('Load {0}', loadedThing(what)), true);
  // Messages can quote server text; the Redactor keeps any secret out of the view.
  const cancelled = vscode.l10n.t('Load {0} was cancelled.', loadedThing(what));
  const message = redactor.redact(report?.message ?? cancelled);
  const summary = redactor.redact(report?.summary ?? cancelled);
  const first = report?.actions[0] ?? { kind: 'showLogs' as const };
  // Error rows exist only while a profile is active (trees show nothing without one).
  return { summary, message, action: treeAction(first, refreshCommand, true) };
}

/** A row that replaces the list when it could not be loaded: short, with the whole story in its tooltip. */
export class ErrorRow extends vscode.TreeItem {
  readonly kind = 'error' as const;
  constructor(
    readonly error: unknown,
    what: string,
    refreshCommand: CommandId,
    redactor: Redactor,
  ) {
    const { message, action } = describeLoadError(error, what, refreshCommand, redactor);
    super(action.title, vscode.TreeItemCollapsibleState.None);
    this.id = `error/${what}`;
    this.description = vscode.l10n.t('could not load {0}', what);
    this.tooltip = message;
    this.iconPath = new vscode.ThemeIcon(action.icon, new vscode.ThemeColor('errorForeground'));
    this.command = action.command;
    this.contextValue = 'error';
  }
}

/** A quiet row for "nothing here" inside an expanded item (views use TreeView.message instead). */
export class InfoRow extends vscode.TreeItem {
  readonly kind = 'info' as const;
  constructor(id: string, label: string, icon = 'info') {
    super(label, vscode.TreeItemCollapsibleState.None);
    this.id = id;
    this.iconPath = new vscode.ThemeIcon(icon);
    this.contextValue = 'info';
  }
}

/**
 * The view's message line for a list state: the error (also while stale rows are kept), the empty
 * state, or nothing when the rows speak for themselves.
 */
export function viewMessage<T>(
  state: LoadState<T>,
  what: string,
  redactor: Redactor,
  isEmpty: (value: T) => boolean,
  emptyText: string,
): string | undefined {
  switch (state.kind) {
    case 'idle':
      return undefined;
    case 'failed': {
      const { summary } = describeLoadError(state.error, what, Commands.showLogs, redactor);
      if (!state.stale) return `⚠ ${summary}`;
      return `⚠ ${summary} ${vscode.l10n.t('Showing {0} from {1}.', what, formatTime(state.stale.loadedAt))}`;
    }
    case 'loaded':
      return isEmpty(state.value) ? emptyText : undefined;
  }
}
