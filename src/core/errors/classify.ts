// The one classification of an error: what kind it is, what most likely caused it, which message and
// hint say so (keys, worded by the editor's bundle: src/vscode/errors/errorWords.ts) and which actions
// fix it, most likely first (keys of the one error-action table, src/vscode/errors/errorActions.ts).
// Notifications, tree rows, chat turns and the model provider's errors are thin renderers of this.
// Whether a status is worth retrying is the retry policy's answer (core/http/retry.ts), never decided here.

import type { LikelyCause } from '../compute/api';
import { isRetryableStatus } from '../http/retryableStatus';
import { errorMessage } from '../../shared/errorMessage';
import { isAbort, type CoreWords, type ErrorKind, type MissingSetup } from './index';
import { isCoreText } from './messages';

/** Where the error is shown: compute calls (the profile's token and keys) or the model API (its key). */
export type ErrorSurface = 'compute' | 'model';

/** An action that fixes the error; the editor's action table gives each its button, icon and command. */
export type ErrorActionKey =
  | 'retry'
  | 'showLogs'
  | 'openSignRequest'
  | 'configureProfile'
  | 'createProfile'
  | 'connectSandbox'
  | 'setApiToken'
  | 'setPrivateKey'
  | 'setPlatformPublicKey'
  | 'setModelApiKey'
  | 'showFingerprints';

/** What the message says; each key is one sentence pattern in the editor's bundle. */
export type ErrorMessageKey =
  | 'missing-setup' // a profile, a secret or a chat model is not set up (values.missing)
  | 'config' // bad local input: the error's own message and hint
  | 'platform-refused' // the compute API answered a failure code
  | 'html-page' // an HTML page where the API's JSON was expected
  | 'rate-limited'
  | 'timeout'
  | 'model-refused-key' // the model API refused the key
  | 'failed'; // any other failure: the error's own text

/** A sentence added after the message: what to do about it. */
export type ErrorHintKey =
  | 'gateway-failing' // a 5xx page from a gateway: retry later
  | 'check-addresses' // a web page answered: the profile's address is likely wrong
  | 'model-key' // the model key was refused: the MaaS key, not the Open API token
  | 'model-rate-limit'
  | 'model-timeout'
  | 'model-unreachable'
  | 'model-protocol';

export interface ErrorClassification {
  /** The core's kind, or 'unknown' for an error from elsewhere. */
  kind: ErrorKind | 'unknown';
  message: ErrorMessageKey;
  hint?: ErrorHintKey;
  /** The facts the message and hint are worded from (never a secret: the core removed them). */
  values: ErrorValues;
  /** Whether the same request again could succeed: the retry policy's answer for a status. */
  retryable: boolean;
  /** Most likely fix first. */
  actions: ErrorActionKey[];
  /** The diagnosed cause of a compute failure (its words come from `kind` and its evidence fields). */
  likelyCause?: LikelyCause;
  /** The catalog operation that failed, for Sign Request. */
  operation?: string;
}

export interface ErrorValues {
  /** The error's own text (a server's message, a system error), shown as it is. */
  detail: string;
  hint?: string;
  /** A core error's message and hint as message keys (errors/messages.ts), for the display language. */
  words?: CoreWords;
  missing?: MissingSetup;
  profileLabel?: string;
  status?: number;
  code?: string;
  serverMessage?: string;
  /** A page's text, its repeated title said once. */
  excerpt?: string;
  retryAfterSeconds?: number;
  timeoutMs?: number;
  timeoutPhase?: 'request' | 'connect' | 'first-token' | 'idle';
}

export interface ClassifyOptions {
  surface: ErrorSurface;
  /** The caller can repeat what failed (a command, a refresh, a reply). */
  canRetry?: boolean;
}

const KINDS: ReadonlySet<string> = new Set<ErrorKind>(['config', 'api', 'auth', 'http', 'rate-limit', 'timeout', 'aborted', 'network', 'protocol', 'storage']);

/** A core error's fields, read structurally: another copy of the core (a second bundle) builds its own classes. */
interface ErrorFields {
  kind: ErrorKind;
  retryable?: unknown;
  hint?: unknown;
  words?: unknown;
  status?: unknown;
  contentType?: unknown;
  excerpt?: unknown;
  retryAfterSeconds?: unknown;
  code?: unknown;
  serverMessage?: unknown;
  operation?: unknown;
  likelyCause?: unknown;
  missing?: unknown;
  profileLabel?: unknown;
  phase?: unknown;
  timeoutMs?: unknown;
  /** An SSH login of the user's own (a machine's host key, the user's agent or key): no profile setting fixes it. */
  sshLogin?: unknown;
}

