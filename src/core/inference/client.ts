// The model client (interface B): thin methods over one exchange (auth, retries, header timeout) and the
// layered stream reader. Every call re-reads the API key, so a profile switch applies at once.

import { excerptSource } from '../excerpt';
import { bodyExcerpt, HttpError, ProtocolError, TimeoutError } from '../errors';
import type { ChatCompletion, ChatRequest, ChatStream, ModelClient, ModelClientOptions, ModelInfo } from './api';
import { completionFromJson } from './chatChunks';
import { ChatStreamRun, type StreamTimeouts } from './chatStream';
import { exchange, exchangeContext, linkedController, type AcceptedResponse } from './exchange';
import { modelsFromJson } from './modelCatalog';
import { errorFromJson, isRecord, jsonOfAnswer, withoutSecret } from './modelErrors';
import { chatRequestBody } from './requestBody';

export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_FIRST_TOKEN_TIMEOUT_MS = 60_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/** Reads a whole 2xx body that must be JSON; an HTML page or plain text becomes an HttpError with an excerpt. */
async function readJson(accepted: AcceptedResponse): Promise<unknown> {
  const { response, contentType } = accepted;
  const answer = await response.json();
  const parsed = jsonOfAnswer(answer);
  if (!parsed.ok) {
    // A proxy page may echo the Authorization header back: the key never reaches a message.
    const text = withoutSecret(excerptSource(answer.head), accepted.apiKey);
    throw new HttpError(
      response.status,
      bodyExcerpt(text),
      contentType,
      `Expected JSON from the model API but got ${contentType ?? 'a body without a content type'}: ${bodyExcerpt(text, 120)}`,
    );
  }
  return parsed.value;
}

/** Time a non-streamed call may take after its headers arrived, on top of the header wait. */
export const DEFAULT_BODY_ALLOWANCE_MS = 60_000;

/**
 * Runs a non-streamed call under an overall deadline (the idle timer alone never ends a body trickled one
 * byte at a time). The caller's signal still aborts at any moment (a Refresh that gives up a stuck load).
 */
async function withDeadline<T>(deadlineMs: number, signal: AbortSignal | undefined, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const { controller, unlink } = linkedController(signal);
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new TimeoutError('request', deadlineMs));
  }, deadlineMs);
  try {
    return await call(controller.signal);
  } catch (error) {
    if (expired) throw new TimeoutError('request', deadlineMs);
    throw error;
  } finally {
    clearTimeout(timer);
    unlink();
  }
}

export function createModelClient(options: ModelClientOptions): ModelClient {
  const context = exchangeContext(options);
  const timeouts: StreamTimeouts = {
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    firstTokenTimeoutMs: options.firstTokenTimeoutMs ?? DEFAULT_FIRST_TOKEN_TIMEOUT_MS,
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
  };
  const listDeadlineMs = options.requestDeadlineMs ?? timeouts.connectTimeoutMs + DEFAULT_BODY_ALLOWANCE_MS;
  const completeDeadlineMs = options.requestDeadlineMs ?? timeouts.firstTokenTimeoutMs + DEFAULT_BODY_ALLOWANCE_MS;

  return {
    listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
      return withDeadline(listDeadlineMs, signal, (bounded) => listModels(bounded));
    },

    complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatCompletion> {
      return withDeadline(completeDeadlineMs, signal, (bounded) => complete(request, bounded));
    },

    stream(request: ChatRequest, signal?: AbortSignal): ChatStream {
      return new ChatStreamRun(context, request, signal, timeouts);
    },
  };

  async function listModels(signal: AbortSignal): Promise<ModelInfo[]> {
    const accepted = await exchange(context, {
      method: 'GET',
      path: '/models',
      accept: 'application/json',
      headersTimeoutMs: timeouts.connectTimeoutMs,
      headersPhase: 'connect',
      bodyTimeoutMs: timeouts.idleTimeoutMs,
      signal,
    });
    const json = await readJson(accepted);
    const apiError = errorFromJson(json, accepted.response.status, accepted.apiKey, accepted.contentType);
    if (apiError !== undefined) throw apiError;
    const models = modelsFromJson(json);
    if (models === undefined) {
      const data = isRecord(json) ? json['data'] : undefined;
      const got = data === undefined ? 'missing' : data === null ? 'null' : `a ${typeof data}`;
      throw new ProtocolError(`Model list: the answer is not in the expected shape: \`data\` should be an array but is ${isRecord(json) ? got : 'not an object'}.`);
    }
    return models;
  }

  async function complete(request: ChatRequest, signal: AbortSignal): Promise<ChatCompletion> {
    const body = chatRequestBody(request, false);
    // A whole reply is generated before the headers are sent, so the header wait is the first-token limit.
    const accepted = await exchange(context, {
      method: 'POST',
      path: '/chat/completions',
      body,
      accept: 'application/json',
      headersTimeoutMs: timeouts.firstTokenTimeoutMs,
      headersPhase: 'first-token',
      bodyTimeoutMs: timeouts.idleTimeoutMs,
      signal,
    });
    const json = await readJson(accepted);
    return completionFromJson(json, accepted.response.status, accepted.apiKey);
  }
}
