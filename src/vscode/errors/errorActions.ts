// The one table from an error action to what the user clicks: its title, codicon and the command it
// runs with its arguments. Notifications (reportError.ts), tree error rows (trees/treeMessages.ts)
// and chat turns (chat/errorBridge.ts) all take their buttons from here, so a label or a target changes
// in one place. Retry is the caller's own (re-run the command, refresh the view, regenerate the reply).

import * as vscode from 'vscode';
import type { OperationId } from '../../core/compute/api';
import { Commands, type CommandId } from '../commandIds';
import type { SecretKind } from '../../core/secretKinds';

export type ErrorAction =
  | { kind: 'showLogs' }
  | { kind: 'retry' }
  | { kind: 'openSignRequest'; operation?: OperationId }
  | { kind: 'configureProfile' }
  | { kind: 'createProfile' }
  | { kind: 'connectSandbox' }
  | { kind: 'setSecret'; secret: SecretKind }
  | { kind: 'showFingerprints' };

export interface ActionTarget {
  title: string;
  /** Codicon id for tree rows. */
  icon: string;
  command: CommandId;
  args: unknown[];
}

/** What the table needs to know about the moment: Configure Profile edits one, or creates the first. */
export interface ActionSituation {
  hasProfile: boolean;
}

const SET_SECRET: Record<SecretKind, { title: () => string; command: CommandId }> = {
  apiToken: { title: () => vscode.l10n.t('Set API Token'), command: Commands.secretsSetToken },
  privateKey: { title: () => vscode.l10n.t('Set Private Key'), command: Commands.secretsSetPrivateKey },
  platformPublicKey: { title: () => vscode.l10n.t('Set Platform Public Key'), command: Commands.secretsSetPlatformPublicKey },
  modelApiKey: { title: () => vscode.l10n.t('Set Model API Key'), command: Commands.secretsSetModelApiKey },
};

type Targets = { [Kind in Exclude<ErrorAction['kind'], 'retry'>]: (action: Extract<ErrorAction, { kind: Kind }>, situation: ActionSituation) => ActionTarget };

const TARGETS: Targets = {
  showLogs: () => ({ title: vscode.l10n.t('Show Logs'), icon: 'output', command: Commands.showLogs, args: [] }),
  openSignRequest: (action) => ({
    title: vscode.l10n.t('Open Sign Request'),
    icon: 'debug',
    command: Commands.requestSign,
    args: action.operation ? [{ operation: action.operation }] : [],
  }),
  configureProfile: (_action, situation) => ({
    title: vscode.l10n.t('Configure Profile'),
    icon: 'gear',
    command: situation.hasProfile ? Commands.profileEdit : Commands.profileCreate,
    args: [],
  }),
  createProfile: () => ({ title: vscode.l10n.t('Create Profile'), icon: 'add', command: Commands.profileCreate, args: [] }),
  connectSandbox: () => ({ title: vscode.l10n.t('Connect to Local Sandbox'), icon: 'beaker', command: Commands.profileConnectSandbox, args: [] }),
  setSecret: (action) => ({ title: SET_SECRET[action.secret].title(), icon: 'key', command: SET_SECRET[action.secret].command, args: [] }),
  showFingerprints: () => ({ title: vscode.l10n.t('Show Key Fingerprints'), icon: 'key', command: Commands.keysShowFingerprints, args: [] }),
};

export function retryTitle(): string {
  return vscode.l10n.t('Retry');
}

/** The button or row for an action; undefined for Retry (the caller knows what to repeat). */
export function actionTarget(action: ErrorAction, situation: ActionSituation): ActionTarget | undefined {
  if (action.kind === 'retry') return undefined;
  const target = TARGETS[action.kind] as (action: ErrorAction, situation: ActionSituation) => ActionTarget;
  return target(action, situation);
}

/** Runs an action: its command, or `retry` for Retry. */
export async function runErrorAction(action: ErrorAction, situation: ActionSituation, retry?: () => unknown): Promise<void> {
  const target = actionTarget(action, situation);
  if (target) await vscode.commands.executeCommand(target.command, ...target.args);
  else await retry?.();
}