function fieldsOf(error: unknown): (Error & ErrorFields) | undefined {
  if (!(error instanceof Error)) return undefined;
  const kind = (error as { kind?: unknown }).kind;
  return typeof kind === 'string' && KINDS.has(kind) ? (error as Error & ErrorFields) : undefined;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const number = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

const MISSING: ReadonlySet<string> = new Set<MissingSetup>(['profile', 'apiToken', 'privateKey', 'platformPublicKey', 'modelApiKey', 'chatModel']);

/** A compute API failure: an envelope code with a diagnosed cause. */
export function isComputeApiFailure(error: unknown): boolean {
  const fields = fieldsOf(error);
  if (!fields || (fields.kind !== 'api' && fields.kind !== 'auth')) return false;
  const cause = fields.likelyCause;
  return typeof cause === 'object' && cause !== null && typeof (cause as { kind?: unknown }).kind === 'string';
}

/**
 * Classifies `error`, or returns undefined when nothing should be shown (the user cancelled).
 * Pure: the same error and options always give the same classification.
 */
export function classifyError(error: unknown, options: ClassifyOptions): ErrorClassification | undefined {
  if (isAbort(error)) return undefined;
  const fields = fieldsOf(error);
  if (fields?.kind === 'aborted') return undefined;
  const retry: ErrorActionKey[] = options.canRetry === true ? ['retry'] : [];
  const detail = errorMessage(error);
  if (!fields) {
    // An error of the core outside the hierarchy (run.json's RunConfigError) may still carry message keys.
    const words = error instanceof Error ? wordsOf((error as { words?: unknown }).words) : undefined;
    return { kind: 'unknown', message: 'failed', values: { detail, ...(words ? { words } : {}) }, retryable: false, actions: [...retry, 'showLogs'] };
  }

  const missing = text(fields.missing);
  if (missing !== undefined && MISSING.has(missing)) return classifySetup(fields, missing as MissingSetup, detail, options);
  if (isComputeApiFailure(error) && options.surface === 'compute') return classifyComputeApi(fields, detail);

  const status = number(fields.status);
  const values: ErrorValues = { detail, ...(status !== undefined ? { status } : {}) };
  const hint = text(fields.hint);
  if (hint !== undefined) values.hint = hint;
  const words = wordsOf(fields.words);
  if (words) values.words = words;
  const retryable = status !== undefined ? isRetryableStatus(status) : fields.retryable === true;
  const retryIfUseful = retryable ? retry : [];

  if (fields.kind === 'config') {
    return { kind: 'config', message: 'config', values, retryable: false, actions: ['configureProfile', 'showLogs'] };
  }
  const unauthorized = (fields.kind === 'auth' && fields.sshLogin !== true) || status === 401 || status === 403;
  if (options.surface === 'model') return classifyModel(fields, values, unauthorized, retry);

  if (fields.kind === 'http' && /html/i.test(text(fields.contentType) ?? '')) {
    const excerpt = collapseRepeatedLead(fields.excerpt);
    if (excerpt !== '') values.excerpt = excerpt;
    return retryable
      ? { kind: 'http', message: 'html-page', hint: 'gateway-failing', values, retryable, actions: [...retry, 'showLogs'] }
      : { kind: 'http', message: 'html-page', hint: 'check-addresses', values, retryable, actions: ['configureProfile', 'showLogs'] };
  }
  const actions: ErrorActionKey[] = [...retryIfUseful, ...(unauthorized ? (['configureProfile'] as const) : []), 'showLogs'];
  return { kind: fields.kind, ...messageOf(fields, values), values, retryable, actions };
}

/** The message keys a core error carries, when they are ones this core's table words. */
function wordsOf(value: unknown): CoreWords | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { message, hint } = value as { message?: unknown; hint?: unknown };
  if (!isCoreText(message)) return undefined;
  return isCoreText(hint) ? { message, hint } : { message };
}

/** Rate limits and timeouts are worded from their values; everything else shows the error's own text. */
function messageOf(fields: ErrorFields, values: ErrorValues): { message: ErrorMessageKey } {
  if (fields.kind === 'rate-limit') {
    const wait = number(fields.retryAfterSeconds);
    if (wait !== undefined) values.retryAfterSeconds = wait;
    return { message: 'rate-limited' };
  }
  const timeoutMs = number(fields.timeoutMs);
  const phase = text(fields.phase);
  if (fields.kind === 'timeout' && timeoutMs !== undefined && phase !== undefined) {
    values.timeoutMs = timeoutMs;
    values.timeoutPhase = phase as ErrorValues['timeoutPhase'];
    return { message: 'timeout' };
  }
  return { message: 'failed' };
}

