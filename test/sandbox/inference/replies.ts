// Deterministic replies. The same request always gets the same text, so tests can compare a streamed reply
// with a whole one, and the chat panel gets everything it must render: headings, lists, a table, fenced code
// in several languages, inline code, a link and non-ASCII text. Directives in the last user message:
//   /long  → about 60 KB of markdown in many small deltas (incremental rendering, Stop mid-stream)
//   /slow  → slower pacing (a Stop test needs a stream that is still running)
// The tool-calling model (sandbox/tools): `/tool NAME {json}` with NAME among the request's tools → a call
// of NAME with those arguments (finish_reason tool_calls); a request ending with a tool result → an answer
// quoting that result.

import type { SandboxModel } from './models';

export interface ValidChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  maxTokens: number | undefined;
  stream: boolean;
  includeUsage: boolean;
  /** Names of the function tools the request offers. */
  toolNames: string[];
}

export interface PlannedToolCall {
  id: string;
  name: string;
  /** The arguments JSON text, streamed in fragments. */
  arguments: string;
}

export interface PlannedReply {
  reasoningDeltas: string[];
  contentDeltas: string[];
  finishReason: 'stop' | 'length' | 'tool_calls';
  toolCall?: PlannedToolCall;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  slow: boolean;
  long: boolean;
}

export function lastUserMessage(request: ValidChatRequest): string {
  for (let index = request.messages.length - 1; index >= 0; index--) {
    const message = request.messages[index];
    if (message !== undefined && message.role === 'user') return message.content;
  }
  return '';
}

const FENCE = '```';

function richReply(model: SandboxModel, said: string): string {
  const quoted = said.length > 400 ? `${said.slice(0, 400)}…` : said;
  return [
    `## Sandbox reply from \`${model.id}\``,
    '',
    `You said: ${quoted.split('\n').join(' ')}`,
    '',
    'This answer comes from the local sandbox, so it is the same every time. It exercises:',
    '',
    '- **bold**, *italic* and `inline code`',
    '- non-ASCII text: 你好，世界 — 算力平台 🚀✨',
    '- a link: [platform docs](https://docs.suanli.cn/choose/llm)',
    '',
    '| Device | GPUs | Region | Price (points/s) |',
    '|---|---:|---|---:|',
    '| RTX 4090 | 1 | 北京一区 | 270 |',
    '| H20 x 8 | 8 | 河北一区 | 16416 |',
    '',
    '### TypeScript',
    '',
    `${FENCE}ts`,
    'export async function listModels(baseUrl: string, apiKey: string): Promise<string[]> {',
    "  const response = await fetch(`${baseUrl}/models`, { headers: { authorization: `Bearer ${apiKey}` } });",
    '  const body = (await response.json()) as { data: { id: string }[] };',
    '  return body.data.map((model) => model.id);',
    '}',
    FENCE,
    '',
    '### Python',
    '',
    `${FENCE}python`,
    'from openai import OpenAI',
    '',
    'client = OpenAI(base_url="http://127.0.0.1:8000/v1", api_key="…")',
    'for chunk in client.chat.completions.create(model="qwen/qwen3-32b", messages=[{"role": "user", "content": "hi"}], stream=True):',
    '    print(chunk.choices[0].delta.content or "", end="")',
    FENCE,
    '',
    '### Shell',
    '',
    `${FENCE}bash`,
    'curl -N "$API_BASE/chat/completions" \\',
    '  -H "Authorization: Bearer $API_KEY" -H "Content-Type: application/json" \\',
    `  -d '{"model":"qwen/qwen3-32b","stream":true,"messages":[{"role":"user","content":"你好"}]}'`,
    FENCE,
    '',
    '1. First numbered step',
    '2. Second numbered step',
    '',
    '> A quote, to close.',
  ].join('\n');
}

