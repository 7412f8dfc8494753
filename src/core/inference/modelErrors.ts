// How interface B failures become errors of the core hierarchy. The gateway reports failures in several
// shapes (docs/models.md): the OpenAI `{error:{message,type,code}}` body (also with HTTP 200, and as an
// SSE event), its own `{"code":400,"message":"…"}` for a missing key, and HTML pages from proxies.

import { bodyExcerpt, HttpError, RateLimitError, type ComputeToolkitError } from '../errors';
import { capMessage, messageSource } from '../excerpt';
import { maskSecretsIn } from '../log';
import type { JsonAnswer } from '../http/jsonAnswer';

/** The model API said what went wrong. `status` is the HTTP status (200 when the error came in a 200 body). */
export class ModelApiError extends HttpError {
  override readonly kind: 'auth' | 'api';
  /** `error.code` (or the gateway's numeric `code`), as text. */
  readonly code: string | undefined;
  /** `error.type`, e.g. `invalid_request_error`. */
  readonly type: string | undefined;
  readonly param: string | undefined;
  /** The server's own message (secrets removed). */
  readonly serverMessage: string;

  constructor(init: {
    status: number;
    serverMessage: string;
    code?: string | undefined;
    type?: string | undefined;
    param?: string | undefined;
    contentType?: string | undefined;
  }) {
    const detail = [`HTTP ${init.status}`, capMessage(init.code ?? '', 80)].filter((part) => part !== '').join(', ');
    // A gateway may put a whole page into `message` (900 KB seen): errors carry a capped excerpt.
    const serverMessage = capMessage(init.serverMessage);
    super(init.status, bodyExcerpt(serverMessage), init.contentType, `${serverMessage} (${detail})`);
    this.serverMessage = serverMessage;
    this.code = init.code === undefined ? undefined : capMessage(init.code, 80);
    this.type = init.type === undefined ? undefined : capMessage(init.type, 80);
    this.param = init.param === undefined ? undefined : capMessage(init.param, 80);
    this.kind = isAuthFailure(init.status, init.code) ? 'auth' : 'api';
  }
}

function isAuthFailure(status: number, code: string | undefined): boolean {
  return status === 401 || status === 403 || code === 'invalid_api_key' || code === '401' || code === '403';
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalText(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Servers sometimes echo the key they were given ("Incorrect API key provided: sk-…"): never pass it on. */
export function withoutSecret(text: string, secret: string | undefined): string {
  // Shorter values would mask ordinary words; real keys are far longer.
  return secret !== undefined && secret.length >= 6 ? maskSecretsIn(text, [secret]) : text;
}

/** A server message for an error: the head only (masked before the cut, so no secret is half shown). */
function messageWithoutSecret(text: string, secret: string | undefined): string {
  return capMessage(withoutSecret(messageSource(text), secret));
}

/**
 * Reads a parsed JSON body as an error report, if it is one: OpenAI `{error:{…}}` / `{error:"…"}`, or the
 * gateway's `{code: <number ≠ 200>, message}`. Returns undefined for anything else (e.g. a real completion).
 */
export function errorFromJson(
  json: unknown,
  status: number,
  apiKey: string | undefined,
  contentType?: string,
): ModelApiError | undefined {
  if (!isRecord(json)) return undefined;
  const error = json['error'];
  if (isRecord(error)) {
    const message = optionalText(error['message']) ?? optionalText(error['type']) ?? 'The model API reported an error';
    return new ModelApiError({
      status,
      serverMessage: messageWithoutSecret(message, apiKey),
      code: optionalText(error['code']),
      type: optionalText(error['type']),
      param: optionalText(error['param']),
      contentType,
    });
  }
  if (typeof error === 'string' && error !== '') {
    return new ModelApiError({ status, serverMessage: messageWithoutSecret(error, apiKey), contentType });
  }
  const code = json['code'];
  const message = optionalText(json['message']) ?? optionalText(json['msg']);
  if (typeof code === 'number' && code !== 200 && code !== 0 && message !== undefined && !('choices' in json)) {
    return new ModelApiError({ status, serverMessage: messageWithoutSecret(message, apiKey), code: String(code), contentType });
  }
  return undefined;
}

function looksLikeJson(text: string): boolean {
  const first = text.trimStart().charCodeAt(0);
  return first === 123 /* { */ || first === 91 /* [ */;
}

/** A whole answer's JSON when it looks like JSON (an object or array), as parseJsonBody judges a text. */
export function jsonOfAnswer(answer: JsonAnswer): { ok: true; value: unknown } | { ok: false } {
  return answer.parsed.ok && looksLikeJson(answer.head) ? answer.parsed : { ok: false };
}

/** Parses a body as JSON when it looks like JSON; undefined otherwise (HTML pages, plain text). */
export function parseJsonBody(text: string): { ok: true; value: unknown } | { ok: false } {
  if (!looksLikeJson(text)) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    // Not JSON after all (a truncated body or a proxy page that starts with a brace): the caller shows an excerpt.
    return { ok: false };
  }
}

/** The error for a non-2xx response, from whatever body it came with. */
export function errorFromHttpResponse(init: {
  status: number;
  contentType: string | undefined;
  bodyText: string;
  apiKey: string | undefined;
  retryAfterSeconds?: number | undefined;
}): ComputeToolkitError {
  const { status, contentType, apiKey } = init;
  const bodyText = withoutSecret(init.bodyText, apiKey);
  const parsed = parseJsonBody(bodyText);
  const apiError = parsed.ok ? errorFromJson(parsed.value, status, apiKey, contentType) : undefined;
  if (status === 429) {
    return new RateLimitError(apiError?.serverMessage ?? bodyExcerpt(bodyText), contentType, init.retryAfterSeconds);
  }
  if (apiError !== undefined) return apiError;
  return new HttpError(status, bodyExcerpt(bodyText), contentType, undefined, init.retryAfterSeconds);
}
