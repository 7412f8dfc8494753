// The JSON layer of a chat stream: SSE events → chat events, plus the running totals that become the outcome.
// Tolerant by design: empty `choices` (the usage chunk), absent or null `delta.content`, role-only chunks and
// keep-alive events pass silently; a `data:` line that is not JSON is counted, not fatal.

import { ProtocolError } from '../errors';
import type { ChatCompletion, ChatStreamEvent, StreamOutcome, ToolCall, Usage } from './api';
import { errorFromJson, isRecord, ModelApiError, withoutSecret } from './modelErrors';
import type { SseEvent } from './sseDecoder';
import { ToolCallAssembler } from './toolCalls';

export function readUsage(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const prompt = value['prompt_tokens'];
  const completion = value['completion_tokens'];
  const total = value['total_tokens'];
  if (typeof prompt !== 'number' || typeof completion !== 'number') return undefined;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: typeof total === 'number' ? total : prompt + completion,
  };
}

function nonEmptyText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Some models put their thinking in `reasoning` (the platform's vLLM backends), others in `reasoning_content`. */
function reasoningOf(part: Record<string, unknown>): string | undefined {
  return nonEmptyText(part['reasoning']) ?? nonEmptyText(part['reasoning_content']);
}

/** Accumulates one streamed reply. Feed it every SSE event in order; read `outcome()` at the end. */
export class ChatStreamAccumulator {
  content = '';
  reasoning = '';
  usage: Usage | undefined;
  finishReason: string | null = null;
  model: string | undefined;
  /** `[DONE]` arrived. */
  done = false;
  malformedEvents = 0;
  /** Tool calls assembled so far (emitted as events when the model finishes). */
  readonly toolCalls = new ToolCallAssembler();
  private toolCallsTaken: ToolCall[] = [];

  /** The key the request carried, so an error message that echoes it can be cleaned. */
  secret: string | undefined;

  /**
   * Applies one event and appends the chat events it carries to `out` (adjacent text of one kind is merged,
   * so a network chunk holding many deltas costs one iteration step). Throws ModelApiError for an error event.
   */
  apply(event: SseEvent, out: ChatStreamEvent[]): void {
    if (this.done) return;
    const data = event.data;
    if (data === '[DONE]') {
      this.done = true;
      this.emitToolCalls(out);
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      if (event.type === 'error') {
        throw new ModelApiError({ status: 200, serverMessage: withoutSecret(data, this.secret) || 'Stream error' });
      }
      this.malformedEvents++;
      return;
    }
    if (!isRecord(json)) {
      this.malformedEvents++;
      return;
    }
    // Guarded so the common chunk pays two property reads, not the whole error-shape check.
    if ((json['error'] !== undefined && json['error'] !== null) || typeof json['code'] === 'number' || event.type === 'error') {
      const error = errorFromJson(json, 200, this.secret);
      if (error !== undefined) throw error;
      if (event.type === 'error') {
        // `event: error` with a body in no known shape: still an error, described by its own text.
        const message = typeof json['message'] === 'string' && json['message'] !== '' ? json['message'] : data;
        throw new ModelApiError({ status: 200, serverMessage: withoutSecret(message, this.secret) });
      }
    }

    const model = json['model'];
    if (typeof model === 'string') this.model = model;
    const choices = json['choices'];
    const choice = Array.isArray(choices) ? (choices[0] as unknown) : undefined;
    if (isRecord(choice)) {
      const deltaValue = choice['delta'] ?? choice['message'];
      if (isRecord(deltaValue)) {
        const reasoning = reasoningOf(deltaValue);
        if (reasoning !== undefined) this.pushText(out, 'reasoning', reasoning);
        const content = nonEmptyText(deltaValue['content']);
        if (content !== undefined) this.pushText(out, 'content', content);
        if (deltaValue['tool_calls'] !== undefined && deltaValue['tool_calls'] !== null) this.toolCalls.apply(deltaValue['tool_calls']);
      }
      const finish = choice['finish_reason'];
      if (typeof finish === 'string' && finish !== '' && finish !== this.finishReason) {
        this.finishReason = finish;
        this.emitToolCalls(out);
        out.push({ type: 'finish', reason: finish });
      }
    }
    const usage = json['usage'] === undefined ? undefined : readUsage(json['usage']);
    if (usage !== undefined) {
      this.usage = usage;
      out.push({ type: 'usage', usage });
    }
  }

  /** Emits the assembled tool calls once: at the finish reason, or at [DONE] for servers that send none. */
  private emitToolCalls(out: ChatStreamEvent[]): void {
    if (this.toolCalls.size === 0) return;
    const calls = this.toolCalls.take();
    this.toolCallsTaken.push(...calls);
    for (const call of calls) out.push({ type: 'tool-call', call });
  }

  private pushText(out: ChatStreamEvent[], type: 'content' | 'reasoning', text: string): void {
    if (type === 'content') this.content += text;
    else this.reasoning += text;
    const last = out[out.length - 1];
    if (last !== undefined && (last.type === 'content' || last.type === 'reasoning') && last.type === type) {
      last.text += text;
    } else {
      out.push({ type, text });
    }
  }

  outcome(complete: boolean, interruption?: string): StreamOutcome {
    const outcome: StreamOutcome = {
      content: this.content,
      reasoning: this.reasoning,
      finishReason: this.finishReason,
      complete,
      malformedEvents: this.malformedEvents,
    };
    if (this.usage !== undefined) outcome.usage = this.usage;
    if (this.model !== undefined) outcome.model = this.model;
    if (interruption !== undefined) outcome.interruption = interruption;
    if (this.toolCallsTaken.length > 0) outcome.toolCalls = [...this.toolCallsTaken];
    return outcome;
  }
}

/** Reads a whole (non-streamed) completion body. Throws ModelApiError for `{error}` bodies (HTTP 200 included). */
export function completionFromJson(json: unknown, status: number, apiKey: string | undefined): ChatCompletion {
  const error = errorFromJson(json, status, apiKey);
  if (error !== undefined) throw error;
  if (!isRecord(json)) throw new ProtocolError('The model API answered with JSON that is not an object');
  const choices = json['choices'];
  const choice = Array.isArray(choices) ? (choices[0] as unknown) : undefined;
  if (!isRecord(choice)) throw new ProtocolError('The model API answered without any `choices`');
  const message = choice['message'];
  const content = isRecord(message) && typeof message['content'] === 'string' ? message['content'] : '';
  const completion: ChatCompletion = {
    content,
    finishReason: typeof choice['finish_reason'] === 'string' ? choice['finish_reason'] : null,
  };
  const reasoning = isRecord(message) ? reasoningOf(message) : undefined;
  if (reasoning !== undefined) completion.reasoning = reasoning;
  const usage = readUsage(json['usage']);
  if (usage !== undefined) completion.usage = usage;
  if (typeof json['model'] === 'string') completion.model = json['model'];
  return completion;
}
