// Strict checks of a chat request, answering the way an OpenAI-compatible server does: HTTP 400 with
// `{error:{message, type:'invalid_request_error', param, code}}` naming the offending field.

import type { ValidChatRequest } from './replies';

export interface RequestProblem {
  message: string;
  param: string | null;
}

const ROLES = new Set(['system', 'user', 'assistant']);

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
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message)) return { message: `messages[${index}] must be an object`, param: `messages[${index}]` };
    const role = message['role'];
    const content = message['content'];
    if (typeof role !== 'string' || !ROLES.has(role)) {
      return { message: `messages[${index}].role must be one of system, user, assistant`, param: `messages[${index}].role` };
    }
    if (typeof content !== 'string') {
      return { message: `messages[${index}].content must be a string`, param: `messages[${index}].content` };
    }
    valid.push({ role, content });
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
  };
}

export function isProblem(value: ValidChatRequest | RequestProblem): value is RequestProblem {
  return 'param' in value;
}
