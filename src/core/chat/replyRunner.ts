// One streamed reply: asks the model with the conversation's messages, appends the streamed text to the
// assistant turn, and ends it as complete, incomplete, stopped or failed (partial text always kept).
// Deltas go out through `onDelta`: the first at once (the first token is what the user waits for), the
// following ones coalesced to one per frame. Host-neutral: the chat panel and a language-model provider
// can both drive it.

import { AbortedError, isAbort } from '../errors';
import type { ChatMessage, ModelClient } from '../inference/api';
import type { Logger } from '../log';
import type { ChatTurn, ConversationSettings, TurnError } from '../../shared/protocol';

/** Streamed text after the first is forwarded at most this often (a webview renders once per frame). */
export const DELTA_FLUSH_MS = 16;

export interface DeltaEvent {
  conversationId: string;
  turnId: string;
  content: string;
  reasoning: string;
}

export interface ReplyRunnerDeps {
  client(): Promise<ModelClient>;
  /** The model to ask when the conversation has none yet (the first chat model listed). */
  defaultModel(client: ModelClient, signal: AbortSignal): Promise<string>;
  toTurnError(error: unknown): TurnError;
  logger: Logger;
  onDelta(event: DeltaEvent): void;
  flushMs?: number;
}

export class ReplyRun {
  private readonly controller = new AbortController();
  private stopRequested = false;
  private pendingContent = '';
  private pendingReasoning = '';
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  /** The first delta goes out at once; later ones wait for the timer. */
  private sentFirst = false;
  /** Resolves when the reply has ended, whichever way; never rejects. */
  readonly done: Promise<void>;

  constructor(
    readonly conversationId: string,
    readonly turn: ChatTurn,
    messages: ChatMessage[],
    private readonly settings: ConversationSettings,
    private readonly deps: ReplyRunnerDeps,
  ) {
    this.done = this.run(messages).finally(() => this.flush());
  }

  /** Stops the reply; its partial text is kept and the turn ends as 'stopped'. */
  stop(): void {
    this.stopRequested = true;
    this.controller.abort(new AbortedError('Stopped by the user'));
  }

  /** Sends coalesced text now (before a state snapshot, so it never runs ahead of the deltas sent). */
  flush(): void {
    if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (!this.pendingContent && !this.pendingReasoning) return;
    const event: DeltaEvent = { conversationId: this.conversationId, turnId: this.turn.id, content: this.pendingContent, reasoning: this.pendingReasoning };
    this.pendingContent = '';
    this.pendingReasoning = '';
    this.sentFirst = true;
    this.deps.onDelta(event);
  }

  private async run(messages: ChatMessage[]): Promise<void> {
    const { turn, controller, settings } = this;
    try {
      const client = await this.deps.client();
      const model = settings.model || (await this.deps.defaultModel(client, controller.signal));
      turn.model = model;
      if (controller.signal.aborted) throw new AbortedError('Stopped by the user');
      const stream = client.stream({ model, messages, max_tokens: settings.maxTokens, temperature: settings.temperature }, controller.signal);
      for await (const event of stream) {
        if (event.type === 'content') this.queue(event.text, '');
        else if (event.type === 'reasoning') this.queue('', event.text);
        else if (event.type === 'usage') turn.usage = { prompt: event.usage.prompt_tokens, completion: event.usage.completion_tokens, total: event.usage.total_tokens };
      }
      const outcome = await stream.outcome;
      turn.status = outcome.complete ? 'complete' : 'incomplete';
      if (!outcome.complete) turn.notice = 'The stream ended before the server said it was done; the reply may be incomplete.';
      else if (outcome.finishReason === 'length') turn.notice = `The reply reached max_tokens (${settings.maxTokens}) and was cut off.`;
      if (outcome.malformedEvents > 0) this.deps.logger.warn(`Chat: ${outcome.malformedEvents} malformed stream event(s) skipped`);
    } catch (error) {
      this.flush();
      if (this.stopRequested && isAbort(error)) {
        turn.status = 'stopped';
        return;
      }
      turn.status = turn.content ? 'incomplete' : 'error';
      turn.error = this.deps.toTurnError(error);
      this.deps.logger.warn(`Chat reply failed (${turn.error.kind}): ${turn.error.message}`);
    }
  }

  private queue(content: string, reasoning: string): void {
    this.turn.content += content;
    if (reasoning) this.turn.reasoning = (this.turn.reasoning ?? '') + reasoning;
    this.pendingContent += content;
    this.pendingReasoning += reasoning;
    if (!this.sentFirst) this.flush();
    else this.flushTimer ??= setTimeout(() => this.flush(), this.deps.flushMs ?? DELTA_FLUSH_MS);
  }
}
