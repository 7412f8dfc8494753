// Timestamps for signed requests: 13-digit milliseconds, never repeated for a token (the platform
// rejects a reused timestamp), corrected by the offset the server's Date header reveals.

import * as crypto from 'node:crypto';
import type { ClockSkew } from './api';

/** The platform accepts a timestamp within 5 minutes of its own clock (platform-facts §2). */
export const CLOCK_WINDOW_MS = 5 * 60 * 1000;

/**
 * Below this we do not correct: a Date header has 1-second resolution, so small measured offsets
 * are noise, and anything under half a minute is harmless against a 5-minute window.
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

export class RequestClock {
  /** Last timestamp handed out per token, keyed by a hash so the token itself is not kept. */
  private readonly lastByToken = new Map<string, number>();
  private correctionMs = 0;
  /** The last token seen and its map key (the client holds the token for its requests anyway). */
  private lastTokenKey: { token: string; key: string } | undefined;
  private lastSkew: ClockSkew | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** Local time as the client sees it (the injected clock, uncorrected). */
  localNow(): number {
    return this.now();
  }

  /**
   * The next timestamp for `token`: corrected local time, or one more than the previous timestamp
   * when several requests start in the same millisecond.
   */
  next(token: string): string {
    const key = this.keyFor(token);
    const candidate = Math.round(this.now() + this.correctionMs);
    const previous = this.lastByToken.get(key);
    const value = previous !== undefined && candidate <= previous ? previous + 1 : candidate;
    this.lastByToken.set(key, value);
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

/** The platform wants Unix milliseconds: exactly 13 digits (a 10-digit value is seconds). */
export function isThirteenDigitTimestamp(value: string): boolean {
  return /^\d{13}$/.test(value);
}
