// Which HTTP statuses say "not now" rather than "no": the retry policy's call (retry.ts re-exports it).
// In its own file so the error classes can ask it without importing the retry loop (no import circle).

/** The statuses that say "not now" rather than "no". */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** Whether a status is worth another attempt of a request that is safe to repeat. */
export function isRetryableStatus(status: number, policy?: { readonly retryServerError?: boolean }): boolean {
  return RETRYABLE_STATUSES.has(status) || (status === 500 && policy?.retryServerError === true);
}
