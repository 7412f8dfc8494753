// The remote state of one kind for one owner (a profile): the items of the last poll, and one
// change event per poll with what was added, changed and removed. Items missing from a listing are
// removed only when that listing was complete. Linear in the items listed; no editor API.

import type { Listing, StateChange, StateDefinition } from './definition';

/** Who hears a change first: views render before followers (notifications, spend) are told. */
export type ListenerPhase = 'view' | 'follow';
export type ChangeListener<T> = (change: StateChange<T>) => void | Promise<void>;

export class RemoteStore<T, K = unknown, Source = unknown> {
  private byKey = new Map<K, T>();
  private order: T[] = [];
  private loadedAt: number | undefined;
  private listedFrom: number | undefined;
  private failure: unknown;
  private lastRead: { complete: boolean; total: number } = { complete: true, total: 0 };
  private readonly listeners: { phase: ListenerPhase; listener: ChangeListener<T> }[] = [];
  private readonly errorListeners: ((error: unknown) => void)[] = [];

  constructor(
    readonly definition: StateDefinition<T, K, Source>,
    readonly owner: string,
  ) {}

  get kind(): string {
    return this.definition.kind;
  }

  /** Every item of the last successful poll, in the listing's order. */
  get items(): readonly T[] {
    return this.order;
  }

  /** Whether the last listing read everything, and what the platform counted. */
  get completeness(): { complete: boolean; total: number } {
    return this.lastRead;
  }

  get(key: K): T | undefined {
    return this.byKey.get(key);
  }

  /** When the last successful poll finished (undefined before the first). */
  get updatedAt(): number | undefined {
    return this.loadedAt;
  }

  /**
   * When the listing behind the items started (undefined before the first): whatever existed before
   * this time is in it. A listing that started earlier can finish later than something else began.
   */
  get listedSince(): number | undefined {
    return this.listedFrom;
  }

  get loaded(): boolean {
    return this.loadedAt !== undefined;
  }

  /** The last poll's error, until a poll succeeds. */
  get error(): unknown {
    return this.failure;
  }

  /** Known and at rest: nothing here can change on its own. A store never read is not at rest. */
  get atRest(): boolean {
    return this.loaded && this.definition.atRest(this.order);
  }

  /** Listens to every change; returns the unsubscribe function. */
  onChange(listener: ChangeListener<T>, phase: ListenerPhase = 'follow'): () => void {
    const entry = { phase, listener };
    this.listeners.push(entry);
    return () => {
      const index = this.listeners.indexOf(entry);
      if (index >= 0) this.listeners.splice(index, 1);
    };
  }

  onError(listener: (error: unknown) => void): () => void {
    this.errorListeners.push(listener);
    return () => {
      const index = this.errorListeners.indexOf(listener);
      if (index >= 0) this.errorListeners.splice(index, 1);
    };
  }

  /** Takes a fresh listing: computes the change, keeps the items, tells the listeners (views first). */
  async apply(listing: Listing<T>, at: number, startedAt = at): Promise<StateChange<T>> {
    this.listedFrom = startedAt;
    const change = this.diff(listing, at);
    await this.emit(change);
    return change;
  }

  /** Records a failed poll (the items stay as they were). */
  fail(error: unknown): void {
    this.failure = error;
    for (const listener of [...this.errorListeners]) listener(error);
  }

  /** Forgets everything (the owner went away). Listeners stay. */
  reset(): void {
    this.byKey = new Map();
    this.order = [];
    this.loadedAt = undefined;
    this.listedFrom = undefined;
    this.failure = undefined;
    this.lastRead = { complete: true, total: 0 };
  }

  private diff(listing: Listing<T>, at: number): StateChange<T> {
    const { key, equal } = this.definition;
    const first = !this.loaded;
    const next = new Map<K, T>();
    const order: T[] = [];
    const added: T[] = [];
    const changed: { before: T; after: T }[] = [];
    for (const item of listing.items) {
      const id = key(item);
      if (next.has(id)) continue;
      next.set(id, item);
      order.push(item);
      const before = this.byKey.get(id);
      if (before === undefined) added.push(item);
      else if (!equal(before, item)) changed.push({ before, after: item });
    }
    const removed: T[] = [];
    for (const [id, before] of this.byKey) {
      if (next.has(id)) continue;
      if (listing.complete) {
        removed.push(before);
      } else {
        // Not read this time (the cap): it may well still exist, so keep it.
        next.set(id, before);
        order.push(before);
      }
    }
    this.byKey = next;
    this.order = order;
    this.lastRead = { complete: listing.complete, total: Math.max(listing.total ?? 0, order.length) };
    this.loadedAt = at;
    this.failure = undefined;
    return { kind: this.definition.kind, owner: this.owner, added, changed, removed, items: order, complete: listing.complete, first, at };
  }

  private async emit(change: StateChange<T>): Promise<void> {
    const call = (entry: { listener: ChangeListener<T> }): Promise<void> =>
      Promise.resolve()
        .then(() => entry.listener(change))
        .catch((error: unknown) => {
          // One listener's failure never stops the others; it is reported like a poll's.
          for (const listener of [...this.errorListeners]) listener(error);
        });
    const snapshot = [...this.listeners];
    await Promise.all(snapshot.filter((entry) => entry.phase === 'view').map(call));
    await Promise.all(snapshot.filter((entry) => entry.phase === 'follow').map(call));
  }
}
