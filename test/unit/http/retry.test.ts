import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AbortedError } from '../../../src/core/errors';
import { isRetryableStatus, parseRetryAfter, retryDelayMs, retryPolicyFrom, sleep, withRetries, type RetryPolicy } from '../../../src/core/http/retry';

const policy: RetryPolicy = { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 1_000 };

describe('retryDelayMs (full jitter)', () => {
  it('stays within [0, min(max, base·2^attempt)) across the random range', () => {
    const table: [attempt: number, ceiling: number][] = [
      [0, 100],
      [1, 200],
      [2, 400],
      [3, 800],
      [4, 1_000],
      [10, 1_000],
      [2_000, 1_000], // 2^2000 overflows to Infinity; the cap still holds
    ];
    for (const [attempt, ceiling] of table) {
      assert.equal(retryDelayMs(attempt, policy, undefined, () => 0), 0);
      assert.equal(retryDelayMs(attempt, policy, undefined, () => 0.5), Math.floor(ceiling / 2));
      const top = retryDelayMs(attempt, policy, undefined, () => 0.999999);
      assert.ok(top < ceiling && top >= ceiling - 1, `attempt ${attempt}: ${top}`);
    }
  });

  it('spreads out: 200 draws at attempt 3 are not all equal and all in bounds', () => {
    const draws = Array.from({ length: 200 }, () => retryDelayMs(3, policy));
    assert.ok(draws.every((d) => d >= 0 && d < 800));
    assert.ok(new Set(draws).size > 50);
  });

  it('honours Retry-After exactly, capped at maxDelayMs', () => {
    assert.equal(retryDelayMs(0, policy, 0), 0);
    assert.equal(retryDelayMs(3, policy, 0.5), 500);
    assert.equal(retryDelayMs(0, policy, 1), 1_000);
    assert.equal(retryDelayMs(0, policy, 120), 1_000);
    assert.equal(retryDelayMs(0, policy, Number.NaN, () => 0.5), 50, 'an unusable Retry-After falls back to jitter');
    assert.equal(retryDelayMs(0, policy, -1, () => 0.5), 50);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.UTC(2026, 0, 1, 0, 0, 0);
  it('reads delay-seconds and HTTP-dates', () => {
    const table: [string | undefined, number | undefined][] = [
      [undefined, undefined],
      ['', undefined],
      ['0', 0],
      [' 7 ', 7],
      ['120', 120],
      ['1.5', undefined],
      ['-3', undefined],
      ['soon', undefined],
      [new Date(now + 30_000).toUTCString(), 30],
      [new Date(now + 30_500).toUTCString(), 30], // HTTP-dates have whole seconds
      [new Date(now - 60_000).toUTCString(), 0],
    ];
    for (const [value, expected] of table) assert.equal(parseRetryAfter(value, now), expected, String(value));
  });
});

describe('isRetryableStatus', () => {
  it('is true for 429/502/503/504 only', () => {
    const retryable = [200, 400, 401, 404, 405, 429, 500, 501, 502, 503, 504, 505].filter((status) => isRetryableStatus(status));
    assert.deepEqual(retryable, [429, 502, 503, 504]);
  });
});

describe('one retry policy', () => {
  it('adds 500 only where the policy says a 500 proves nothing happened', () => {
    assert.equal(isRetryableStatus(500), false);
    assert.equal(isRetryableStatus(500, { retryServerError: true }), true);
    assert.equal(isRetryableStatus(501, { retryServerError: true }), false);
  });
  it('takes maxRetries (the setting) over retry.maxRetries, and defaults the rest', () => {
    assert.deepEqual(retryPolicyFrom({ baseDelayMs: 5, maxRetries: 9 }, 1), { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 20_000 });
    assert.deepEqual(retryPolicyFrom(undefined, undefined), { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 20_000 });
  });
  it('withRetries: retries up to maxRetries, then throws the last failure; Retry-After beyond the cap ends at once', async () => {
    const waits: number[] = [];
    const sleepRecorder = async (ms: number): Promise<void> => {
      waits.push(ms);
    };
    let attempts = 0;
    const failing = async () => {
      attempts++;
      return { ok: false as const, error: new Error(`failure ${attempts}`), reason: 'HTTP 503' };
    };
    await assert.rejects(withRetries({ maxRetries: 2, baseDelayMs: 10, maxDelayMs: 100 }, failing, { sleep: sleepRecorder }), /failure 3/);
    assert.equal(attempts, 3);
    assert.equal(waits.length, 2);
    attempts = 0;
    const tooLong = async () => {
      attempts++;
      return { ok: false as const, error: new Error('quota'), reason: 'HTTP 429', retryAfterSeconds: 3600 };
    };
    await assert.rejects(withRetries({ maxRetries: 5, baseDelayMs: 10, maxDelayMs: 100 }, tooLong, { sleep: sleepRecorder }), /quota/);
    assert.equal(attempts, 1, 'a Retry-After beyond the cap is reported, not slept through');
    let calls = 0;
    const value = await withRetries(
      { maxRetries: 3, baseDelayMs: 10, maxDelayMs: 100 },
      async () => (++calls < 2 ? { ok: false as const, error: new Error('x'), reason: 'r', retryAfterSeconds: 0.05 } : { ok: true as const, value: 'done' }),
      { sleep: sleepRecorder },
    );
    assert.equal(value, 'done');
    assert.equal(waits.at(-1), 50, 'Retry-After is honoured exactly when within the cap');
  });
});

describe('sleep', () => {
  it('resolves after the delay, not before', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    let settled = false;
    const pending = sleep(1_000).then(() => { settled = true; });
    t.mock.timers.tick(999);
    await new Promise((resolve) => setImmediate(resolve)); // let any settled promise run its callbacks
    assert.equal(settled, false, 'resolved before the delay elapsed');
    t.mock.timers.tick(1);
    await pending;
    assert.equal(settled, true);
  });
  it('rejects with AbortedError at once when already aborted, or when aborted while waiting', async () => {
    await assert.rejects(sleep(10_000, AbortSignal.abort()), AbortedError);
    const controller = new AbortController();
    const pending = sleep(10_000, controller.signal);
    controller.abort();
    await assert.rejects(pending, AbortedError);
  });
});
