// What a tree shows instead of rows: a load error with one action, an empty state, stale data.
// Trees never pop up dialogs; the user acts through the error row or reads the view's message.
// The wording and the actions come from the one error mapping (errors/describeError.ts).
import { Commands } from '../commandIds';
import * as vscode from 'vscode';
import { describeError, type ErrorAction } from '../errors/describeError';
import type { Redactor } from '../../core/log';
import type { LoadState } from './remoteData';

export interface TreeAction {
  title: string;
  command: vscode.Command;
  icon: string;
}

const SECRET_COMMANDS = {
  apiToken: ['Set API Token', Commands.secretsSetToken],
  privateKey: ['Set Private Key', Commands.secretsSetPrivateKey],
  platformPublicKey: ['Set Platform Public Key', Commands.secretsSetPlatformPublicKey],
  modelApiKey: ['Set Model API Key', Commands.secretsSetModelApiKey],
} as const;

function treeAction(action: ErrorAction, refreshCommand: string): TreeAction {
  const make = (title: string, command: string, icon: string, args?: unknown[]): TreeAction => ({
    title,
    icon,
    command: { title, command, ...(args ? { arguments: args } : {}) },
  });
  switch (action.kind) {
    case 'retry':
      return make('Retry', refreshCommand, 'refresh');
    case 'openSignRequest':
      return make('Open Sign Request', Commands.requestSign, 'debug', action.operation ? [{ operation: action.operation }] : undefined);
    case 'configureProfile':
      return make('Configure Profile', Commands.profileEdit, 'gear');
    case 'createProfile':
      return make('Create Profile', Commands.profileCreate, 'add');
    case 'connectSandbox':
      return make('Connect to Local Sandbox', Commands.profileConnectSandbox, 'beaker');
    case 'setSecret': {
      const [title, command] = SECRET_COMMANDS[action.secret];
      return make(title, command, 'key');
    }
    case 'showFingerprints':
      return make('Show Key Fingerprints', Commands.keysShowFingerprints, 'key');
    case 'showLogs':
      return make('Show Logs', Commands.showLogs, 'output');
  }
}

/** The first line of an error's message, for a log line or a document header. */
export function errorSummary(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}

/** The message and the most useful action for a failed load, e.g. "Load tasks failed: HTTP 503…". */
export function describeLoadError(
  error: unknown,
  what: string,
  refreshCommand: string,
  redactor: Redactor,
): { message: string; action: TreeAction } {
  const report = describeError(error, `Load ${what}`, true);
  // Messages can quote server text; the Redactor keeps any secret out of the view.
  const message = redactor.redact(report?.message ?? `Load ${what} was cancelled.`);
  const first = report?.actions[0] ?? { kind: 'showLogs' as const };
  return { message, action: treeAction(first, refreshCommand) };
}

/** A row that replaces the list when it could not be loaded; clicking it runs the fixing action. */
export class ErrorRow extends vscode.TreeItem {
  readonly kind = 'error' as const;
  constructor(
    readonly error: unknown,
    what: string,
    refreshCommand: string,
    redactor: Redactor,
  ) {
    const { message, action } = describeLoadError(error, what, refreshCommand, redactor);
    super(action.title, vscode.TreeItemCollapsibleState.None);
    this.id = `error/${what}`;
    this.description = `could not load ${what}`;
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
      const { message } = describeLoadError(state.error, what, '', redactor);
      if (!state.stale) return `⚠ ${message}`;
      return `⚠ ${message} Showing ${what} from ${new Date(state.stale.loadedAt).toLocaleTimeString()}.`;
    }
    case 'loaded':
      return isEmpty(state.value) ? emptyText : undefined;
  }
}
