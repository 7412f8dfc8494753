import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CLOCK_WINDOW_MS,
  CORRECTION_THRESHOLD_MS,
  isThirteenDigitTimestamp,
  RequestClock,
  skewFromDateHeader,
  TimestampHistory,
} from '../../../src/core/compute/clock';

describe('timestamps', () => {
  it('are 13-digit ms and strictly increasing over 10,000 calls in the same millisecond', () => {
    const frozen = 1_718_000_000_000;
    const clock = new RequestClock(() => frozen);
    let previous = 0;
    const seen = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const ts = clock.next('token-a');
      assert.ok(isThirteenDigitTimestamp(ts), ts);
      assert.ok(Number(ts) > previous, `${ts} after ${previous}`);
      previous = Number(ts);
      seen.add(ts);
    }
    assert.equal(seen.size, 10_000);
    assert.equal(previous, frozen + 9_999);
  });

  it('are independent per token and never go backwards when the clock does', () => {
    let now = 1_718_000_000_000;
    const clock = new RequestClock(() => now);
    assert.equal(clock.next('a'), String(now));
    assert.equal(clock.next('b'), String(now), 'another token may use the same millisecond');
    now -= 5_000; // NTP step backwards
    assert.equal(clock.next('a'), String(now + 5_001));
    now += 10_000;
    assert.equal(clock.next('a'), String(now));
  });

  it('validates the 13-digit format', () => {
    assert.equal(isThirteenDigitTimestamp('1718000000000'), true);
    assert.equal(isThirteenDigitTimestamp('1718000000'), false);
    assert.equal(isThirteenDigitTimestamp('17180000000000'), false);
    assert.equal(isThirteenDigitTimestamp('171800000000a'), false);
  });
});

describe('clock skew from the Date header', () => {
  const date = (ms: number): string => new Date(ms).toUTCString();

  it('compares the header (+500 ms for its whole-second resolution) with the round-trip midpoint', () => {
    const server = Date.UTC(2026, 0, 1, 12, 0, 0); // whole second
    // Sent at server−1000, received at server+1000 → midpoint = server; header = server → +500.
    const skew = skewFromDateHeader(date(server), server - 1_000, server + 1_000);
    assert.deepEqual(skew, { offsetMs: 500, rttMs: 2_000, outsideWindow: false });
  });

  it('reports the local clock 10 minutes behind as a positive offset outside the window', () => {
    const server = Date.UTC(2026, 0, 1, 12, 0, 0);
    const local = server - 10 * 60_000;
    const skew = skewFromDateHeader(date(server), local - 20, local + 20);
    assert.equal(skew?.offsetMs, 10 * 60_000 + 500);
    assert.equal(skew?.outsideWindow, true);
  });

  it('reports exactly 5 minutes as outside (the window is "less than 5 minutes")', () => {
    const server = Date.UTC(2026, 0, 1, 12, 0, 0);
    const local = server + 500 + CLOCK_WINDOW_MS; // ahead
    const skew = skewFromDateHeader(date(server), local, local);
    assert.equal(skew?.offsetMs, -CLOCK_WINDOW_MS);
    assert.equal(skew?.outsideWindow, true);
  });

  it('ignores an unreadable Date header', () => {
    assert.equal(skewFromDateHeader('yesterday-ish', 0, 1), undefined);
  });

  it('corrects timestamps only when the offset is large enough to matter', () => {
    const now = 1_718_000_000_000;
    const clock = new RequestClock(() => now);
    clock.observe({ offsetMs: CORRECTION_THRESHOLD_MS - 1, rttMs: 5, outsideWindow: false });
    assert.equal(clock.appliedCorrectionMs, 0);
    assert.equal(clock.next('t'), String(now));
    clock.observe({ offsetMs: 600_000, rttMs: 5, outsideWindow: true });
    assert.equal(clock.next('t'), String(now + 600_000));
    clock.reset();
    assert.equal(clock.appliedCorrectionMs, 0);
    // History survives reset: continuing from now+600000 would be outside the window, so the clock
    // restarts from local time, but skips `now`, which was handed out before.
    assert.equal(clock.next('t'), String(now + 1));
  });

  it('a local clock far ahead: once corrected, timestamps follow the server, not the refused ones', () => {
    const local = 1_718_000_000_000;
    let now = local;
    const clock = new RequestClock(() => now);
    const refused = [clock.next('t'), clock.next('t')]; // 10 minutes ahead of the server: refused as too new
    clock.observe({ offsetMs: -600_000, rttMs: 5, outsideWindow: true });
    now += 20;
    const corrected = Number(clock.next('t'));
    assert.equal(corrected, local + 20 - 600_000, 'the server time, not one more than the refused timestamps');
    assert.ok(!refused.includes(String(corrected)));
    // From there on strictly increasing again, also within one millisecond.
    assert.equal(clock.next('t'), String(corrected + 1));
    now += 5;
    assert.equal(clock.next('t'), String(corrected + 5));
  });

  it('never repeats a value after a restart, and keeps its memory bounded', () => {
    let now = 1_718_000_000_000;
    const history = new TimestampHistory();
    const clock = new RequestClock(() => now, history);
    const seen = new Set<string>();
    for (let i = 0; i < 3_000; i++) seen.add(clock.next('t'));
    clock.observe({ offsetMs: 600_000, rttMs: 1, outsideWindow: true });
    for (let i = 0; i < 100; i++) seen.add(clock.next('t'));
    clock.reset(); // back to local time: the first 3,000 values lie ahead and must be skipped
    for (let i = 0; i < 3_000; i++) seen.add(clock.next('t'));
    assert.equal(seen.size, 6_100);
    now += 60 * 60_000; // an hour later the old values can no longer collide
    for (let i = 0; i < 5_000; i++) clock.next('t');
    assert.ok(history.size <= 10_000, `remembers ${history.size} values`);
  });

  it('clocks sharing a history (clients of one token) never hand out the same value', () => {
    const frozen = 1_718_000_000_000;
    const history = new TimestampHistory();
    const first = new RequestClock(() => frozen, history);
    const rebuilt = new RequestClock(() => frozen, history);
    assert.equal(first.next('t'), String(frozen));
    assert.equal(rebuilt.next('t'), String(frozen + 1));
  });
});
