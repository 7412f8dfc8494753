// One streamed reply: asks the model with the conversation's messages, appends the streamed text to the
// assistant turn, and ends it as complete, incomplete, stopped or failed (partial text always kept).
// Deltas go out through `onDelta`: the first at once (the first token is what the user waits for), and
// each one until the text has a letter or digit; the following ones coalesced to one per frame. Host-neutral: the chat panel and a language-model provider
// can both drive it.

import { AbortedError, isAbort } from '../errors';
import type { ChatMessage, ModelClient, Usage } from '../inference/api';
import type { Logger } from '../log';
import type { ChatTurn, ConversationSettings, TurnError } from '../../shared/protocol';
import { latencyProbe } from './latencyProbe';
import type { ModelRoutes } from './modelRoutes';

/** Streamed text after the first is forwarded at most this often (a webview renders once per frame). */
export const DELTA_FLUSH_MS = 16;
const IMMEDIATE_FLUSHES_MAX = 8;
const READABLE = /[\p{L}\p{N}]/u;

export interface DeltaEvent {
  conversationId: string;
  turnId: string;
  content: string;
  reasoning: string;
}

export interface ReplyRunnerDeps {
  client(): Promise<ModelClient>;
  /** Deployed models: asked first for the conversation's model (docs/deployments.md). */
  routes?: ModelRoutes | undefined;
  /** The model to ask when the conversation has none yet (the first chat model listed). */
  defaultModel(client: ModelClient, signal: AbortSignal): Promise<string>;
  toTurnError(error: unknown): TurnError;
  logger: Logger;
  onDelta(event: DeltaEvent): void;
  /**
   * Shows the new turns (a state post): called once, after the request was handed to the client (so its
   * cost is not on the path to the first byte) and always before the first delta or the end.
   */
  announce?(): void;
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
  /**
   * Deltas go out at once until the text sent has a letter or digit: a reply that starts with markdown
   * syntax ("#", "- ", "**") shows nothing until then. At most IMMEDIATE_FLUSHES_MAX of them.
   */
  private sentReadable = false;
  private immediateFlushes = 0;
  private announced = false;
  /** Set for a routed (deployed) model: records the reply's cost when it ends. */
  private onEnd: ((usage: Usage | undefined) => void) | undefined;
  private usage: Usage | undefined;
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
    if (!this.sentReadable && READABLE.test(event.content)) this.sentReadable = true;
    this.deps.onDelta(event);
  }

  private async run(messages: ChatMessage[]): Promise<void> {
    const { turn, controller, settings } = this;
    try {
      const routed = settings.model && this.deps.routes ? await this.deps.routes.route(settings.model) : undefined;
      const client = routed?.client ?? (await this.deps.client());
      const model = settings.model || (await this.deps.defaultModel(client, controller.signal));
      turn.model = model;
      if (controller.signal.aborted) throw new AbortedError('Stopped by the user');
      latencyProbe?.mark('requestStartedAt');
      if (routed) {
        routed.started?.();
        const startedAt = Date.now();
        // Whatever way the reply ends, the time it took is what it cost at the deployment's rate.
        this.onEnd = (usage) => {
          const cost = routed.finished?.(Date.now() - startedAt, usage);
          if (cost) turn.cost = cost;
        };
      }
      const stream = client.stream({ model: routed?.model ?? model, messages, max_tokens: settings.maxTokens, temperature: settings.temperature }, controller.signal);
      // The request is written in the next turns of the event loop; the state post waits for them.
      setImmediate(() => this.announce());
      for await (const event of stream) {
        if (event.type === 'content') this.queue(event.text, '');
        else if (event.type === 'reasoning') this.queue('', event.text);
        else if (event.type === 'usage') {
          turn.usage = { prompt: event.usage.prompt_tokens, completion: event.usage.completion_tokens, total: event.usage.total_tokens };
          this.usage = event.usage;
        }
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
    } finally {
      this.onEnd?.(this.usage);
      this.announce();
    }
  }

  private announce(): void {
    if (this.announced) return;
    this.announced = true;
    this.deps.announce?.();
  }

  private queue(content: string, reasoning: string): void {
    // The state that creates the turn reaches the webview before any delta (and without this text).
    this.announce();
    if (content && !this.sentFirst) latencyProbe?.mark('firstEventAt');
    this.turn.content += content;
    if (reasoning) this.turn.reasoning = (this.turn.reasoning ?? '') + reasoning;
    this.pendingContent += content;
    this.pendingReasoning += reasoning;
    if (!this.sentFirst || (content && !this.sentReadable && this.immediateFlushes < IMMEDIATE_FLUSHES_MAX)) {
      this.immediateFlushes += 1;
      this.flush();
    } else this.flushTimer ??= setTimeout(() => this.flush(), this.deps.flushMs ?? DELTA_FLUSH_MS);
  }
}
