// Interface B of the sandbox: the chat-completions convention as the platform's gateway speaks it
// (docs/models.md), mounted by the server under /v1.
//   GET  /v1/models             chat and non-chat models, new-api list shape
//   POST /v1/chat/completions   whole or streamed (SSE), deterministic replies
//   GET  /v1/__sandbox/streams  what happened to each streamed reply (tests)
// Auth: no Bearer → 400 {"code":400,"message":"缺少用户凭证"}; wrong key → 401 OpenAI error.
// Chat on a non-chat model → HTTP 200 with an {error} body, as the platform does.
// Faults (target 'inference') come from the shared queue; see FaultKind in ../types.

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as wait } from 'node:timers/promises';
import type { Fault, InferenceHandler, InferenceHandlerOptions } from '../types';
import { findModel, modelListBody, type SandboxModel } from './models';
import { planReply, type ValidChatRequest } from './replies';
import { openAiError, sendHtml, sendJson } from './respond';
import { StreamLog, wallClockMs } from './streamLog';
import { plannedChunkCount, streamReply } from './streaming';
import { isProblem, validateChatRequest } from './validation';

export interface InferenceHandlerSettings extends InferenceHandlerOptions {
  /**
   * Pause after each streamed delta (ms). Default: env SANDBOX_CHAT_DELTA_MS, else 4 — enough to look like a
   * model typing. Tests set 0. A `/slow` directive in the message forces a slower pace regardless.
   */
  deltaDelayMs?: number;
}

const DEFAULT_DELTA_DELAY_MS = 4;

function deltaDelay(settings: InferenceHandlerSettings): number {
  if (settings.deltaDelayMs !== undefined) return settings.deltaDelayMs;
  // Read per request so a test can switch pacing off without restarting the sandbox.
  const fromEnv = Number(process.env['SANDBOX_CHAT_DELTA_MS']);
  return process.env['SANDBOX_CHAT_DELTA_MS'] !== undefined && Number.isFinite(fromEnv) && fromEnv >= 0 ? fromEnv : DEFAULT_DELTA_DELAY_MS;
}

