// A streamed chat reply: starts the request at once, decodes the SSE body layer by layer (sseDecoder →
// chatChunks) and hands events to one async iterator. The reply keeps going even if nobody iterates, so
// `outcome` always settles; leaving the loop early or aborting the signal closes the HTTP connection.

import { excerptSource } from '../excerpt';
import {
  AbortedError,
  ComputeToolkitError,
  HttpError,
  NetworkError,
  ProtocolError,
  TimeoutError,
  bodyExcerpt,
} from '../errors';
import { toTransportError } from '../http';
import type { ChatRequest, ChatStream, ChatStreamEvent, StreamOutcome } from './api';
import { ChatStreamAccumulator, completionFromJson } from './chatChunks';
import { exchange, linkedController, type AcceptedResponse, type ExchangeContext } from './exchange';
import { parseJsonBody, withoutSecret } from './modelErrors';
import { chatRequestBody } from './requestBody';
import { SseDecoder } from './sseDecoder';
import { errorMessage } from '../../shared/errorMessage';

export interface StreamTimeouts {
  connectTimeoutMs: number;
  firstTokenTimeoutMs: number;
  idleTimeoutMs: number;
}

const INTERRUPTED_BEFORE_DONE = 'The stream ended before the server sent [DONE].';

function isEventStream(contentType: string | undefined): boolean {
  return contentType !== undefined && contentType.toLowerCase().includes('text/event-stream');
}

export class ChatStreamRun implements ChatStream {
  readonly outcome: Promise<StreamOutcome>;
  private readonly accumulator = new ChatStreamAccumulator();
  private readonly run: { controller: AbortController; unlink: () => void };
  private queue: ChatStreamEvent[] = [];
  private head = 0;
  /** Pending `next()` calls waiting for an event (normally at most one). */
  private waiters: (() => void)[] = [];
  private finished = false;
  private failure: ComputeToolkitError | undefined;
  private iterated = false;

  constructor(
    private readonly context: ExchangeContext,
    private readonly request: ChatRequest,
    signal: AbortSignal | undefined,
    private readonly timeouts: StreamTimeouts,
  ) {
    this.run = linkedController(signal);
    this.outcome = this.start().then(
      (outcome) => {
        this.settle(undefined);
        return outcome;
      },
      (error: unknown) => {
        // Anything outside the hierarchy is unexpected; it keeps its cause instead of posing as a network fault.
        const failure =
          error instanceof ComputeToolkitError
            ? error
            : new ProtocolError(`Reading the reply failed unexpectedly: ${errorMessage(error)}`, { cause: error });
        this.settle(failure);
        throw failure;
      },
    );
    // Callers that only iterate get the failure from the iterator; this keeps an un-awaited outcome from
    // being reported as an unhandled rejection. Awaiting `outcome` still rejects.
    this.outcome.catch(() => undefined);
  }

  progress(): StreamOutcome {
    return this.accumulator.outcome(this.accumulator.done);
  }

  [Symbol.asyncIterator](): AsyncIterator<ChatStreamEvent> {
    if (this.iterated) throw new Error('A chat stream can be iterated only once.');
    this.iterated = true;
    let failureDelivered = false;
    return {
      next: async (): Promise<IteratorResult<ChatStreamEvent>> => {
        for (;;) {
          if (this.head < this.queue.length) {
            const value = this.queue[this.head++] as ChatStreamEvent;
            if (this.head === this.queue.length) {
              this.queue = [];
              this.head = 0;
            }
            return { value, done: false };
          }
          if (this.finished) {
            if (this.failure !== undefined && !failureDelivered) {
              failureDelivered = true;
              throw this.failure;
            }
            return { value: undefined, done: true };
          }
          await new Promise<void>((resolve) => this.waiters.push(resolve));
        }
      },
      return: async (): Promise<IteratorResult<ChatStreamEvent>> => {
        // Leaving the loop early (break, an exception in the loop body) is a Stop: close the connection.
        failureDelivered = true;
        if (!this.finished) this.run.controller.abort(new AbortedError('The chat stream was closed before it ended'));
        return { value: undefined, done: true };
      },
    };
  }

  private emit(events: ChatStreamEvent[]): void {
    if (events.length === 0) return;
    for (const event of events) this.queue.push(event);
    this.notify();
  }

