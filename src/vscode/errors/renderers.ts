// The chat turn's and the model provider's renderings of the one error classification
// (core/errors/classify.ts); notifications and tree rows are describeError.ts. Every message goes
// through the Redactor: a server may echo the key it was given.

import * as vscode from 'vscode';
import { classifyError, type ErrorActionKey } from '../../core/errors/classify';
import type { Redactor } from '../../core/log';
import type { ChatAction, TurnError } from '../../shared/protocol';
import { hintText, whatHappened } from './errorWords';

/** The chat's own buttons for the table's actions (the webview knows only these). */
const CHAT_ACTIONS: Partial<Record<ErrorActionKey, ChatAction>> = {
  retry: 'retry',
  setModelApiKey: 'setModelApiKey',
  connectSandbox: 'connectProfile',
  createProfile: 'connectProfile',
  showLogs: 'showLogs',
};

/** A failed reply, shown inline in the conversation: what happened, what to do, the buttons that fix it. */
export function renderTurnError(error: unknown, redactor: Redactor, profileLabel?: string): TurnError {
  const classification = classifyError(error, { surface: 'model', canRetry: true });
  if (!classification) return { kind: 'aborted', message: vscode.l10n.t('Request cancelled'), actions: ['retry'] };
  if (profileLabel !== undefined && classification.values.profileLabel === undefined) classification.values.profileLabel = profileLabel;
  const hint = hintText(classification.hint);
  const what = whatHappened(classification);
  const actions = [...new Set(classification.actions.map((key) => CHAT_ACTIONS[key]).filter((action): action is ChatAction => action !== undefined))];
  return { kind: classification.kind, message: redactor.redact(hint ? `${what}\n${hint}` : what), actions };
}

/** The model provider's error text (VS Code's chat shows it as the reply's failure). */
export function renderModelProviderError(error: unknown, profileLabel: string): string {
  const classification = classifyError(error, { surface: 'model' });
  if (!classification) return vscode.l10n.t('Request cancelled');
  classification.values.profileLabel ??= profileLabel;
  const what = whatHappened(classification);
  const hint = hintText(classification.hint);
  if (classification.kind === 'rate-limit') return vscode.l10n.t('The model API is rate limiting requests (HTTP 429) even after retries; wait a moment and try again.');
  if (classification.kind === 'auth') return vscode.l10n.t('{0} Run "Compute: Set Model API Key…" with a key from the platform console.', what);
  if (classification.message === 'missing-setup' || classification.message === 'config') return what;
  const text = vscode.l10n.t('The model API failed: {0}', what);
  return hint ? `${text} ${hint}` : text;
}