/** ~60 KB: many sections, each with a list, a table and a code block, so renderers see many blocks. */
function longReply(model: SandboxModel, said: string): string {
  const sections: string[] = [richReply(model, said)];
  for (let index = 1; sections.join('\n\n').length < 60_000; index++) {
    sections.push(
      [
        `## Section ${index}: 第${index}节`,
        '',
        `Paragraph ${index} explains step ${index} of a long answer, with \`value_${index}\` inline and an emoji 🧪.`,
        '',
        `- point ${index}.a`,
        `- point ${index}.b — 中文 ${index}`,
        '',
        '| n | square | cube |',
        '|---:|---:|---:|',
        `| ${index} | ${index * index} | ${index * index * index} |`,
        '',
        `${FENCE}${index % 3 === 0 ? 'python' : index % 3 === 1 ? 'ts' : 'bash'}`,
        index % 3 === 0
          ? `def step_${index}(x):\n    return x * ${index}`
          : index % 3 === 1
            ? `function step${index}(x: number): number {\n  return x * ${index};\n}`
            : `echo "step ${index}" && seq 1 ${index} | paste -sd+ | bc`,
        FENCE,
      ].join('\n'),
    );
  }
  return sections.join('\n\n');
}

function reasoningText(said: string): string {
  return `The user wrote ${said.length} characters. I will answer with the sandbox's fixed markdown sample, echoing their words first.`;
}

/** Cuts text into small deltas of 1–6 code points (never inside a surrogate pair), in a fixed pattern. */
export function splitIntoDeltas(text: string): string[] {
  const codePoints = Array.from(text);
  const deltas: string[] = [];
  for (let position = 0, step = 0; position < codePoints.length; step++) {
    const size = 1 + ((step * 7) % 6);
    deltas.push(codePoints.slice(position, position + size).join(''));
    position += size;
  }
  return deltas;
}

/** A rough token count (~4 chars a token) for the usage block; the sandbox has no tokenizer. */
function approximateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** The tool model's call, when the last message asks for a tool the request offers. */
function plannedToolCall(request: ValidChatRequest): PlannedToolCall | undefined {
  const last = request.messages[request.messages.length - 1];
  if (last?.role !== 'user') return undefined;
  const match = /\/tool\s+([A-Za-z0-9_-]{1,64})\s*(\{[\s\S]*\})?\s*$/.exec(last.content);
  if (!match?.[1] || !request.toolNames.includes(match[1])) return undefined;
  const args = match[2] ?? '{}';
  return { id: `call_${request.messages.length}_${match[1].length}`, name: match[1], arguments: args };
}

export function planReply(model: SandboxModel, request: ValidChatRequest): PlannedReply {
  if (model.tools) {
    const toolCall = plannedToolCall(request);
    const lastMessage = request.messages[request.messages.length - 1];
    const promptTokens = approximateTokens(request.messages.map((message) => message.content).join('\n'));
    if (toolCall) {
      return { reasoningDeltas: [], contentDeltas: [], finishReason: 'tool_calls', toolCall, usage: { prompt_tokens: promptTokens, completion_tokens: 10, total_tokens: promptTokens + 10 }, slow: false, long: false };
    }
    if (lastMessage?.role === 'tool') {
      const contentDeltas = splitIntoDeltas(`From the tool result: ${lastMessage.content}`);
      return { reasoningDeltas: [], contentDeltas, finishReason: 'stop', usage: { prompt_tokens: promptTokens, completion_tokens: contentDeltas.length, total_tokens: promptTokens + contentDeltas.length }, slow: false, long: false };
    }
  }
  const said = lastUserMessage(request);
  const long = said.includes('/long');
  const slow = said.includes('/slow');
  const content = model.echo ? said : long ? longReply(model, said) : richReply(model, said);
  const reasoningDeltas = model.reasoning ? splitIntoDeltas(reasoningText(said)) : [];
  let contentDeltas = splitIntoDeltas(content);
  let finishReason: PlannedReply['finishReason'] = 'stop';
  // One delta stands for one token, so max_tokens cuts the reply the way a real model would.
  const budget = request.maxTokens === undefined ? Infinity : Math.max(0, request.maxTokens - reasoningDeltas.length);
  if (contentDeltas.length > budget) {
    contentDeltas = contentDeltas.slice(0, budget);
    finishReason = 'length';
  }
  const promptTokens = approximateTokens(request.messages.map((message) => message.content).join('\n'));
  const completionTokens = reasoningDeltas.length + contentDeltas.length;
  return {
    reasoningDeltas,
    contentDeltas,
    finishReason,
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    slow,
    long,
  };
}
