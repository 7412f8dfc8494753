// The one mapping from core errors to what the user sees: a message and the actions that can fix it.
// Pure (no editor calls) so the in-host tests can check the mapping without clicking notifications.

import type { LikelyCause, OperationId } from '../../core/compute/api';
import { ComputeToolkitError, isAbort, type ErrorKind } from '../../core/errors';
import { InvalidSecretError } from '../../core/secretValues';
import type { ErrorAction } from './errorActions';
import { MissingSecretError, NoProfileError } from './missingSecretError';
import { errorMessage } from '../../shared/errorMessage';

export type { ErrorAction } from './errorActions';

export interface ErrorReport {
  severity: 'error' | 'warning';
  message: string;
  /** One short line for a tree row or a view's message line; `message` is the whole explanation. */
  summary: string;
  actions: ErrorAction[];
  /** Set for compute API failures: what local evidence says went wrong. */
  likelyCause?: LikelyCause;
}

/** The fields a compute API failure carries (api.ts ComputeApiErrorShape), detected structurally. */
interface ApiFailure {
  kind: 'api' | 'auth';
  code: string;
  serverMessage: string;
  operation: OperationId | 'raw';
  likelyCause: LikelyCause;
}

/** A core error, recognised by its `kind` discriminant (and the fields its class adds). */
type ToolkitError = Error & { kind: ErrorKind; retryable?: boolean; hint?: string; status?: number };

const KINDS: ReadonlySet<string> = new Set<ErrorKind>(['config', 'api', 'auth', 'http', 'rate-limit', 'timeout', 'aborted', 'network', 'protocol']);

/**
 * By `kind` rather than only `instanceof`: the in-host tests and any second copy of the core (another
 * bundle) construct the same classes from a different module instance.
 */
function asToolkitError(error: unknown): ToolkitError | undefined {
  if (error instanceof ComputeToolkitError) return error;
  if (!(error instanceof Error)) return undefined;
  const kind = (error as { kind?: unknown }).kind;
  return typeof kind === 'string' && KINDS.has(kind) ? (error as ToolkitError) : undefined;
}

export function isApiFailure(error: unknown): error is Error & ApiFailure {
  const toolkit = asToolkitError(error);
  if (!toolkit || (toolkit.kind !== 'api' && toolkit.kind !== 'auth')) return false;
  const cause = (toolkit as { likelyCause?: unknown }).likelyCause;
  return typeof cause === 'object' && cause !== null && typeof (cause as { kind?: unknown }).kind === 'string';
}

const SHOW_LOGS: ErrorAction = { kind: 'showLogs' };

/**
 * Describes `error` for a notification, or returns undefined when nothing should be shown (the user
 * cancelled). `context` names what was being done, e.g. "Load tasks". `canRetry`: the caller can repeat it.
 */
export function describeError(error: unknown, context: string, canRetry = false): ErrorReport | undefined {
  const report = classify(error, context, canRetry);
  if (!report) return undefined;
  return { summary: summarize(report.message), ...report };
}

/** At most this many characters in a summary line. */
const SUMMARY_CHARS = 160;

/** The first sentence or line of a message, cut at SUMMARY_CHARS. */
export function summarize(message: string): string {
  const firstLine = message.split('\n', 1)[0] ?? '';
  const sentence = /^.*?[.!?](?=\s|$)/.exec(firstLine)?.[0] ?? firstLine;
  return sentence.length <= SUMMARY_CHARS ? sentence : `${sentence.slice(0, SUMMARY_CHARS - 1)}…`;
}

type Classified = Omit<ErrorReport, 'summary'> & { summary?: string };

function classify(error: unknown, context: string, canRetry: boolean): Classified | undefined {
  if (isAbort(error)) return undefined;
  const retry: ErrorAction[] = canRetry ? [{ kind: 'retry' }] : [];

  if (isApiFailure(error)) return describeApiFailure(error, context);

  if (error instanceof NoProfileError) {
    return {
      severity: 'warning',
      message: `${context}: ${error.message} ${error.hint ?? ''}`.trim(),
      actions: [{ kind: 'connectSandbox' }, { kind: 'createProfile' }],
    };
  }
  if (error instanceof InvalidSecretError) {
    // A stored token or key no request can carry (a line break, a non-ASCII character): store it again.
    return {
      severity: 'warning',
      message: `${context}: ${error.message}`,
      actions: [{ kind: 'setSecret', secret: error.secret }, { kind: 'configureProfile' }],
    };
  }
  if (error instanceof MissingSecretError) {
    return {
      severity: 'warning',
      message: `${context}: ${error.message}`,
      actions: [{ kind: 'setSecret', secret: error.secret }, { kind: 'configureProfile' }],
    };
  }
  const toolkit = asToolkitError(error);
  if (toolkit?.kind === 'aborted') return undefined;
  if (toolkit?.kind === 'config') {
    return {
      severity: 'error',
      message: `${context}: ${toolkit.message}${toolkit.hint ? ` ${toolkit.hint}` : ''}`,
      actions: [{ kind: 'configureProfile' }, SHOW_LOGS],
    };
  }
  if (toolkit?.kind === 'http' && isHtmlPage(toolkit)) return describeHtmlPage(toolkit, context, retry);
  if (toolkit) {
    // http, rate-limit, timeout, network, protocol (and any kind added later): the message already says what happened.
    const unauthorized = toolkit.status === 401 || toolkit.status === 403;
    return {
      severity: 'error',
      message: `${context} failed: ${toolkit.message}`,
      actions: [...(toolkit.retryable === true ? retry : []), ...(unauthorized ? [{ kind: 'configureProfile' } as const] : []), SHOW_LOGS],
    };
  }
  const text = errorMessage(error);
  return { severity: 'error', message: `${context} failed: ${text}`, actions: [SHOW_LOGS] };
}

