// Test-only timestamps of a reply's first-token path, for the browser benchmark of the chat latency
// (test/e2e/chatLatency.ts). Off unless the extension host runs with COMPUTE_TOOLKIT_LATENCY_PROBE=1, so
// users pay one undefined check per hop. Times are wall-clock milliseconds with sub-millisecond
// precision (performance.timeOrigin + now()), the clock the browser and the sandbox also use.

import type { HopTimes } from '../../shared/protocol';

export type { HopTimes } from '../../shared/protocol';

const enabled = typeof process !== 'undefined' && process.env.COMPUTE_TOOLKIT_LATENCY_PROBE === '1';

export function wallClock(): number {
  return performance.timeOrigin + performance.now();
}

/** The hops of the reply being started: filled as they happen, handed out with its first delta. */
export class LatencyProbe {
  private current: HopTimes = {};

  /** A send (or regenerate) reached the host: a new reply's path starts. */
  start(): void {
    this.current = { hostReceivedAt: wallClock() };
  }

  mark(hop: Exclude<keyof HopTimes, 'hostReceivedAt'>): void {
    this.current[hop] ??= wallClock();
  }

  /** For the first delta of a reply (its first event was marked): the times, once, with the post marked. */
  takeForFirstPost(): HopTimes | undefined {
    if (this.current.firstEventAt === undefined) return undefined;
    const times = { ...this.current, postedAt: wallClock() };
    this.current = {};
    return times;
  }
}

/** The probe, or undefined (the usual case: nothing is recorded). */
export const latencyProbe: LatencyProbe | undefined = enabled ? new LatencyProbe() : undefined;
