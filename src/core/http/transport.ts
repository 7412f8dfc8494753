// One HTTP exchange over undici, with every failure mapped onto the core error hierarchy.
// undici is loaded on first use only: activation of the extension must not pay for it (~90 ms).

import type { Dispatcher } from 'undici';
import {
  AbortedError,
  ComputeToolkitError,
  NetworkError,
  ProtocolError,
  TimeoutError,
} from '../errors';
import { AnswerBytes } from './answerBytes';
import { parseJsonAnswer, type JsonAnswer, type TailRequest } from './jsonAnswer';

export interface HttpRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  signal?: AbortSignal;
  /** Whole exchange, headers and body (default: none). Streaming callers usually leave it unset. */
  timeoutMs?: number;
  /** Longest wait for the response headers (undici's headersTimeout; default undici's 300 s). */
  headersTimeoutMs?: number;
  /** Longest silence between body chunks (undici's bodyTimeout; default undici's 300 s). */
  bodyTimeoutMs?: number;
}

/** undici's body: a Node Readable that streaming callers can `for await` over. */
export type ResponseBody = Dispatcher.ResponseData['body'];

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: ResponseBody;
  /**
   * Reads the whole body as UTF-8. Rejects with ProtocolError when it is larger than `limitBytes`
   * (default 16 MiB), and with the mapped transport error when the connection fails mid-body.
   */
  text(limitBytes?: number): Promise<string>;
  /**
   * Reads the whole body (the same limits as `text`) and parses it as JSON without a long turn of this
   * thread (jsonAnswer.ts); a body that is not JSON comes back with `parsed.ok` false and its head.
   * `tail`: a long text field of the envelope's data kept only to its end (TailRequest).
   */
  json(limitBytes?: number, tail?: TailRequest): Promise<JsonAnswer>;
}

const DEFAULT_TEXT_LIMIT_BYTES = 16 * 1024 * 1024;

type UndiciModule = typeof import('undici');
let undiciModule: Promise<UndiciModule> | undefined;

function loadUndici(): Promise<UndiciModule> {
  undiciModule ??= import('undici');
  return undiciModule;
}

/** Why the internal controller aborted; lets the mapping tell our timeout from the caller's abort. */
class TimeoutSignalReason extends Error {}

/** The first value of a header that may repeat. */
export function firstHeader(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export async function httpRequest(req: HttpRequest): Promise<HttpResponse> {
  if (req.signal?.aborted) throw new AbortedError();
  const { request } = await loadUndici();
  const target = new URL(req.url);

  const controller = new AbortController();
  const timeoutReason = new TimeoutSignalReason('request timeout');
  let timer: NodeJS.Timeout | undefined;
  if (req.timeoutMs !== undefined) {
    timer = setTimeout(() => controller.abort(timeoutReason), req.timeoutMs);
    timer.unref();
  }
  const onCallerAbort = (): void => controller.abort(new AbortedError());
  req.signal?.addEventListener('abort', onCallerAbort, { once: true });
  // Aborted while undici was loading (the first request of a busy process): no event will come.
  if (req.signal?.aborted) onCallerAbort();
  const release = (): void => {
    if (timer) clearTimeout(timer);
    req.signal?.removeEventListener('abort', onCallerAbort);
  };

  const context: FailureContext = {
    host: target.host,
    timedOut: () => controller.signal.reason === timeoutReason,
    aborted: () => req.signal?.aborted === true,
    timeoutMs: req.timeoutMs,
    headersTimeoutMs: req.headersTimeoutMs,
    bodyTimeoutMs: req.bodyTimeoutMs,
  };

  let response: Dispatcher.ResponseData;
  try {
    response = await request(target, {
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body,
      signal: controller.signal,
      ...(req.headersTimeoutMs !== undefined ? { headersTimeout: req.headersTimeoutMs } : {}),
      ...(req.bodyTimeoutMs !== undefined ? { bodyTimeout: req.bodyTimeoutMs } : {}),
    });
  } catch (error) {
    release();
    throw toTransportError(error, context);
  }

  const body = response.body;
  // The timer and the abort link live as long as the body: streaming callers keep both.
  body.once('close', release);

  return {
    status: response.statusCode,
    headers: response.headers,
    body,
    text: async (limitBytes = DEFAULT_TEXT_LIMIT_BYTES) => {
      const bytes = await readBytes(body, limitBytes, context);
      return bytes.start().toString('utf8');
    },
    json: async (limitBytes = DEFAULT_TEXT_LIMIT_BYTES, tail?: TailRequest) => parseJsonAnswer(await readBytes(body, limitBytes, context), context.host, tail),
  };
}

/** The whole body, each network chunk copied on its own turn into blocks a worker can take over (answerBytes.ts). */
async function readBytes(body: ResponseBody, limitBytes: number, context: FailureContext): Promise<AnswerBytes> {
  const bytes = new AnswerBytes();
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      if (bytes.size + chunk.length > limitBytes) {
        body.destroy();
        throw new ProtocolError(`The response from ${context.host} is larger than ${limitBytes} bytes.`);
      }
      bytes.append(chunk);
    }
  } catch (error) {
    throw toTransportError(error, context);
  }
  return bytes;
}

