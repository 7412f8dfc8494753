// One error hierarchy for the whole core. The VS Code layer maps these to messages and actions
// in one place (reportError), so every class carries what a user needs to act, never a secret.

import { isRetryableStatus } from '../http/retryableStatus';
import { englishText, type CoreText } from './messages';
import { durationEnglish } from '../duration';

export { coreText, type CoreArg, type CoreText, type CoreMessageKey } from './messages';

/** What went wrong, in terms a user can act on. `kind` is the discriminant the UI switches on. */
export type ErrorKind =
  | 'config' // bad local input: key format, missing secret, invalid URL
  | 'api' // compute envelope with a failure code
  | 'auth' // credentials or signature rejected (compute C00x codes, model 401/403)
  | 'http' // unexpected HTTP status or non-JSON body
  | 'rate-limit' // 429 after retries
  | 'timeout'
  | 'aborted'
  | 'network'
  | 'protocol' // malformed response / stream the client cannot understand
  | 'storage'; // a file operation on a NAS volume refused (not found, exists, volume full: core/nas/errors.ts)

export abstract class ComputeToolkitError extends Error {
  abstract readonly kind: ErrorKind;
  /** Whether sending the same request again could succeed (used by retry policies and the UI). */
  readonly retryable: boolean = false;
  /** The message (and hint) as message keys, when the core gave them: the editor words them (docs/localization.md). */
  readonly words?: CoreWords;
  /** `message` as a message key (errors/messages.ts): `this.message` is its English text. */
  constructor(message: string | CoreText, options?: { cause?: unknown }) {
    super(typeof message === 'string' ? message : englishText(message), options);
    this.name = new.target.name;
    if (typeof message !== 'string') this.words = { message };
  }
}

/** What a core error says as message keys (errors/messages.ts), for the editor to word in the display language. */
export interface CoreWords {
  message: CoreText;
  hint?: CoreText;
}

/**
 * Bad local input (key, URL, setting). `hint` says how to fix it. The core gives both as message keys
 * (`coreText(...)`, errors/messages.ts): `message` and `hint` are their English text, `words` the keys
 * the editor words in the display language. The editor layer passes text it already worded.
 */
export class ConfigError extends ComputeToolkitError {
  readonly kind = 'config' as const;
  readonly hint?: string;
  declare readonly words?: CoreWords;
  constructor(message: string | CoreText, hint?: string | CoreText, options?: { cause?: unknown }) {
    super(message, options);
    if (hint !== undefined) this.hint = typeof hint === 'string' ? hint : englishText(hint);
    if (typeof message !== 'string' && hint !== undefined && typeof hint !== 'string') (this as { words?: CoreWords }).words = { message, hint };
  }
}

/** What a setup error says is missing: no profile, one of its secrets, or a chat model. */
export type MissingSetup = 'profile' | 'apiToken' | 'privateKey' | 'platformPublicKey' | 'modelApiKey' | 'chatModel';

/**
 * Something the user has not set up yet (a profile, a secret, a chat model): the classification
 * (errors/classify.ts) names the one step that fixes it, so the words come from the editor's bundle.
 */
export class SetupError extends ConfigError {
  constructor(
    readonly missing: MissingSetup,
    /** The profile it concerns, when there is one. */
    readonly profileLabel: string | undefined,
    message: string,
    hint?: string,
  ) {
    super(message, hint);
  }
}

export { bodyExcerpt } from '../excerpt';

/** The server answered with an HTTP status the operation does not expect, or a body that is not JSON. */
export class HttpError extends ComputeToolkitError {
  readonly kind: ErrorKind = 'http';
  override readonly retryable: boolean;
  constructor(
    readonly status: number,
    /** Printable excerpt of the body, tags stripped, at most ~200 chars. */
    readonly excerpt: string,
    readonly contentType: string | undefined,
    message?: string,
    /** Seconds the server asked us to wait (Retry-After), when it said so. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message ?? `HTTP ${status}${excerpt ? `: ${excerpt}` : ''}`);
    // Which statuses say "not now" is the retry policy's call alone (core/http/retry.ts).
    this.retryable = isRetryableStatus(status);
  }
}

/** 429 Too Many Requests that outlasted the retry budget. */
export class RateLimitError extends HttpError {
  override readonly kind = 'rate-limit' as const;
  constructor(excerpt: string, contentType: string | undefined, retryAfterSeconds?: number) {
    super(
      429,
      excerpt,
      contentType,
      `Rate limited (HTTP 429)${retryAfterSeconds !== undefined ? `; the server asked to wait ${durationEnglish(retryAfterSeconds, { round: 'up' })}` : ''}`,
      retryAfterSeconds,
    );
  }
}

export class TimeoutError extends ComputeToolkitError {
  readonly kind = 'timeout' as const;
  override readonly retryable = true;
  constructor(
    /** Which wait ran out: the whole request, the connection, the first token or the gap between chunks. */
    readonly phase: 'request' | 'connect' | 'first-token' | 'idle',
    readonly timeoutMs: number,
  ) {
    super(`Timed out after ${timeoutMs} ms (${phase === 'request' ? 'whole request' : phase})`);
  }
}

/** The caller cancelled (Stop button, closed panel, cancelled progress). Never shown as a failure. */
export class AbortedError extends ComputeToolkitError {
  readonly kind = 'aborted' as const;
  constructor(message = 'Request cancelled') {
    super(message);
  }
}

/** Connection refused / reset / DNS failure / TLS failure before a response arrived. */
export class NetworkError extends ComputeToolkitError {
  readonly kind = 'network' as const;
  override readonly retryable = true;
  constructor(
    message: string,
    readonly code: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The response could not be understood (bad JSON in an envelope, malformed stream). */
export class ProtocolError extends ComputeToolkitError {
  readonly kind = 'protocol' as const;
}

export function isComputeToolkitError(error: unknown): error is ComputeToolkitError {
  return error instanceof ComputeToolkitError;
}

export function isAbort(error: unknown): boolean {
  return error instanceof AbortedError || (error instanceof Error && error.name === 'AbortError');
}
