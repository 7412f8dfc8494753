// The one retry policy of the compute and model clients: which statuses are worth another attempt,
// exponential backoff with full jitter (so many clients that failed together do not retry together),
// Retry-After honoured up to a cap (a longer wait is reported, not slept through), and the loop itself.
// Each client decides only what is safe to repeat; how often and how long to wait is decided here.

import { AbortedError } from '../errors';

export interface RetryPolicy {
  /** Retries after the first attempt (0 = never retry). The `request.maxRetries` setting. */
  maxRetries: number;
  /** Upper bound of the first retry's delay; doubles per attempt. */
  baseDelayMs: number;
  /** Cap on any delay. A Retry-After longer than this ends the retries: the failure is reported. */
  maxDelayMs: number;
  /**
   * Also retry HTTP 500. Only for requests where a 500 proves nothing happened yet: the model gateway
   * reports a restarting backend as a plain 500 before any byte of a reply.
   */
  retryServerError?: boolean;
}

/** The option shape both clients accept (`retry`); anything left out takes the default. */
export type RetryOptions = Partial<RetryPolicy>;

export const defaultRetryPolicy: RetryPolicy = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 20_000 };

/**
 * The model exchange's policy when its caller passes no `maxRetries`: a person waits for the reply, so one
 * retry fewer; a 500 is retried (see retryServerError). Callers pass the `request.maxRetries` setting.
 */
export const modelRetryPolicy: RetryPolicy = { ...defaultRetryPolicy, maxRetries: 2, retryServerError: true };

/** The policy from options, with `maxRetries` (the setting) winning over `retry.maxRetries`. */
export function retryPolicyFrom(retry: RetryOptions | undefined, maxRetries?: number, base: RetryPolicy = defaultRetryPolicy): RetryPolicy {
  const policy: RetryPolicy = { ...base };
  for (const [key, value] of Object.entries(retry ?? {})) {
    if (value !== undefined) (policy as unknown as Record<string, unknown>)[key] = value;
  }
  if (maxRetries !== undefined) policy.maxRetries = maxRetries;
  policy.maxRetries = Math.max(0, Math.floor(policy.maxRetries));
  return policy;
}

export { isRetryableStatus } from './retryableStatus';

/** One attempt's result: a value, or a failure that may be retried (anything else is thrown). */
export type AttemptResult<T> =
  | { ok: true; value: T }
  | { ok: false; error: Error; reason: string; retryAfterSeconds?: number | undefined };

export interface RetryLoopOptions {
  signal?: AbortSignal | undefined;
  /** How to wait; tests inject one that records the delays. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Told before each wait (for the log). */
  onRetry?: (info: { retry: number; delayMs: number; reason: string; retryAfterSeconds?: number | undefined }) => void;
}

/**
 * Runs `attempt` until it returns a value or a failure the policy does not retry: out of retries, or a
 * Retry-After beyond the cap. The last failure is thrown as it is.
 */
export async function withRetries<T>(
  policy: RetryPolicy,
  attempt: (index: number) => Promise<AttemptResult<T>>,
  options: RetryLoopOptions = {},
): Promise<T> {
  for (let index = 0; ; index++) {
    if (options.signal?.aborted) throw new AbortedError();
    const result = await attempt(index);
    if (result.ok) return result.value;
    const { retryAfterSeconds } = result;
    if (index >= policy.maxRetries) throw result.error;
    if (retryAfterSeconds !== undefined && retryAfterSeconds * 1000 > policy.maxDelayMs) throw result.error;
    const delayMs = retryDelayMs(index, policy, retryAfterSeconds);
    options.onRetry?.({ retry: index + 1, delayMs, reason: result.reason, retryAfterSeconds });
    await (options.sleep ?? sleep)(delayMs, options.signal);
  }
}

/**
 * Delay before retry number `attempt` (0 = the first retry).
 * With Retry-After: exactly what the server asked, capped at maxDelayMs.
 * Without: a uniformly random delay in [0, min(maxDelayMs, baseDelayMs · 2^attempt)) ("full jitter").
 */
export function retryDelayMs(
  attempt: number,
  policy: RetryPolicy,
  retryAfterSeconds?: number,
  random: () => number = Math.random,
): number {
  if (retryAfterSeconds !== undefined && Number.isFinite(retryAfterSeconds) && retryAfterSeconds >= 0) {
    return Math.min(Math.ceil(retryAfterSeconds * 1000), policy.maxDelayMs);
  }
  const exponent = Math.max(0, Math.floor(attempt));
  // 2 ** exponent overflows to Infinity for huge attempts; Math.min keeps the cap.
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** exponent);
  const fraction = Math.min(Math.max(random(), 0), 1);
  return Math.floor(fraction * ceiling);
}

/**
 * Parses a Retry-After header: delay-seconds ("120") or an HTTP-date. Returns whole seconds from
 * `nowMs` (never negative), or undefined when the header is absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  // Only real HTTP-dates: Date.parse alone would accept "1.5" or "-3" as dates.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/** Waits `ms`; rejects with AbortedError as soon as `signal` aborts (or at once if it already has). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortedError());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AbortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