  private settle(failure: ComputeToolkitError | undefined): void {
    this.finished = true;
    this.failure = failure;
    this.run.unlink();
    this.notify();
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private async start(): Promise<StreamOutcome> {
    const { logger } = this.context;
    const body = chatRequestBody(this.request, true);
    let accepted: AcceptedResponse;
    try {
      accepted = await exchange(this.context, {
        method: 'POST',
        path: '/chat/completions',
        body,
        accept: 'text/event-stream',
        headersTimeoutMs: this.timeouts.connectTimeoutMs,
        headersPhase: 'connect',
        signal: this.run.controller.signal,
      });
    } catch (error) {
      if (this.run.controller.signal.aborted && !(error instanceof TimeoutError)) throw this.abortError();
      throw error;
    }
    this.accumulator.secret = accepted.apiKey;
    const outcome = isEventStream(accepted.contentType) ? await this.readEvents(accepted) : await this.readWholeBody(accepted);
    logger.debug(
      `Chat stream ${outcome.complete ? 'complete' : 'incomplete'}: ${outcome.content.length} chars` +
        (outcome.malformedEvents > 0 ? `, ${outcome.malformedEvents} malformed event(s) skipped` : ''),
    );
    if (!outcome.complete) logger.warn(`Chat reply incomplete: ${outcome.interruption ?? INTERRUPTED_BEFORE_DONE}`);
    return outcome;
  }

  private abortError(): AbortedError {
    const reason: unknown = this.run.controller.signal.reason;
    return reason instanceof AbortedError ? reason : new AbortedError();
  }

  /** Runs `read` under the first-token and idle timers; maps whatever ends it early. */
  private async timed(accepted: AcceptedResponse, read: (touch: () => void, gotToken: () => void) => Promise<void>): Promise<string | undefined> {
    const { firstTokenTimeoutMs, idleTimeoutMs } = this.timeouts;
    let expired: TimeoutError | undefined;
    const expire = (phase: 'first-token' | 'idle', ms: number) => (): void => {
      expired = new TimeoutError(phase, ms);
      accepted.controller.abort(expired);
    };
    const firstTokenTimer = setTimeout(expire('first-token', firstTokenTimeoutMs), firstTokenTimeoutMs);
    const idleTimer = setTimeout(expire('idle', idleTimeoutMs), idleTimeoutMs);
    try {
      await read(
        () => idleTimer.refresh(),
        () => clearTimeout(firstTokenTimer),
      );
      return undefined;
    } catch (error) {
      if (expired !== undefined) throw expired;
      if (this.run.controller.signal.aborted) throw this.abortError();
      if (error instanceof ComputeToolkitError && !(error instanceof NetworkError)) throw error;
      // The connection broke off mid-reply: keep what arrived and say why it is incomplete.
      const host = new URL(this.context.options.apiBaseUrl).host;
      const mapped = toTransportError(error, { host, timedOut: () => false, aborted: () => false });
      if (mapped instanceof TimeoutError || mapped instanceof AbortedError) throw mapped;
      return mapped.message;
    } finally {
      clearTimeout(firstTokenTimer);
      clearTimeout(idleTimer);
    }
  }

  private async readEvents(accepted: AcceptedResponse): Promise<StreamOutcome> {
    const accumulator = this.accumulator;
    const decoder = new SseDecoder();
    let sawToken = false;
    const interruption = await this.timed(accepted, async (touch, gotToken) => {
      for await (const chunk of accepted.response.body as AsyncIterable<Uint8Array>) {
        touch();
        const out: ChatStreamEvent[] = [];
        for (const event of decoder.decode(chunk)) accumulator.apply(event, out);
        if (!sawToken && out.some((event) => event.type === 'content' || event.type === 'reasoning')) {
          sawToken = true;
          gotToken();
        }
        this.emit(out);
        if (accumulator.done) return;
      }
      // A server that closes without a final blank line still delivered its last event.
      const out: ChatStreamEvent[] = [];
      for (const event of decoder.end()) accumulator.apply(event, out);
      this.emit(out);
    });
    if (accumulator.done) return accumulator.outcome(true);
    return accumulator.outcome(false, interruption ?? INTERRUPTED_BEFORE_DONE);
  }

  /**
   * A 2xx answer that is not an event stream: the gateway's `{error}` body (HTTP 200), or a server that
   * ignored `stream: true` and sent the whole completion, which is still a good reply.
   */
  private async readWholeBody(accepted: AcceptedResponse): Promise<StreamOutcome> {
    const { response, contentType } = accepted;
    let text = '';
    await this.timed(accepted, async (_touch, gotToken) => {
      text = await response.text();
      gotToken();
    });
    const parsed = parseJsonBody(text);
    if (parsed.ok) {
      // Throws for an `{error}` body and for JSON that is no completion at all.
      completionFromJson(parsed.value, response.status, accepted.apiKey);
    } else {
      const shown = withoutSecret(excerptSource(text), accepted.apiKey);
      throw new HttpError(
        response.status,
        bodyExcerpt(shown),
        contentType,
        `Expected an event stream from the model API but got ${contentType ?? 'a body without a content type'}: ${bodyExcerpt(shown, 120)}`,
      );
    }
    const out: ChatStreamEvent[] = [];
    this.accumulator.apply({ type: 'message', data: text, id: undefined }, out);
    this.emit(out);
    return this.accumulator.outcome(true);
  }
}