/** `Authorization: Bearer <key>` → the key, or undefined when absent/empty. */
function bearerKey(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** Masks a wrong key the way OpenAI does in its 401 message, so clients must not rely on echoing it. */
function maskWrongKey(key: string): string {
  return key.length <= 8 ? '***' : `${key.slice(0, 3)}***${key.slice(-2)}`;
}

/** Answers with a fault that replaces the whole reply; returns false when the fault only shapes a stream. */
async function answerWithFault(res: ServerResponse, fault: Fault, isStream: boolean): Promise<boolean> {
  switch (fault.kind) {
    case 'status': {
      const status = fault.status ?? 500;
      const headers: Record<string, string> = {};
      if (fault.retryAfterSeconds !== undefined) headers['retry-after'] = String(fault.retryAfterSeconds);
      const body =
        status === 429
          ? openAiError(fault.message ?? 'Rate limit reached for requests', 'rate_limit_error', fault.code ?? 'rate_limit_exceeded')
          : openAiError(fault.message ?? `Upstream error (HTTP ${status})`, 'server_error', fault.code ?? null);
      sendJson(res, status, body, headers);
      return true;
    }
    case 'html':
      sendHtml(res, fault.status ?? 502);
      return true;
    case 'reset':
      res.socket?.destroy();
      return true;
    case 'error-200':
      if (isStream) return false;
      sendJson(res, 200, { error: { message: fault.message ?? 'Upstream model failed', type: 'upstream_error', code: fault.code ?? 'bad_response_status_code' } });
      return true;
    default:
      return false;
  }
}

export function createInferenceHandler(settings: InferenceHandlerSettings): InferenceHandler {
  const streams = new StreamLog();
  let sequence = 0;

  async function chatCompletions(res: ServerResponse, body: Buffer, fault: Fault | undefined): Promise<void> {
    const receivedAt = wallClockMs();
    const request = validateChatRequest(body);
    if (isProblem(request)) {
      sendJson(res, 400, openAiError(request.message, 'invalid_request_error', null, request.param));
      return;
    }
    const model = findModel(request.model);
    if (model === undefined) {
      sendJson(res, 404, openAiError(`The model \`${request.model}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found', 'model'));
      return;
    }
    if (!model.chat) {
      // The platform answers HTTP 200 with an error body here (docs/models.md), for streamed requests too.
      sendJson(res, 200, { error: { code: 400, message: 'The model does not support Chat Completions API', type: 'invalid_request_error' } });
      return;
    }
    if (fault !== undefined && (await answerWithFault(res, fault, request.stream))) return;
    const id = `chatcmpl-sandbox-${(++sequence).toString(36)}${randomBytes(4).toString('hex')}`;
    const created = Math.floor(Date.now() / 1000);
    if (request.stream) {
      await streamChat(res, model, request, id, created, fault, receivedAt);
    } else {
      await wholeChat(res, model, request, id, created, fault);
    }
  }

  async function streamChat(res: ServerResponse, model: SandboxModel, request: ValidChatRequest, id: string, created: number, fault: Fault | undefined, receivedAt: number): Promise<void> {
    const reply = planReply(model, request);
    const record = streams.start(id, model.id, plannedChunkCount(reply, request.includeUsage), receivedAt);
    await streamReply(res, { id, created, modelName: model.displayName, reply, includeUsage: request.includeUsage, deltaDelayMs: deltaDelay(settings), fault, record });
  }

  async function wholeChat(res: ServerResponse, model: SandboxModel, request: ValidChatRequest, id: string, created: number, fault: Fault | undefined): Promise<void> {
    const reply = planReply(model, request);
    if (fault?.kind === 'slow-first-token') await wait(fault.delayMs ?? 2_000);
    const message: Record<string, unknown> = { role: 'assistant', content: reply.contentDeltas.join(''), refusal: null, tool_calls: [] };
    if (reply.toolCall) {
      message['content'] = null;
      message['tool_calls'] = [{ id: reply.toolCall.id, type: 'function', function: { name: reply.toolCall.name, arguments: reply.toolCall.arguments } }];
    }
    if (reply.reasoningDeltas.length > 0) message['reasoning'] = reply.reasoningDeltas.join('');
    const text = JSON.stringify({
      id,
      object: 'chat.completion',
      created,
      model: model.displayName,
      choices: [{ index: 0, message, logprobs: null, finish_reason: reply.finishReason, stop_reason: null }],
      usage: reply.usage,
    });
    if (fault?.kind === 'drop-midstream' || fault?.kind === 'malformed-chunk') {
      // A whole reply has no chunks: send half of it, then drop the connection or end early.
      const half = text.slice(0, Math.floor(text.length / 2));
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.write(half);
      if (fault.kind === 'drop-midstream') res.socket?.destroy();
      else res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) });
    res.end(text);
  }

  return async (req, res, url, body) => {
    const path = url.pathname.replace(/\/+$/, '');
    const method = req.method ?? 'GET';
    if (path === '/v1/__sandbox/streams' && method === 'GET') {
      sendJson(res, 200, { streams: streams.list() });
      return true;
    }
    const route = path === '/v1/models' ? 'GET' : path === '/v1/chat/completions' ? 'POST' : undefined;
    if (route === undefined) {
      sendJson(res, 404, openAiError(`Invalid URL (${method} ${url.pathname})`, 'invalid_request_error', 'not_found'));
      return true;
    }
    if (method !== route) {
      sendJson(res, 405, openAiError(`Method ${method} not allowed on ${path}`, 'invalid_request_error', 'method_not_allowed'), { allow: route });
      return true;
    }
    const key = bearerKey(req);
    if (key === undefined) {
      sendJson(res, 400, { code: 400, message: '缺少用户凭证' });
      return true;
    }
    if (key !== settings.modelApiKey) {
      sendJson(res, 401, openAiError(`Incorrect API key provided: ${maskWrongKey(key)}.`, 'invalid_request_error', 'invalid_api_key'));
      return true;
    }
    const fault = settings.faults.take('inference', url.pathname);
    if (fault?.kind === 'latency') await wait(fault.delayMs ?? 1_000);
    if (route === 'GET') {
      if (fault !== undefined && (await answerWithFault(res, fault, false))) return true;
      sendJson(res, 200, modelListBody());
      return true;
    }
    await chatCompletions(res, body, fault);
    return true;
  };
}
