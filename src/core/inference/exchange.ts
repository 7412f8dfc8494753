// One authenticated request to interface B, up to the response headers: Bearer key, a wait limit for the
// headers, and retries on 429/5xx/network failures. Nothing is retried once a response is accepted, so a
// reply is never generated twice into the same conversation.

import { AbortedError, ConfigError, coreText, NetworkError, TimeoutError } from '../errors';
import {
  assertSecureUrl,
  firstHeader,
  httpRequest,
  isRetryableStatus,
  joinUrl,
  modelRetryPolicy,
  parseRetryAfter,
  retryPolicyFrom,
  sleep as realSleep,
  withRetries,
  type AttemptResult,
  type HttpResponse,
  type RetryPolicy,
} from '../http';
import { silentLogger, type Logger } from '../log';
import type { ModelClientOptions } from './api';
import { errorFromHttpResponse } from './modelErrors';
import { errorMessage } from '../../shared/errorMessage';
import { checkedHeaderSecret } from '../secretValues';

/** Error bodies are short; a larger one is a misrouted page and its head is enough for an excerpt. */
const ERROR_BODY_LIMIT_BYTES = 1024 * 1024;

export interface ExchangeRequest {
  method: 'GET' | 'POST';
  /** Relative to the API base, e.g. `/chat/completions`. */
  path: string;
  body?: string;
  accept: string;
  /** Longest wait for the response headers; its expiry is reported with `headersPhase`. */
  headersTimeoutMs: number;
  headersPhase: 'connect' | 'first-token';
  /** Forwarded to the transport (undici bodyTimeout) for whole-body reads; streams time themselves. */
  bodyTimeoutMs?: number;
  signal: AbortSignal | undefined;
}

/** A response with a 2xx status, and the controller that still governs its body. */
export interface AcceptedResponse {
  response: HttpResponse;
  /** Aborting it closes the connection (timeouts of the stream reader, the consumer leaving). */
  controller: AbortController;
  apiKey: string;
  contentType: string | undefined;
}

export interface ExchangeContext {
  options: ModelClientOptions;
  logger: Logger;
  retryPolicy: RetryPolicy;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export function exchangeContext(options: ModelClientOptions): ExchangeContext {
  return {
    options,
    logger: options.logger ?? silentLogger,
    // Nothing of a reply exists before its headers, so a plain 500 (a restarting model backend) is retried too.
    retryPolicy: retryPolicyFrom(options.retry, options.maxRetries, modelRetryPolicy),
    sleep: options.sleep ?? realSleep,
  };
}

/** Links an optional caller signal to a new controller (removing the link when done). */
export function linkedController(signal: AbortSignal | undefined): { controller: AbortController; unlink: () => void } {
  const controller = new AbortController();
  if (signal === undefined) return { controller, unlink: () => undefined };
  const onAbort = (): void => controller.abort(new AbortedError());
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return { controller, unlink: () => signal.removeEventListener('abort', onAbort) };
}

async function requireApiKey(options: ModelClientOptions): Promise<string> {
  const key = (await options.apiKey())?.trim();
  if (options.keyOptional === true && (key === undefined || key === '')) return '';
  if (key === undefined || key === '') {
    throw new ConfigError(coreText('chat.noModelKey'), coreText('chat.noModelKey.hint'));
  }
  return checkedHeaderSecret(key, 'modelApiKey');
}

/** Sends one request (with retries before the first byte) and returns the accepted 2xx response. */
export async function exchange(context: ExchangeContext, request: ExchangeRequest): Promise<AcceptedResponse> {
  const { options, logger, retryPolicy } = context;
  const base = assertSecureUrl(options.apiBaseUrl).toString();
  const url = joinUrl(base, request.path);
  const apiKey = await requireApiKey(options);
  const headers: Record<string, string> = { accept: request.accept };
  // A deployment without a key of its own gets no Authorization header at all (docs/deployments.md).
  if (apiKey !== '') headers['authorization'] = `Bearer ${apiKey}`;
  if (request.body !== undefined) headers['content-type'] = 'application/json';

  const attempt = async (index: number): Promise<AttemptResult<AcceptedResponse>> => {
    const { controller, unlink } = linkedController(request.signal);
    let headersTimedOut = false;
    const headersTimer = setTimeout(() => {
      headersTimedOut = true;
      controller.abort(new TimeoutError(request.headersPhase, request.headersTimeoutMs));
    }, request.headersTimeoutMs);
    try {
      logger.debug(`${request.method} ${url}${index > 0 ? ` (retry ${index})` : ''}`);
      const response = await httpRequest({
        url,
        method: request.method,
        headers,
        signal: controller.signal,
        ...(request.body !== undefined ? { body: request.body } : {}),
        ...(request.bodyTimeoutMs !== undefined ? { bodyTimeoutMs: request.bodyTimeoutMs } : {}),
      });
      clearTimeout(headersTimer);
      const contentType = firstHeader(response.headers, 'content-type');
      if (response.status >= 200 && response.status < 300) {
        // The caller's signal stays linked for the life of the body; the transport drops its own link on close.
        response.body.once('close', unlink);
        return { ok: true, value: { response, controller, apiKey, contentType } };
      }
      const retryAfterSeconds = parseRetryAfter(firstHeader(response.headers, 'retry-after'));
      const bodyText = await response.text(ERROR_BODY_LIMIT_BYTES).catch((error: unknown) => {
        // The status already says what failed; a body that breaks off only loses the excerpt.
        logger.debug(`Could not read the error body: ${errorMessage(error)}`);
        return '';
      });
      unlink();
      const failure = errorFromHttpResponse({ status: response.status, contentType, bodyText, apiKey, retryAfterSeconds });
      if (!isRetryableStatus(response.status, retryPolicy)) throw failure;
      return { ok: false, error: failure, reason: failure.message, retryAfterSeconds };
    } catch (error) {
      clearTimeout(headersTimer);
      unlink();
      if (headersTimedOut) throw new TimeoutError(request.headersPhase, request.headersTimeoutMs);
      if (request.signal?.aborted) throw new AbortedError();
      if (!(error instanceof NetworkError)) throw error;
      return { ok: false, error, reason: error.message };
    }
  };
  return withRetries(retryPolicy, attempt, {
    signal: request.signal,
    sleep: context.sleep,
    onRetry: ({ retry, delayMs, reason, retryAfterSeconds }) =>
      logger.warn(`${reason} — retry ${retry} of ${retryPolicy.maxRetries} in ${delayMs} ms${retryAfterSeconds !== undefined ? ' (Retry-After)' : ''}`),
  });
}
