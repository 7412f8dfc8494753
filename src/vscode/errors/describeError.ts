// A notification's and a tree row's rendering of the one error classification (core/errors/classify.ts):
// the message in the display language (errorWords.ts) and the actions of the one action table
// (errorActions.ts). Pure (no editor calls but l10n) so the in-host tests check it without clicking.

import * as vscode from 'vscode';
import type { LikelyCause, OperationId } from '../../core/compute/api';
import { classifyError, isComputeApiFailure, type ErrorActionKey, type ErrorClassification } from '../../core/errors/classify';
import { InvalidSecretError } from '../../core/secretValues';
import type { ErrorAction } from './errorActions';
import { Refusal } from './refusal';
import { causeText, coreWords, hintText, whatHappened } from './errorWords';

export type { ErrorAction } from './errorActions';
export { collapseRepeatedLead } from '../../core/errors/classify';

export interface ErrorReport {
  severity: 'error' | 'warning';
  message: string;
  /** One short line for a tree row or a view's message line; `message` is the whole explanation. */
  summary: string;
  actions: ErrorAction[];
  /** Set for compute API failures: what local evidence says went wrong. */
  likelyCause?: LikelyCause;
}

/** The fields a compute API failure carries (api.ts ComputeApiErrorShape). */
interface ApiFailure {
  kind: 'api' | 'auth';
  code: string;
  serverMessage: string;
  operation: OperationId | 'raw';
  likelyCause: LikelyCause;
}

export function isApiFailure(error: unknown): error is Error & ApiFailure {
  return isComputeApiFailure(error);
}

/** The one table's action for a classification's action key. */
export function actionOf(key: ErrorActionKey, operation?: string): ErrorAction {
  switch (key) {
    case 'setApiToken':
      return { kind: 'setSecret', secret: 'apiToken' };
    case 'setPrivateKey':
      return { kind: 'setSecret', secret: 'privateKey' };
    case 'setPlatformPublicKey':
      return { kind: 'setSecret', secret: 'platformPublicKey' };
    case 'setModelApiKey':
      return { kind: 'setSecret', secret: 'modelApiKey' };
    case 'openSignRequest':
      return operation ? { kind: 'openSignRequest', operation: operation as OperationId } : { kind: 'openSignRequest' };
    default:
      return { kind: key };
  }
}

/**
 * Describes `error` for a notification, or returns undefined when nothing should be shown (the user
 * cancelled). `context` names what was being done, e.g. "Load tasks" (in the display language).
 * `canRetry`: the caller can repeat it.
 */
export function describeError(error: unknown, context: string, canRetry = false): ErrorReport | undefined {
  if (error instanceof Refusal) return { severity: error.severity, message: error.text, summary: summarize(error.text), actions: [...error.actions] };
  if (error instanceof InvalidSecretError) {
    // A stored token or key no request can carry (a line break, a non-ASCII character): store it again.
    const problem = vscode.l10n.t('{0}: {1}', context, error.words ? coreWords(error.words.message) : error.message);
    return { severity: 'warning', message: problem, summary: summarize(problem), actions: [{ kind: 'setSecret', secret: error.secret }, { kind: 'configureProfile' }] };
  }
  const classification = classifyError(error, { surface: 'compute', canRetry });
  if (!classification) return undefined;
  return renderNotification(classification, context);
}

function renderNotification(classification: ErrorClassification, context: string): ErrorReport {
  const what = whatHappened(classification);
  const setup = classification.message === 'missing-setup' || classification.message === 'config';
  const headline = setup ? vscode.l10n.t('{0}: {1}', context, what) : vscode.l10n.t('{0} failed: {1}', context, what);
  const hint = hintText(classification.hint);
  const cause = causeText(classification.likelyCause);
  const message = [headline, hint, cause ? vscode.l10n.t('Likely cause: {0}', cause) : undefined].filter((part) => part !== undefined).join(' ');
  return {
    severity: classification.message === 'missing-setup' ? 'warning' : 'error',
    message,
    summary: classification.message === 'platform-refused' ? headline : summarize(message),
    actions: classification.actions.map((key) => actionOf(key, classification.operation)),
    ...(classification.likelyCause ? { likelyCause: classification.likelyCause } : {}),
  };
}

/** At most this many characters in a summary line. */
const SUMMARY_CHARS = 160;

/** The first sentence or line of a message, cut at SUMMARY_CHARS. */
export function summarize(message: string): string {
  const firstLine = message.split('\n', 1)[0] ?? '';
  const sentence = /^.*?(?:[.!?](?=\s|$)|[。！？])/u.exec(firstLine)?.[0] ?? firstLine;
  return sentence.length <= SUMMARY_CHARS ? sentence : `${sentence.slice(0, SUMMARY_CHARS - 1)}…`;
}
