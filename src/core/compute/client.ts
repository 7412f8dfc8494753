// The compute client: plans a call from the catalog, builds and signs each attempt afresh, sends it,
// retries only what is safe to repeat, and turns the envelope into data or a diagnosed error.

import { AbortedError, bodyExcerpt, ConfigError, coreText, HttpError, NetworkError, ProtocolError, RateLimitError, TimeoutError } from '../errors';
import { capMessage, excerptSource, messageSource } from '../excerpt';
import { assertSecureUrl } from '../http/url';
import { isRetryableStatus, parseRetryAfter, retryPolicyFrom, withRetries, type AttemptResult, type RetryPolicy } from '../http/retry';
import { TAIL_CHARS, type JsonAnswer, type TailRequest } from '../http/jsonAnswer';
import { firstHeader, httpRequest, type HttpResponse } from '../http/transport';
import { maskSecretsIn, silentLogger, type Logger } from '../log';
import type {
  CallOptions,
  ClockSkew,
  ComputeClient,
  ComputeClientOptions,
  ComputeCredentials,
  ExchangeRecord,
  OperationId,
  OperationParams,
  OperationResult,
  OperationSpec,
  PreparedRequest,
  RawRequest,
} from './api';
import { processTimestampHistory, RequestClock, skewFromDateHeader } from './clock';
import { diagnose, EXPECTED_VERSION } from './diagnosis';
import { answeredExchange, failedExchange, notifyExchange } from './exchange';
import { toPreparedRequest } from '../requests/display';
import { envelopeOf, notAnEnvelopeError, type Envelope } from './envelope';
import { ComputeApiError, isAuthFailureCode } from './errors';
import { LastParsedKeys } from './keys';
import { DETAIL_FALLBACK, OPERATIONS, operationSpec, planOperation, planRaw, type RequestPlan } from './operations';
import { checkResult } from './resultShapes';
import { buildRequest, type BuildContext, type BuiltRequest } from './request';
import { verify } from './signing';
import { processTimestampPartition } from './timestampSlots';
import { trimEnd } from '../textTrim';

const DEFAULT_TIMEOUT_MS = 30_000;
/** The long text field of an operation's answer that is kept only to its end, if it has one. */
function tailOf(plan: RequestPlan): TailRequest | undefined {
  const field = plan.operation === 'raw' ? undefined : operationSpec(plan.operation).tailOf;
  return field === undefined ? undefined : { field, keepChars: TAIL_CHARS };
}

/** Envelopes are small; node logs are the largest payload (a few MB at most). */
const RESPONSE_LIMIT_BYTES = 32 * 1024 * 1024;

type ExchangeObserver = (exchange: ExchangeRecord) => void;
type AttemptOutcome = { kind: 'data'; data: unknown } | { kind: 'fallback'; status: number };

/** One response, read whole, with what was learned from it. */
interface Answer {
  status: number;
  /** The body's head (all of a small one): excerpts and records read no further. */
  text: string;
  /** The whole body parsed as JSON. */
  json: boolean;
  envelope: Envelope | undefined;
  skew: ClockSkew | undefined;
  contentType: string | undefined;
}

/** Failures where the request provably never reached the server, so it cannot have taken effect. */
const NEVER_SENT_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * The secrets one attempt carried. A gateway or server that echoes a header or a body field back in an
 * error page must not put it into an error message, a log or the UI.
 */
function attemptSecrets(built: BuiltRequest): string[] {
  return [built.token, ...built.plan.secretValues];
}

/** A printable, secret-free excerpt of a response body (masked before cutting, so no secret is half shown). */
function safeExcerpt(text: string, built: BuiltRequest): string {
  return bodyExcerpt(maskSecretsIn(excerptSource(text), attemptSecrets(built)));
}

export class ComputeClientImpl implements ComputeClient {
  readonly operations: readonly OperationSpec[] = OPERATIONS;
  private readonly baseUrl: string;
  private readonly version: string;
  private readonly timeoutMs: number;
  private readonly retryPolicy: RetryPolicy;
  private readonly logger: Logger;
  private readonly clock: RequestClock;
  private readonly warnedKeys = new Set<string>();
  private readonly context: BuildContext;
  /** Which form of task detail this base URL answers (spec POST or platform GET: docs/platform.md), once known. */
  private detailMethod: 'POST' | 'GET' | undefined;

