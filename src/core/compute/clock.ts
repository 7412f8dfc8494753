// Timestamps for signed requests: 13-digit milliseconds, never repeated for a token (the platform
// rejects a reused timestamp) within this process nor across this user's processes (each issues only
// its own residue: timestampSlots.ts), corrected by the offset the server's Date header reveals.

import * as crypto from 'node:crypto';
import type { ClockSkew } from './api';
import { CLOCK_WINDOW_MS, WHOLE_CLOCK, type TimestampPartition } from './timestampSlots';

export { CLOCK_WINDOW_MS } from './timestampSlots';

/**
 * Below this we do not correct: a Date header has 1-second resolution, so small measured offsets
 * are noise, and anything under half a minute is harmless against the 5-minute limit.
 */
export const CORRECTION_THRESHOLD_MS = 30_000;

/**
 * Skew from one exchange. The server wrote `Date` somewhere between sending and receiving, so it is
 * compared with the midpoint of the round trip; the header truncates to whole seconds, so its true
 * value lies in [date, date + 1000) and +500 ms centres the estimate.
 */
export function skewFromDateHeader(dateHeader: string, sentAtMs: number, receivedAtMs: number): ClockSkew | undefined {
  const serverMs = Date.parse(dateHeader);
  if (Number.isNaN(serverMs)) return undefined;
  const midpoint = (sentAtMs + receivedAtMs) / 2;
  const offsetMs = Math.round(serverMs + 500 - midpoint);
  return { offsetMs, rttMs: Math.max(0, receivedAtMs - sentAtMs), outsideWindow: Math.abs(offsetMs) >= CLOCK_WINDOW_MS };
}

/** What was handed out for one token: the highest value, and every value recent enough to matter. */
interface TokenHistory {
  last: number;
  issued: Set<number>;
  /** Size at which `issued` is next swept of values too old to ever be sent again. */
  sweepAt: number;
}

const FIRST_SWEEP_AT = 1024;

/** Timestamps handed out per token, keyed by a hash of the token so the token itself is not kept. */
export class TimestampHistory {
  private readonly byTokenKey = new Map<string, TokenHistory>();

  forKey(key: string): TokenHistory {
    let history = this.byTokenKey.get(key);
    if (!history) {
      history = { last: 0, issued: new Set(), sweepAt: FIRST_SWEEP_AT };
      this.byTokenKey.set(key, history);
    }
    return history;
  }

  /** How many values are remembered in all (tests check the memory stays bounded). */
  get size(): number {
    let total = 0;
    for (const history of this.byTokenKey.values()) total += history.issued.size;
    return total;
  }
}

/**
 * One history for every client in this process: a client rebuilt after a secret or profile change,
 * or two clients of one token, must not hand out the same millisecond twice.
 */
export const processTimestampHistory = new TimestampHistory();

export class RequestClock {
  private correctionMs = 0;
  /** The last token seen and its map key (the client holds the token for its requests anyway). */
  private lastTokenKey: { token: string; key: string } | undefined;
  private lastSkew: ClockSkew | undefined;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly history: TimestampHistory = new TimestampHistory(),
    /** Which residue of the millisecond clock this process may issue (read on each call; cheap). */
    private readonly partition: () => TimestampPartition = () => WHOLE_CLOCK,
  ) {}

  /** Local time as the client sees it (the injected clock, uncorrected). */
  localNow(): number {
    return this.now();
  }

  /**
   * The next timestamp for `token`: corrected local time, never one handed out before. Requests that
   * start in the same millisecond (or after a small step back of the clock) get one more than the
   * previous timestamp, so timestamps increase strictly. The one exception: when continuing upwards
   * would put the timestamp outside the platform's window (the server showed our clock was far ahead,
   * so earlier timestamps were all refused as too new), it restarts from the corrected time, still
   * skipping every value already used. Every value is in this process's residue class, so steps
   * are `slots` ms apart (1 without a partition).
   */
  next(token: string): string {
    const partition = this.partition();
    const { slot, slots } = partition;
    const history = this.history.forKey(this.keyFor(token));
    // Never at or below what the slot's previous holder issued (timestampSlots.ts `notBefore`) when that is
    // close ahead: a clock far from it (skewed, a test's) keeps its own values, as the window decides them.
    const now = Math.round(this.now() + this.correctionMs);
    const floor = partition.notBefore;
    const candidate = floor !== undefined && now <= floor && floor - now < CLOCK_WINDOW_MS ? floor + 1 : now;
    let value = alignUp(candidate, slot, slots);
    if (value <= history.last && history.last + slots - candidate < CLOCK_WINDOW_MS) value = alignUp(history.last + 1, slot, slots);
    while (history.issued.has(value)) value += slots;
    history.issued.add(value);
    partition.issued?.(value);
    if (value > history.last) history.last = value;
    if (history.issued.size >= history.sweepAt) sweep(history, candidate);
    return String(value);
  }

  /** One profile sends one token again and again: hash it once, not per request. */
  private keyFor(token: string): string {
    if (this.lastTokenKey?.token !== token) {
      this.lastTokenKey = { token, key: crypto.createHash('sha256').update(token).digest('base64') };
    }
    return this.lastTokenKey.key;
  }

  /** Records the skew seen in a response; starts correcting once it is large enough to matter. */
  observe(skew: ClockSkew): void {
    this.lastSkew = skew;
    this.correctionMs = Math.abs(skew.offsetMs) >= CORRECTION_THRESHOLD_MS ? skew.offsetMs : 0;
  }

  /** The offset currently added to local time (0 when the clock is close enough). */
  get appliedCorrectionMs(): number {
    return this.correctionMs;
  }

  get lastObservedSkew(): ClockSkew | undefined {
    return this.lastSkew;
  }

  /** Forgets the learned offset. The per-token history stays: dropping it could repeat a timestamp. */
  reset(): void {
    this.correctionMs = 0;
    this.lastTokenKey = undefined;
    this.lastSkew = undefined;
  }
}

/** The smallest value ≥ `value` with value % slots === slot. */
function alignUp(value: number, slot: number, slots: number): number {
  if (slots <= 1) return value;
  const residue = ((value % slots) + slots) % slots;
  return value + ((slot - residue + slots) % slots);
}

/** The platform wants Unix milliseconds: exactly 13 digits (a 10-digit value is seconds). */
export function isThirteenDigitTimestamp(value: string): boolean {
  return /^\d{13}$/.test(value);
}

/**
 * Forgets values so far below the current time that no later timestamp can reach them (the clock
 * would have to step back more than two windows). Runs when the set has doubled, so its cost is
 * spread over many requests and memory stays proportional to the request rate.
 */
function sweep(history: TokenHistory, current: number): void {
  const oldestKept = current - 2 * CLOCK_WINDOW_MS;
  for (const value of history.issued) if (value < oldestKept) history.issued.delete(value);
  history.sweepAt = Math.max(FIRST_SWEEP_AT, history.issued.size * 2);
}
