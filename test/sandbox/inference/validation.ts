// Strict checks of a chat request, answering the way an OpenAI-compatible server does: HTTP 400 with
// `{error:{message, type:'invalid_request_error', param, code}}` naming the offending field.

import type { ValidChatRequest } from './replies';

export interface RequestProblem {
  message: string;
  param: string | null;
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function validateChatRequest(body: Buffer): ValidChatRequest | RequestProblem {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return { message: 'We could not parse the JSON body of your request.', param: null };
  }
  if (!isRecord(json)) return { message: 'The request body must be a JSON object.', param: null };
  const model = json['model'];
  if (typeof model !== 'string' || model === '') return { message: 'you must provide a model parameter', param: 'model' };
  const messages = json['messages'];
  if (!Array.isArray(messages) || messages.length === 0) {
    return { message: "'messages' must be a non-empty array", param: 'messages' };
  }
  const valid: { role: string; content: string }[] = [];
  const callIds = new Set<string>();
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message)) return { message: `messages[${index}] must be an object`, param: `messages[${index}]` };
    const role = message['role'];
    const content = message['content'];
    if (typeof role !== 'string' || !ROLES.has(role)) {
      return { message: `messages[${index}].role must be one of system, user, assistant, tool`, param: `messages[${index}].role` };
    }
    const toolCalls = message['tool_calls'];
    if (role === 'assistant' && Array.isArray(toolCalls) && toolCalls.length > 0) {
      for (const [callIndex, call] of toolCalls.entries()) {
        const fn = isRecord(call) ? call['function'] : undefined;
        if (!isRecord(call) || typeof call['id'] !== 'string' || call['type'] !== 'function' || !isRecord(fn) || typeof fn['name'] !== 'string' || typeof fn['arguments'] !== 'string') {
          return { message: `messages[${index}].tool_calls[${callIndex}] must be {id, type: "function", function: {name, arguments: string}}`, param: `messages[${index}].tool_calls` };
        }
        callIds.add(call['id']);
      }
      if (content !== null && content !== undefined && typeof content !== 'string') {
        return { message: `messages[${index}].content must be a string or null`, param: `messages[${index}].content` };
      }
      valid.push({ role, content: typeof content === 'string' ? content : '' });
      continue;
    }
    if (role === 'tool') {
      const id = message['tool_call_id'];
      if (typeof id !== 'string' || !callIds.has(id)) {
        return { message: `messages[${index}].tool_call_id must answer a tool call of an earlier assistant message`, param: `messages[${index}].tool_call_id` };
      }
    }
    if (typeof content !== 'string') {
      return { message: `messages[${index}].content must be a string`, param: `messages[${index}].content` };
    }
    valid.push({ role, content });
  }
  const tools = json['tools'];
  const toolNames: string[] = [];
  if (tools !== undefined && tools !== null) {
    if (!Array.isArray(tools)) return { message: 'tools must be an array', param: 'tools' };
    for (const [index, tool] of tools.entries()) {
      const fn = isRecord(tool) ? tool['function'] : undefined;
      if (!isRecord(tool) || tool['type'] !== 'function' || !isRecord(fn) || typeof fn['name'] !== 'string' || !TOOL_NAME.test(fn['name'])) {
        return { message: `tools[${index}] must be {type: "function", function: {name matching ^[a-zA-Z0-9_-]{1,64}$, ...}}`, param: `tools[${index}]` };
      }
      if (fn['parameters'] !== undefined && !isRecord(fn['parameters'])) return { message: `tools[${index}].function.parameters must be an object`, param: `tools[${index}]` };
      toolNames.push(fn['name']);
    }
  }
  const maxTokens = json['max_tokens'];
  if (maxTokens !== undefined && maxTokens !== null && (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1)) {
    return { message: 'max_tokens must be an integer ≥ 1', param: 'max_tokens' };
  }
  const temperature = json['temperature'];
  if (
    temperature !== undefined &&
    temperature !== null &&
    (typeof temperature !== 'number' || !Number.isFinite(temperature) || temperature < 0 || temperature > 2)
  ) {
    return { message: 'temperature must be a number between 0 and 2', param: 'temperature' };
  }
  const stream = json['stream'];
  if (stream !== undefined && stream !== null && typeof stream !== 'boolean') {
    return { message: 'stream must be a boolean', param: 'stream' };
  }
  const streamOptions = json['stream_options'];
  if (streamOptions !== undefined && streamOptions !== null && !isRecord(streamOptions)) {
    return { message: 'stream_options must be an object', param: 'stream_options' };
  }
  return {
    model,
    messages: valid,
    maxTokens: typeof maxTokens === 'number' ? maxTokens : undefined,
    stream: stream === true,
    includeUsage: isRecord(streamOptions) && streamOptions['include_usage'] === true,
    toolNames,
  };
}

export function isProblem(value: ValidChatRequest | RequestProblem): value is RequestProblem {
  return 'param' in value;
}
