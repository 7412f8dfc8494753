// The JSON body of POST {apiBase}/chat/completions, checked before anything is sent so a bad setting
// (an empty model id, a fractional max_tokens) fails locally with a clear message instead of a server 400.

import { ConfigError } from '../errors';
import type { ChatRequest } from './api';

const ROLES: ReadonlySet<string> = new Set(['system', 'user', 'assistant']);

/** Checks a request and serialises it; `stream` adds `stream: true` and asks for the usage chunk. */
export function chatRequestBody(request: ChatRequest, stream: boolean): string {
  if (typeof request.model !== 'string' || request.model.trim() === '') {
    throw new ConfigError('No model selected', 'Pick a chat model (ids look like <vendor>/<model>).');
  }
  if (!Array.isArray(request.messages) || request.messages.length === 0) {
    throw new ConfigError('A chat request needs at least one message');
  }
  const messages = request.messages.map((message, index) => {
    if (!ROLES.has(message.role) || typeof message.content !== 'string') {
      throw new ConfigError(`Message ${index + 1} is not a {role: system|user|assistant, content: string} object`);
    }
    return { role: message.role, content: message.content };
  });
  const body: Record<string, unknown> = { model: request.model.trim(), messages };
  if (request.max_tokens !== undefined) {
    if (!Number.isSafeInteger(request.max_tokens) || request.max_tokens < 1) {
      throw new ConfigError(`max_tokens must be a whole number ≥ 1 (got ${String(request.max_tokens)})`);
    }
    body['max_tokens'] = request.max_tokens;
  }
  if (request.temperature !== undefined) {
    if (!Number.isFinite(request.temperature) || request.temperature < 0 || request.temperature > 2) {
      throw new ConfigError(`temperature must be a number from 0 to 2 (got ${String(request.temperature)})`);
    }
    body['temperature'] = request.temperature;
  }
  if (stream) {
    body['stream'] = true;
    // Without this the convention sends no token counts for streamed replies.
    body['stream_options'] = { include_usage: true };
  }
  return JSON.stringify(body);
}