const SET_SECRET: Record<Exclude<MissingSetup, 'profile' | 'chatModel'>, ErrorActionKey> = {
  apiToken: 'setApiToken',
  privateKey: 'setPrivateKey',
  platformPublicKey: 'setPlatformPublicKey',
  modelApiKey: 'setModelApiKey',
};

function classifySetup(fields: ErrorFields, missing: MissingSetup, detail: string, options: ClassifyOptions): ErrorClassification {
  const values: ErrorValues = { detail, missing };
  const profileLabel = text(fields.profileLabel);
  if (profileLabel !== undefined) values.profileLabel = profileLabel;
  // A chat reply is repeated once the step is done, so the chat offers Retry beside the fix.
  const retry: ErrorActionKey[] = options.canRetry === true && options.surface === 'model' ? ['retry'] : [];
  const actions: ErrorActionKey[] =
    missing === 'profile'
      ? ['connectSandbox', 'createProfile', ...retry]
      : missing === 'chatModel'
        ? [...retry]
        : [SET_SECRET[missing], ...(options.surface === 'compute' ? (['configureProfile'] as const) : retry)];
  return { kind: 'config', message: 'missing-setup', values, retryable: false, actions };
}

function classifyModel(fields: ErrorFields, values: ErrorValues, unauthorized: boolean, retry: ErrorActionKey[]): ErrorClassification {
  if (unauthorized) {
    return { kind: 'auth', message: 'model-refused-key', hint: 'model-key', values, retryable: false, actions: ['setModelApiKey', ...retry, 'showLogs'] };
  }
  const hints: Partial<Record<ErrorKind, ErrorHintKey>> = {
    'rate-limit': 'model-rate-limit',
    timeout: 'model-timeout',
    network: 'model-unreachable',
    protocol: 'model-protocol',
  };
  const hint = hints[fields.kind];
  const retryable = values.status !== undefined ? isRetryableStatus(values.status, { retryServerError: true }) : fields.retryable === true;
  return { kind: fields.kind, ...messageOf(fields, values), ...(hint ? { hint } : {}), values, retryable, actions: [...retry, 'showLogs'] };
}

/** The actions for a diagnosed cause, most likely fix first; a kind this table does not know gets the generic ones. */
const CAUSE_ACTIONS: Record<string, ErrorActionKey[]> = {
  'signature-mismatch-local': ['openSignRequest', 'setPrivateKey', 'showLogs'],
  // The platform's codes do not tell a bad token from an unregistered key: the token is the commoner mistake.
  'token-or-key-unregistered': ['setApiToken', 'showFingerprints', 'openSignRequest', 'showLogs'],
  'clock-skew': ['openSignRequest', 'showLogs'],
  'timestamp-format': ['openSignRequest', 'showLogs'],
  'version-type': ['openSignRequest', 'showLogs'],
  token: ['setApiToken', 'configureProfile', 'showLogs'],
  'encryption-key': ['setPlatformPublicKey', 'openSignRequest', 'showLogs'],
};

function classifyComputeApi(fields: ErrorFields, detail: string): ErrorClassification {
  const cause = fields.likelyCause as LikelyCause;
  const operation = text(fields.operation);
  const values: ErrorValues = { detail, code: text(fields.code) ?? '?' };
  const serverMessage = text(fields.serverMessage);
  if (serverMessage !== undefined) values.serverMessage = serverMessage;
  const generic: ErrorActionKey[] = fields.kind === 'auth' ? ['configureProfile', 'openSignRequest', 'showLogs'] : ['showLogs'];
  return {
    kind: fields.kind,
    message: 'platform-refused',
    values,
    retryable: false,
    actions: [...(Object.hasOwn(CAUSE_ACTIONS, cause.kind) ? CAUSE_ACTIONS[cause.kind]! : generic)],
    likelyCause: cause,
    ...(operation !== undefined && operation !== 'raw' ? { operation } : {}),
  };
}

/** Error pages repeat their title as the heading ("502 Bad Gateway 502 Bad Gateway nginx"); say it once. */
export function collapseRepeatedLead(value: unknown): string {
  if (typeof value !== 'string') return '';
  return value.trim().replace(/^(\S.{2,}?)\s+\1(?=\s|$)/, '$1');
}