  constructor(private readonly options: ComputeClientOptions) {
    const base = assertSecureUrl(options.baseUrl);
    if (base.search || base.hash) {
      throw new ConfigError(coreText('client.baseUrlQuery', base.origin));
    }
    this.baseUrl = `${base.origin}${trimEnd(base.pathname, '/')}`;
    const version: unknown = options.version ?? EXPECTED_VERSION;
    if (typeof version !== 'string') {
      throw new ConfigError(coreText('client.versionType', EXPECTED_VERSION, typeof version), coreText('client.versionType.hint'));
    }
    this.version = version;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retryPolicy = retryPolicyFrom(options.retry, options.maxRetries);
    this.logger = options.logger ?? silentLogger;
    const partition =
      options.timestampPartition ?? (() => processTimestampPartition((reason) => this.logger.warn(`compute: timestamps may repeat across processes: ${reason}`)));
    this.clock = new RequestClock(options.now ?? Date.now, processTimestampHistory, partition);
    this.context = {
      baseUrl: this.baseUrl,
      version: this.version,
      clock: this.clock,
      keys: new LastParsedKeys(),
      onKeyWarning: (warning, fingerprint) => {
        if (this.warnedKeys.has(fingerprint)) return;
        this.warnedKeys.add(fingerprint);
        this.logger.warn(warning);
      },
    };
  }

  async call<K extends OperationId>(operation: K, params: OperationParams<K>, options?: CallOptions): Promise<OperationResult<K>> {
    // The shape is checked where the data enters: a malformed success names the operation and the field.
    const data = await this.callUnchecked(operation, params, options);
    return checkResult(operation, operationSpec(operation).title, data) as OperationResult<K>;
  }

  private async callUnchecked<K extends OperationId>(operation: K, params: OperationParams<K>, options?: CallOptions): Promise<OperationResult<K>> {
    const signal = options?.signal;
    if (operation !== DETAIL_FALLBACK.operation) {
      return (await this.execute(planOperation(operation, params, options?.encrypt), signal, false, options?.onExchange)) as OperationResult<K>;
    }
    if (this.detailMethod !== 'GET') {
      const outcome = await this.sendWithRetries(planOperation(operation, params, options?.encrypt), signal, true, options?.onExchange);
      if (outcome.kind === 'data') {
        this.detailMethod = 'POST';
        return outcome.data as OperationResult<K>;
      }
      this.logger.info(`compute: POST task detail answered HTTP ${outcome.status}; using GET ?task_id= for ${this.baseUrl} from now on`);
      this.detailMethod = 'GET';
    }
    return (await this.execute(planOperation(operation, params, options?.encrypt, 'GET'), signal, false, options?.onExchange)) as OperationResult<K>;
  }

  send(request: RawRequest, options?: CallOptions): Promise<unknown> {
    return this.execute(planRaw(request, options?.encrypt), options?.signal, false, options?.onExchange);
  }

  async prepare<K extends OperationId>(operation: K, params: OperationParams<K>, options?: CallOptions): Promise<PreparedRequest> {
    const method = operation === DETAIL_FALLBACK.operation && this.detailMethod === 'GET' ? 'GET' : undefined;
    return this.prepareFromPlan(planOperation(operation, params, options?.encrypt, method), options?.signal);
  }

  prepareRaw(request: RawRequest, options?: CallOptions): Promise<PreparedRequest> {
    return this.prepareFromPlan(planRaw(request, options?.encrypt), options?.signal);
  }

  /**
   * Builds and signs what would be sent, without display work: the per-attempt cost of a call.
   * Public for the benchmark and the Sign Request command's raw view; not part of ComputeClient.
   */
  async build<K extends OperationId>(operation: K, params: OperationParams<K>, options?: CallOptions): Promise<BuiltRequest> {
    return this.buildAttempt(planOperation(operation, params, options?.encrypt), options?.signal);
  }

