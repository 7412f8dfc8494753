// The JSON body of POST {apiBase}/chat/completions, checked before anything is sent so a bad setting
// (an empty model id, a fractional max_tokens) fails locally with a clear message instead of a server 400.

import { ConfigError, coreText } from '../errors';
import type { ChatRequest } from './api';

const ROLES: ReadonlySet<string> = new Set(['system', 'user', 'assistant', 'tool']);
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Checks a request and serialises it; `stream` adds `stream: true` and asks for the usage chunk. */
export function chatRequestBody(request: ChatRequest, stream: boolean): string {
  if (typeof request.model !== 'string' || request.model.trim() === '') {
    throw new ConfigError(coreText('chat.noModel'), coreText('chat.noModel.hint'));
  }
  if (!Array.isArray(request.messages) || request.messages.length === 0) {
    throw new ConfigError(coreText('chat.noMessages'));
  }
  const messages = request.messages.map((message, index) => {
    if (!ROLES.has(message.role) || typeof message.content !== 'string') {
      throw new ConfigError(coreText('chat.badMessage', index + 1));
    }
    if (message.role === 'tool') {
      if (typeof message.tool_call_id !== 'string' || message.tool_call_id === '') throw new ConfigError(coreText('chat.toolResultWithoutId', index + 1));
      return { role: 'tool', tool_call_id: message.tool_call_id, content: message.content };
    }
    if (message.role === 'assistant' && message.tool_calls && message.tool_calls.length > 0) {
      return {
        role: 'assistant',
        // The convention wants null, not "", beside tool calls.
        content: message.content === '' ? null : message.content,
        tool_calls: message.tool_calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
      };
    }
    return { role: message.role, content: message.content };
  });
  const body: Record<string, unknown> = { model: request.model.trim(), messages };
  if (request.tools !== undefined && request.tools.length > 0) {
    for (const tool of request.tools) {
      if (!TOOL_NAME.test(tool.name)) {
        throw new ConfigError(coreText('chat.badToolName', tool.name.slice(0, 80)), coreText('chat.badToolName.hint'));
      }
    }
    body['tools'] = request.tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));
    if (request.tool_choice !== undefined) body['tool_choice'] = request.tool_choice;
  }
  if (request.max_tokens !== undefined) {
    if (!Number.isSafeInteger(request.max_tokens) || request.max_tokens < 1) {
      throw new ConfigError(coreText('chat.maxTokens', String(request.max_tokens)));
    }
    body['max_tokens'] = request.max_tokens;
  }
  if (request.temperature !== undefined) {
    if (!Number.isFinite(request.temperature) || request.temperature < 0 || request.temperature > 2) {
      throw new ConfigError(coreText('chat.temperature', String(request.temperature)));
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
