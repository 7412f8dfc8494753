// Waiting for a condition in tests: poll until it holds, with a generous wall-clock deadline. Never a
// fixed sleep (a busy machine runs out of it) and never a count of polls (each poll takes longer under
// load, and what is awaited takes longer too). The deadline only decides when to give up: passing
// takes as long as the condition needs, failing takes the whole deadline.

/** How long a test waits for a condition before it fails: minutes, since CI is a shared 2-core machine. */
export const PATIENCE_MS = 120_000;

export interface WaitOptions {
  /** Give up after this long (default PATIENCE_MS). */
  timeoutMs?: number;
  /** Time between polls (default 20 ms). */
  everyMs?: number;
}

/**
 * Polls `probe` until it returns something other than `undefined` or `false` and returns that; throws
 * naming `what` after the deadline. An error the probe throws is a failure at once (not retried).
 */
export async function waitUntil<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, options: WaitOptions = {}): Promise<T> {
  const { timeoutMs = PATIENCE_MS, everyMs = 20 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${Math.round(timeoutMs / 1000)} s`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
