// One poll loop per profile for every kind of remote state it holds (docs/areas.md, `state`): each
// poll lists every kind that is not at rest (one full listing per kind, every page), then each store
// emits one change. Never faster than the platform's floor (one poll per 10 s), slower once the window
// has been unfocused a while, backing off on failures — a kind whose listing fails backs off alone, so a
// failing volume list never slows the task notifications — and silent while every store is at rest
// until `wake()` (a create, a recover, focus regained). Timers and the clock are injected: tests drive it
// on plain Node without waiting.

import type { StateDefinition } from './definition';
import { RemoteStore } from './remoteStore';

/** The platform asks for at most one poll every 10 s (docs/platform.md). */
export const POLL_FLOOR_MS = 10_000;

export interface SchedulerClock {
  now(): number;
  setTimer(callback: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export const SYSTEM_CLOCK: SchedulerClock = {
  now: () => Date.now(),
  setTimer: (callback, ms) => setTimeout(callback, ms),
  clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface PollOptions {
  /** Base interval (ms); raised to POLL_FLOOR_MS. */
  intervalMs: number;
  /** After the window has been unfocused this long, the interval is multiplied by `unfocusedFactor`. */
  unfocusedAfterMs: number;
  unfocusedFactor: number;
  /** Ceiling of the failure backoff (ms). */
  maxBackoffMs: number;
}

export const DEFAULT_POLL_OPTIONS: PollOptions = {
  intervalMs: 15_000,
  unfocusedAfterMs: 5 * 60_000,
  unfocusedFactor: 4,
  maxBackoffMs: 5 * 60_000,
};

export class PollScheduler<Source> {
  private readonly stores: RemoteStore<unknown, unknown, Source>[] = [];
  private readonly storeListeners: ((store: RemoteStore<unknown, unknown, Source>) => void)[] = [];
  private readonly options: PollOptions;
  private timer: unknown;
  private timerAt: number | undefined;
  private inflight: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private controller: AbortController | undefined;
  /** A wake arrived while a poll ran: poll once more after it (the change may postdate its listing). */
  private again = false;
  /** The next poll lists every store, at rest or not (first poll, wake, refresh). */
  private lookAll = true;
  private lastPollAt: number | undefined;
  private failures = 0;
  /** Kinds whose last listing failed: how often in a row, and when the timer may list them again. */
  private readonly failing = new Map<RemoteStore<unknown, unknown, Source>, { failures: number; retryAt: number }>();
  /** Kinds whose look (wake, refresh) failed: their next listing, timer or not, is a look again. */
  private readonly owesLook = new Set<RemoteStore<unknown, unknown, Source>>();
  private focused = true;
  private unfocusedSince: number | undefined;
  private disposed = false;
  /** Listing calls made (one per kind per poll): what the benchmark and tests count. */
  listings = 0;

  constructor(
    /** Whose state this is (a profile id): stamped on every change. */
    readonly owner: string,
    /** The client (or any source) the definitions list from, asked at each poll. */
    private readonly source: () => Source,
    options: Partial<PollOptions> = {},
    private readonly clock: SchedulerClock = SYSTEM_CLOCK,
  ) {
    this.options = { ...DEFAULT_POLL_OPTIONS, ...options };
    this.options.intervalMs = Math.max(POLL_FLOOR_MS, this.options.intervalMs);
  }

  /**
   * The store of one kind, created on first ask (one per definition): a kind is polled once something
   * asks for it, so a new kind needs no list of kinds. One asked for after the loop started (or came
   * to rest) is looked at as soon as the floor allows.
   */
  store<T, K>(definition: StateDefinition<T, K, Source>): RemoteStore<T, K, Source> {
    const existing = this.stores.find((candidate) => candidate.definition === (definition as unknown));
    if (existing) return existing as unknown as RemoteStore<T, K, Source>;
    const created = new RemoteStore(definition, this.owner);
    const store = created as unknown as RemoteStore<unknown, unknown, Source>;
    this.stores.push(store);
    for (const listener of this.storeListeners) listener(store);
    if (this.lastPollAt !== undefined || this.active) this.wake();
    return created;
  }

  /** Calls `listener` with every store, those there now and those created later (a log of their errors). */
  onStore(listener: (store: RemoteStore<unknown, unknown, Source>) => void): void {
    this.storeListeners.push(listener);
    for (const store of this.stores) listener(store);
  }

  /** True while a poll is scheduled or running. */
  get active(): boolean {
    return this.timer !== undefined || this.inflight !== undefined;
  }

  get busy(): boolean {
    return this.inflight !== undefined;
  }

  /** Every store read and at rest: no poll until a wake. */
  get atRest(): boolean {
    return this.stores.length > 0 && this.stores.every((store) => store.atRest);
  }

  /** Polls as soon as the floor allows (something was set moving, or a view wants fresh rows). */
  wake(): void {
    if (this.disposed) return;
    this.lookAll = true;
    if (this.inflight) {
      this.again = true;
      return;
    }
    this.scheduleIn(this.floorWait());
  }

  /**
   * Polls now, whatever the floor (the user pressed Refresh, or just changed something), and resolves
   * when the stores hold the answer of a listing that started after this call: with a poll running,
   * one more follows it (shared by every caller meanwhile).
   */
  refresh(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    this.lookAll = true;
    if (this.inflight) {
      this.queued ??= this.inflight.then(() => {
        this.queued = undefined;
        return this.refresh();
      });
      return this.queued;
    }
    this.cancelTimer();
    return this.poll();
  }

  /**
   * The credentials changed (a key or token was stored): a poll running now would answer for the old
   * ones, so it is dropped unapplied and every store is listed again at once. Items stay, so nothing
   * reads as added or ended. Resolves when the stores hold the new answer.
   */
  restart(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    this.controller?.abort();
    this.controller = undefined;
    this.inflight = undefined;
    this.queued = undefined;
    this.again = false;
    this.cancelTimer();
    this.lookAll = true;
    return this.poll();
  }

  /**
   * For the in-host tests: the poll the timer has planned runs now instead of at its time — the same
   * poll (only what moves, unless a wake asked for a look at everything), so a test of "without
   * Refresh" need not wait out the floor. Resolves true once it is done; false when no poll is planned
   * (everything at rest, or a poll running), and nothing is polled.
   */
  async runPlannedPoll(): Promise<boolean> {
    if (this.disposed || this.timer === undefined || this.inflight) return false;
    this.cancelTimer();
    await this.poll();
    return true;
  }

  /** A new base interval (a changed setting), raised to the floor; applies from the next schedule. */
  setIntervalMs(intervalMs: number): void {
    this.options.intervalMs = Math.max(POLL_FLOOR_MS, intervalMs);
  }

  /** The poll running now, or a new one: for a first read that need not postdate anything. */
  look(): Promise<void> {
    return this.inflight ?? this.refresh();
  }

  setFocused(focused: boolean): void {
    if (focused === this.focused) return;
    this.focused = focused;
    this.unfocusedSince = focused ? undefined : this.clock.now();
  }

  /** The delay before the next poll, given the failures so far and the window's focus. */
  nextDelayMs(): number {
    const { intervalMs, unfocusedAfterMs, unfocusedFactor } = this.options;
    let delay = this.backoffMs(this.failures);
    const slow = !this.focused && this.unfocusedSince !== undefined && this.clock.now() - this.unfocusedSince >= unfocusedAfterMs;
    if (slow) delay = Math.max(delay, intervalMs * unfocusedFactor);
    return delay;
  }

  dispose(): void {
    this.disposed = true;
    this.cancelTimer();
    this.controller?.abort();
  }

  /** The interval after `failures` failed polls in a row: doubling, capped. */
  private backoffMs(failures: number): number {
    const { intervalMs, maxBackoffMs } = this.options;
    return failures === 0 ? intervalMs : Math.min(Math.max(maxBackoffMs, intervalMs), intervalMs * 2 ** Math.min(failures, 16));
  }

  /** A timer poll lists what moves and, once their backoff has passed, the kinds that failed. */
  private dueOnTimer(store: RemoteStore<unknown, unknown, Source>, now: number): boolean {
    const failed = this.failing.get(store);
    return failed ? failed.retryAt <= now : !store.atRest;
  }

  /** What the next timer poll waits for, or undefined when nothing calls for one (all at rest). */
  private nextPollDelay(): number | undefined {
    if (this.stores.some((store) => !store.atRest && !this.failing.has(store))) return this.nextDelayMs();
    if (this.failing.size === 0) return undefined;
    const retryAt = Math.min(...[...this.failing.values()].map((failed) => failed.retryAt));
    return Math.max(retryAt - this.clock.now(), this.nextDelayMs());
  }

  private floorWait(): number {
    return this.lastPollAt === undefined ? 0 : Math.max(0, this.lastPollAt + POLL_FLOOR_MS - this.clock.now());
  }

  private poll(): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    const run = this.pollOnce(controller).finally(() => {
      // A restart dropped this poll: the one that replaced it owns the schedule.
      if (this.inflight !== run) return;
      this.inflight = undefined;
      this.controller = undefined;
      if (this.disposed) return;
      const again = this.again;
      this.again = false;
      if (again) {
        this.scheduleIn(this.floorWait());
        return;
      }
      const delay = this.nextPollDelay();
      if (delay !== undefined) this.scheduleIn(delay);
    });
    this.inflight = run;
    return run;
  }

  private async pollOnce(controller: AbortController): Promise<void> {
    const startedAt = this.clock.now();
    this.lastPollAt = startedAt;
    // A store at rest is not listed by the timer's polls; a wake or a refresh looks at every store,
    // since anything may have been set moving.
    const look = this.lookAll;
    const due = look ? [...this.stores] : this.stores.filter((store) => this.dueOnTimer(store, startedAt));
    this.lookAll = false;
    const results = await Promise.all(
      due.map(async (store) => {
        this.listings += 1;
        try {
          // A store never read, or whose last look failed, is looked at whole whatever woke this poll.
          const context = { previous: store.items, look: look || !store.loaded || this.owesLook.has(store) };
          return { store, listing: await store.definition.list(this.source(), controller.signal, context) };
        } catch (error) {
          return { store, error };
        }
      }),
    );
    if (this.disposed || controller.signal.aborted) return;
    const at = this.clock.now();
    let failedCount = 0;
    for (const result of results) {
      if ('listing' in result && result.listing) {
        this.failing.delete(result.store);
        this.owesLook.delete(result.store);
        await result.store.apply(result.listing, at, startedAt);
      } else {
        failedCount += 1;
        if (look) this.owesLook.add(result.store);
        const failures = (this.failing.get(result.store)?.failures ?? 0) + 1;
        this.failing.set(result.store, { failures, retryAt: startedAt + this.backoffMs(failures) });
        result.store.fail(result.error);
      }
    }
    // The whole poll backs off only when every kind it listed failed (the platform or the network is down).
    this.failures = due.length > 0 && failedCount === due.length ? this.failures + 1 : 0;
  }

  private scheduleIn(ms: number): void {
    const at = this.clock.now() + ms;
    // An earlier poll already planned stays.
    if (this.timer !== undefined && this.timerAt !== undefined && this.timerAt <= at) return;
    this.cancelTimer();
    this.timerAt = at;
    this.timer = this.clock.setTimer(() => {
      this.timer = undefined;
      this.timerAt = undefined;
      if (!this.disposed && !this.inflight) void this.poll();
    }, ms);
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.timerAt = undefined;
  }
}
