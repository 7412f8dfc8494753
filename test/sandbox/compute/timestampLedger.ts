// The (token, timestamp) pairs already used, so a replayed or reused timestamp is refused. Only
// timestamps inside the acceptance window need remembering (older ones fail the window check), and
// the memory per token is capped for clients that send more than any real one would.

/** Cap on remembered timestamps per token, far above what a client sends in 5 minutes. */
export const MAX_REMEMBERED_TIMESTAMPS = 50_000;

export class TimestampLedger {
  private readonly usedByToken = new Map<string, Set<number>>();

  constructor(
    private readonly now: () => number,
    private readonly windowMs: number,
    private readonly cap: number = MAX_REMEMBERED_TIMESTAMPS,
  ) {}

  /** Records `timestampMs` for `token`; false when it was used before. */
  use(token: string, timestampMs: number): boolean {
    let used = this.usedByToken.get(token);
    if (!used) {
      used = new Set();
      this.usedByToken.set(token, used);
    }
    if (used.has(timestampMs)) return false;
    used.add(timestampMs);
    if (used.size > this.cap) this.evict(used);
    return true;
  }

  /** How many timestamps are remembered for `token`. */
  size(token: string): number {
    return this.usedByToken.get(token)?.size ?? 0;
  }

  /**
   * Drops timestamps outside the window, then the oldest until half the cap is left: a sweep over the
   * whole set then runs at most once per cap/2 new timestamps, never on every request.
   */
  private evict(used: Set<number>): void {
    const oldestAllowed = this.now() - this.windowMs;
    for (const timestampMs of used) if (timestampMs <= oldestAllowed) used.delete(timestampMs);
    const keep = Math.floor(this.cap / 2);
    if (used.size <= keep) return;
    const sorted = [...used].sort((a, b) => a - b);
    for (const timestampMs of sorted.slice(0, used.size - keep)) used.delete(timestampMs);
  }
}