  async measureClockSkew(signal?: AbortSignal): Promise<ClockSkew> {
    const plan = planOperation('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' }, undefined);
    let request: { url: string; headers: Record<string, string> };
    try {
      request = await this.buildAttempt(plan, signal);
    } catch (error) {
      // Measuring needs only the Date header, which every answer carries: without usable
      // credentials, ask unsigned rather than fail.
      if (!(error instanceof ConfigError)) throw error;
      request = { url: `${this.baseUrl}${plan.pathWithQuery}`, headers: { accept: 'application/json' } };
    }
    const sentAt = this.clock.localNow();
    const response = await httpRequest({ url: request.url, method: 'GET', headers: request.headers, signal, timeoutMs: this.timeoutMs });
    const receivedAt = this.clock.localNow();
    // Only the Date header counts: the body is dropped, never decoded.
    await response.body.dump();
    const date = firstHeader(response.headers, 'date');
    const skew = date === undefined ? undefined : skewFromDateHeader(date, sentAt, receivedAt);
    if (!skew) throw new ProtocolError(`The server's answer carries no usable Date header (${date ?? 'none'}); clock skew cannot be measured.`);
    this.observeSkew(skew);
    return skew;
  }

  reset(): void {
    // Only this client's state: the shared parsed-key cache is keyed by the key text, so it never serves a stale key.
    this.context.keys.clear();
    this.detailMethod = undefined;
    this.clock.reset();
    this.warnedKeys.clear();
  }

  // ---- internals ----

  private async credentials(): Promise<ComputeCredentials> {
    return this.options.credentials();
  }

  private async buildAttempt(plan: RequestPlan, signal?: AbortSignal): Promise<BuiltRequest> {
    return buildRequest(plan, await this.credentials(), this.context, signal);
  }

  private async prepareFromPlan(plan: RequestPlan, signal?: AbortSignal): Promise<PreparedRequest> {
    const built = await this.buildAttempt(plan, signal);
    const selfVerified =
      built.stringToSign !== undefined && built.signature !== undefined && built.ownPublicKey
        ? verify(built.stringToSign, built.signature, built.ownPublicKey)
        : undefined;
    return toPreparedRequest(built, selfVerified);
  }

  /** Sends with retries; `data` of the successful envelope. */
  private async execute(plan: RequestPlan, signal: AbortSignal | undefined, allowFallback: boolean, observe?: ExchangeObserver): Promise<unknown> {
    const outcome = await this.sendWithRetries(plan, signal, allowFallback, observe);
    if (outcome.kind === 'fallback') throw new Error('unreachable: fallback outcome without allowFallback');
    return outcome.data;
  }

  private async sendWithRetries(plan: RequestPlan, signal: AbortSignal | undefined, allowFallback: boolean, callObserver?: ExchangeObserver): Promise<AttemptOutcome> {
    const clientObserver = this.options.onExchange;
    // The call's observer and the client's (the request history) both see each attempt's one record.
    const observe: ExchangeObserver | undefined =
      callObserver && clientObserver
        ? (exchange) => {
            notifyExchange(callObserver, () => exchange);
            notifyExchange(clientObserver, () => exchange);
          }
        : (callObserver ?? clientObserver);
    // Whether a failed earlier attempt may still have taken effect on the server (its answer was lost).
    let earlierAttemptMayHaveApplied = false;
    const attempt = async (index: number): Promise<AttemptResult<AttemptOutcome>> => {
      const built = await this.buildAttempt(plan, signal);
      const startedAt = performance.now();
      const sentAt = this.clock.localNow();
      let response: HttpResponse;
      let answerBody: JsonAnswer;
      try {
        response = await httpRequest({
          url: built.url,
          method: plan.method,
          headers: built.headers,
          ...(built.body !== '' || plan.method === 'POST' ? { body: built.body } : {}),
          signal,
          timeoutMs: this.timeoutMs,
        });
        answerBody = await response.json(RESPONSE_LIMIT_BYTES, tailOf(plan));
      } catch (error) {
        const elapsed = Math.round(performance.now() - startedAt);
        this.logger.warn(`compute ${plan.method} ${built.signedPath} failed after ${elapsed} ms: ${describe(error)}`);
        notifyExchange(observe, () => failedExchange(built, index, elapsed, describe(error)));
        if (error instanceof NetworkError && plan.idempotent) {
          if (!NEVER_SENT_CODES.has(error.code ?? '')) earlierAttemptMayHaveApplied = true;
          return { ok: false, error, reason: `${error.code ?? 'network error'}` };
        }
        throw error;
      }
      const receivedAt = this.clock.localNow();
      const elapsed = Math.round(performance.now() - startedAt);
      const skew = this.skewFrom(response, sentAt, receivedAt);
      const text = answerBody.head;
      const envelope = answerBody.parsed.ok ? envelopeOf(answerBody.parsed.value) : undefined;
      const status = response.status;
      notifyExchange(observe, () => answeredExchange(built, index, status, response.headers, elapsed, text, envelope?.code));
      this.logger.info(
        `compute ${plan.method} ${built.signedPath} → HTTP ${status}${envelope ? ` code ${envelope.code}` : ''} in ${elapsed} ms` +
          (index > 0 ? ` (attempt ${index + 1})` : ''),
      );

      // An auth or signature failure is never retried, whatever status carries it: repeating cannot fix it.
      if (isRetryableStatus(status, this.retryPolicy) && !envelope?.success && !(envelope && isAuthFailureCode(envelope.code))) {
        const retryAfter = parseRetryAfter(firstHeader(response.headers, 'retry-after'));
        // Out of retries (or not safe to repeat): report the transient status as such, even when a
        // gateway wrapped it in an envelope, so the UI can offer "try again later".
        const failure =
          status === 429
            ? new RateLimitError(safeExcerpt(text, built), contentTypeOf(response), retryAfter)
            : new HttpError(status, safeExcerpt(text, built), contentTypeOf(response), undefined, retryAfter);
        if (!plan.idempotent) throw failure;
        // 429 means "not processed"; a gateway's 5xx may come after the platform acted.
        if (status !== 429) earlierAttemptMayHaveApplied = true;
        return { ok: false, error: failure, reason: `HTTP ${status}`, retryAfterSeconds: retryAfter };
      }
      const answer: Answer = { status, text, json: answerBody.parsed.ok, envelope, skew, contentType: contentTypeOf(response) };
      try {
        return { ok: true, value: this.interpret(plan, built, answer, allowFallback) };
      } catch (error) {
        if (earlierAttemptMayHaveApplied && (await this.earlierAttemptApplied(plan, error, signal))) return { ok: true, value: { kind: 'data', data: null } };
        throw error;
      }
    };
    return withRetries(this.retryPolicy, attempt, {
      signal,
      onRetry: ({ retry, delayMs, reason }) => this.logger.info(`compute: ${reason}; retry ${retry}/${this.retryPolicy.maxRetries} in ${delayMs} ms`),
    });
  }

  /**
   * A retried state-setting operation was refused (e.g. "cannot pause: it is Paused"). If an earlier
   * attempt whose answer was lost did the work, the task is already where the user asked: reading task
   * detail tells, from the task itself rather than the wording of the refusal.
   */
  private async earlierAttemptApplied(plan: RequestPlan, error: unknown, signal: AbortSignal | undefined): Promise<boolean> {
    const desired = plan.desiredState;
    if (!desired || !(error instanceof ComputeApiError) || error.kind !== 'api') return false;
    try {
      const detail = await this.call('task.detail', { task_id: desired.taskId }, signal ? { signal } : undefined);
      if (!desired.reached(detail)) return false;
      this.logger.info(
        `compute: the retry of ${plan.operation} was refused with ${error.code}, but task ${desired.taskId} already has ${desired.description}: ` +
          'an earlier attempt whose answer was lost took effect',
      );
      return true;
    } catch (confirmError) {
      this.logger.warn(`compute: could not confirm the state of task ${desired.taskId} after a refused retry: ${describe(confirmError)}`);
      return false;
    }
  }

  /** Data, the detail fallback, or the error this answer means (retries already decided). */
  private interpret(plan: RequestPlan, built: BuiltRequest, answer: Answer, allowFallback: boolean): AttemptOutcome {
    const { status, text, json, envelope, skew, contentType } = answer;
    if (allowFallback && (status === 404 || status === 405)) return { kind: 'fallback', status };
    if (!envelope) throw notAnEnvelopeError(status, text, contentType, (head) => maskSecretsIn(head, attemptSecrets(built)), json);
    if (envelope.success && status >= 200 && status < 300) return { kind: 'data', data: envelope.data };
    if (envelope.success) {
      // A success code under an error status: trust the status, show what came with it.
      throw new HttpError(status, safeExcerpt(text, built), contentType);
    }
    const cause = diagnose(envelope.code, {
      mode: built.mode,
      version: built.version,
      timestamp: built.timestamp,
      encrypted: plan.encrypt,
      ...(built.stringToSign !== undefined ? { stringToSign: built.stringToSign } : {}),
      ...(built.signature !== undefined ? { signature: built.signature } : {}),
      ...(built.ownPublicKey ? { ownPublicKey: built.ownPublicKey } : {}),
      ...(skew ? { skew } : {}),
    });
    const title = plan.operation === 'raw' ? `${plan.method} ${plan.pathWithQuery.split('?')[0] ?? ''}` : operationSpec(plan.operation).title;
    const serverMessage = capMessage(maskSecretsIn(messageSource(envelope.message), attemptSecrets(built)));
    throw new ComputeApiError(envelope.code, serverMessage, plan.operation, cause, status, title);
  }

  private skewFrom(response: HttpResponse, sentAt: number, receivedAt: number): ClockSkew | undefined {
    const date = firstHeader(response.headers, 'date');
    if (date === undefined) return undefined;
    const skew = skewFromDateHeader(date, sentAt, receivedAt);
    if (skew) this.observeSkew(skew);
    return skew;
  }

  private observeSkew(skew: ClockSkew): void {
    const before = this.clock.appliedCorrectionMs;
    this.clock.observe(skew);
    if (skew.outsideWindow) {
      this.logger.warn(
        `compute: local clock differs from the server's by ${Math.round(skew.offsetMs / 1000)} s (5-minute limit); correcting timestamps by that offset`,
      );
    } else if (before !== this.clock.appliedCorrectionMs) {
      this.logger.info(`compute: timestamp correction now ${this.clock.appliedCorrectionMs} ms`);
    }
  }
}

function contentTypeOf(response: HttpResponse): string | undefined {
  return firstHeader(response.headers, 'content-type');
}

function describe(error: unknown): string {
  if (error instanceof TimeoutError || error instanceof NetworkError || error instanceof AbortedError) return error.message;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

export function createComputeClient(options: ComputeClientOptions): ComputeClientImpl {
  return new ComputeClientImpl(options);
}