function isHtmlPage(error: ToolkitError): boolean {
  const contentType = (error as { contentType?: unknown }).contentType;
  return typeof contentType === 'string' && /html/i.test(contentType);
}

/**
 * An HTML page where JSON was expected: a gateway, proxy or wrong address answered, not the API. Say so,
 * and point at the profile unless the status says the server is only down for now (502/503/504).
 */
function describeHtmlPage(error: ToolkitError, context: string, retry: ErrorAction[]): Classified {
  const excerpt = collapseRepeatedLead((error as { excerpt?: unknown }).excerpt);
  const page = `HTTP ${error.status ?? '?'} with an HTML page${excerpt ? ` ("${excerpt}")` : ''}, not the API's JSON`;
  if (error.retryable === true) {
    return {
      severity: 'error',
      message: `${context} failed: ${page}. A gateway in front of the API is failing; retry later.`,
      actions: [...retry, SHOW_LOGS],
    };
  }
  return {
    severity: 'error',
    message: `${context} failed: ${page}. Check the profile's addresses (Edit Profile): this one may not be the API's base URL.`,
    actions: [{ kind: 'configureProfile' }, SHOW_LOGS],
  };
}

/** Error pages repeat their title as the heading ("502 Bad Gateway 502 Bad Gateway nginx"); say it once. */
export function collapseRepeatedLead(text: unknown): string {
  if (typeof text !== 'string') return '';
  return text.trim().replace(/^(\S.{2,}?)\s+\1(?=\s|$)/, '$1');
}

function describeApiFailure(error: ApiFailure, context: string): Classified {
  const cause = error.likelyCause;
  const operation = error.operation === 'raw' ? undefined : error.operation;
  const signRequest: ErrorAction = operation ? { kind: 'openSignRequest', operation } : { kind: 'openSignRequest' };
  const answered = `the platform answered ${error.code}${error.serverMessage ? ` "${error.serverMessage}"` : ''}`;
  const why = cause.kind === 'unknown' ? '' : ` Likely cause: ${cause.detail}`;
  const actions = causeActions(cause.kind, signRequest, error.kind);
  return { severity: 'error', message: `${context} failed: ${answered}.${why}`, summary: summarize(`${context} failed: ${answered}.`), actions, likelyCause: cause };
}

/**
 * The actions for a diagnosed cause, most likely fix first. Keyed by string: the core's diagnosis may add
 * or rename a kind before this table learns it, and an unknown kind falls back to the generic actions.
 */
function causeActions(kind: string, signRequest: ErrorAction, errorKind: 'api' | 'auth'): ErrorAction[] {
  // The platform's codes do not tell a bad token from an unregistered key: the token is the commoner mistake.
  const tokenOrKey: ErrorAction[] = [{ kind: 'setSecret', secret: 'apiToken' }, { kind: 'showFingerprints' }, signRequest, SHOW_LOGS];
  const table: Record<string, ErrorAction[]> = {
    'signature-mismatch-local': [signRequest, { kind: 'setSecret', secret: 'privateKey' }, SHOW_LOGS],
    'token-or-key-unregistered': tokenOrKey,
    'signature-key-not-registered': tokenOrKey,
    'clock-skew': [signRequest, SHOW_LOGS],
    'timestamp-format': [signRequest, SHOW_LOGS],
    'version-type': [signRequest, SHOW_LOGS],
    token: [{ kind: 'setSecret', secret: 'apiToken' }, { kind: 'configureProfile' }, SHOW_LOGS],
    'encryption-key': [{ kind: 'setSecret', secret: 'platformPublicKey' }, signRequest, SHOW_LOGS],
  };
  return table[kind] ?? (errorKind === 'auth' ? [{ kind: 'configureProfile' }, signRequest, SHOW_LOGS] : [SHOW_LOGS]);
}
