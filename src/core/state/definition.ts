// What a kind of remote state is, for the store (docs/areas.md, CONTRIBUTING "Add a kind of remote
// state"): how to list all of it, how to key and compare an item, and when it is at rest (nothing
// can change on its own, so polling may stop). Tasks are one definition (core/tasks/taskState.ts);
// jobs, NAS volumes, transfers and deployments are each one more, never a new loop.

/** One full read of a kind's items. `complete` false: the cap stopped the read (rows left unread). */
export interface Listing<T> {
  items: readonly T[];
  complete: boolean;
  /** What the platform says exists, when it says (more than `items` when incomplete). */
  total?: number;
}

/** What the scheduler tells a kind's listing about the poll it serves. */
export interface ListContext<T> {
  /** The items the store holds now, in its order (empty before its first look). */
  readonly previous: readonly T[];
  /**
   * A look (the store's first poll, a wake, a refresh, new credentials): anything may have been set
   * moving, so read everything the kind shows. False on a timer poll, where a kind whose list holds
   * many settled rows (ended jobs) may read only what moves, keeping the rest from `previous`.
   */
  readonly look: boolean;
}

export interface StateDefinition<T, K, Source> {
  /** A name for logs and events: 'tasks', 'jobs', 'volumes', … */
  readonly kind: string;
  /** The item's identity (a task id). Two items with one key in a listing: the first wins. */
  key(item: T): K;
  /**
   * Reads every item (every page, up to the listing cap). One call = the kind's cost of one poll. The
   * scheduler always passes `context`; a kind that lists everything each time may ignore it.
   */
  list(source: Source, signal: AbortSignal, context?: ListContext<T>): Promise<Listing<T>>;
  /** True when nothing listed can change on its own (all terminal or paused, nothing pending). */
  atRest(items: readonly T[]): boolean;
  /** Whether two looks at one item are the same (changed items are reported when false). */
  equal(a: T, b: T): boolean;
}

/** What one poll of one kind found, against the previous poll. */
export interface StateChange<T> {
  readonly kind: string;
  /** The profile (or any other owner) the store belongs to. */
  readonly owner: string;
  readonly added: readonly T[];
  readonly changed: readonly { before: T; after: T }[];
  /** Only when the listing was complete: an incomplete read never ends anything. */
  readonly removed: readonly T[];
  /** Every item now, in the listing's order. */
  readonly items: readonly T[];
  readonly complete: boolean;
  /** True for the first successful poll of this store (nothing before it to compare with). */
  readonly first: boolean;
  /** When the listing finished (the scheduler's clock). */
  readonly at: number;
}
