// One failure is shown once: when the Resources, Tasks and Storage views fail for the same reason (a
// bad token, an unreachable host), the whole explanation appears in one notification, and the views
// keep a one-line summary. A cause is shown again only after every view that failed with it recovered
// (or the profile changed). No editor API here: the caller passes how to describe and how to show.

export interface LoadFailureNoticeDeps {
  /** Identifies the cause, the same for every view: undefined when nothing should be shown (cancelled). */
  causeOf(error: unknown): string | undefined;
  /** Shows the failure (a notification with the fixing actions). */
  show(error: unknown, view: string): void;
}

export class LoadFailureNotice {
  /** The cause each view is failing with now. */
  private readonly failing = new Map<string, string>();
  private readonly shown = new Set<string>();

  constructor(private readonly deps: LoadFailureNoticeDeps) {}

  failed(view: string, error: unknown): void {
    const cause = this.deps.causeOf(error);
    if (cause === undefined) return;
    this.failing.set(view, cause);
    if (this.shown.has(cause)) return;
    this.shown.add(cause);
    this.deps.show(error, view);
  }

  loaded(view: string): void {
    this.failing.delete(view);
    const stillFailing = new Set(this.failing.values());
    for (const cause of this.shown) if (!stillFailing.has(cause)) this.shown.delete(cause);
  }

  /** Profile switch: what failed before says nothing about the new profile. */
  reset(): void {
    this.failing.clear();
    this.shown.clear();
  }
}
