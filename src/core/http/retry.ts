// Retry timing shared by the compute and model clients: exponential backoff with full jitter
// (so many clients that failed together do not retry together), Retry-After honoured up to a cap.

import { AbortedError } from '../errors';

export interface RetryPolicy {
  /** Retries after the first attempt (0 = never retry). */
  maxRetries: number;
  /** Upper bound of the first retry's delay; doubles per attempt. */
  baseDelayMs: number;
  /** Cap on any delay, including one the server asked for with Retry-After. */
  maxDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 20_000 };

/** Statuses that say "not now" rather than "no": worth another attempt for a safe request. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 502 || status === 503 || status === 504;
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