/** What the error mapping needs to know about the request that failed. */
export interface FailureContext {
  host: string;
  /** The whole-request timer fired. */
  timedOut: () => boolean;
  /** The caller's signal aborted. */
  aborted: () => boolean;
  timeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
}

/**
 * Maps anything undici or the socket throws onto the core hierarchy. Exported so streaming callers
 * can map errors raised while they iterate `HttpResponse.body`.
 */
export function toTransportError(error: unknown, context: FailureContext): ComputeToolkitError {
  if (context.timedOut()) return new TimeoutError('request', context.timeoutMs ?? 0);
  if (context.aborted()) return new AbortedError();
  if (error instanceof ComputeToolkitError) return error;

  const code = errorCode(error);
  switch (code) {
    case 'UND_ERR_HEADERS_TIMEOUT':
      // No response headers in time: the server accepted the request but has not started answering.
      return new TimeoutError('first-token', context.headersTimeoutMs ?? 300_000);
    case 'UND_ERR_BODY_TIMEOUT':
      return new TimeoutError('idle', context.bodyTimeoutMs ?? 300_000);
    case 'UND_ERR_CONNECT_TIMEOUT':
      return new TimeoutError('connect', 10_000);
    case 'UND_ERR_ABORTED':
    case 'ABORT_ERR':
      return new AbortedError();
    default:
      return new NetworkError(networkMessage(code, context.host), code, { cause: error });
  }
}

function networkMessage(code: string | undefined, host: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return `Connection refused by ${host}: nothing is listening there.`;
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return `The connection to ${host} closed before the response was complete.`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Could not resolve the host name ${host.replace(/:\d+$/, '')}.`;
    case 'ETIMEDOUT':
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      return `${host} could not be reached (${code}).`;
    default:
      if (code !== undefined && (code.startsWith('CERT_') || code.includes('CERT') || code.startsWith('ERR_TLS'))) {
        return `The TLS certificate of ${host} could not be verified (${code}).`;
      }
      return `The request to ${host} failed before a response arrived${code ? ` (${code})` : ''}.`;
  }
}

/** The most specific error code in an error, its causes, or an AggregateError's members. */
function errorCode(error: unknown, depth = 0): string | undefined {
  if (depth > 4 || typeof error !== 'object' || error === null) return undefined;
  const own = (error as { code?: unknown }).code;
  if (typeof own === 'string' && own !== 'UND_ERR_SOCKET') return own;
  const nested =
    errorCode((error as { cause?: unknown }).cause, depth + 1) ??
    (error instanceof AggregateError ? errorCode(error.errors[0], depth + 1) : undefined);
  return nested ?? (typeof own === 'string' ? own : undefined);
}
