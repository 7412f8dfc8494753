// Registers the feature areas one after another (issue 28, docs/areas.md). An area that throws while it
// registers is taken back — every disposable it added to the extension's subscriptions, pushed into the
// `own` list it is given (as it creates each one, so a throw halfway loses none) or handed back is
// disposed, so no half of it stays registered — and the areas after it still come up. An area built from a
// failed one fails with it: it is given a stand-in that throws on use. activate reports all failures once.
// No run-time vscode import: the unit tests run it on plain Node.

import type { Disposable } from 'vscode';

/** What an area's register function hands back: its API (for the root and the tests) and what to dispose. */
export interface RegisteredArea<T> {
  api: T;
  disposables: readonly Disposable[];
}

export interface AreaFailure {
  /** The area's name as the user reads it. */
  area: string;
  error: unknown;
}

/** Thrown on any use of a failed area's stand-in (the areas built from it fail with this). */
export class AreaUnavailableError extends Error {
  override readonly name = 'AreaUnavailableError';
  constructor(readonly area: string) {
    super(`${area} did not start`);
  }
}

export class AreaRegistry {
  readonly failures: AreaFailure[] = [];

  constructor(
    /** The extension's subscriptions: areas may add to them while they register. */
    private readonly subscriptions: Disposable[],
    private readonly log: (line: string) => void,
    /** The tests' hook: called after each area registered; throwing fails the area as if it had thrown. */
    private readonly afterRegister: (area: string) => void = () => undefined,
  ) {}

  /**
   * Registers one area; on failure, undoes what it registered and returns a stand-in that throws on use.
   * `own`: where the area pushes each disposable as it creates it (kept with the extension's on success).
   */
  add<T extends object>(area: string, register: (own: Disposable[]) => RegisteredArea<T>): T {
    const mark = this.subscriptions.length;
    const own: Disposable[] = [];
    let registered: RegisteredArea<T> | undefined;
    try {
      registered = register(own);
      this.afterRegister(area);
      this.subscriptions.push(...new Set([...own, ...registered.disposables]));
      return registered.api;
    } catch (error) {
      const added = [...new Set([...this.subscriptions.splice(mark), ...own, ...(registered?.disposables ?? [])])].reverse();
      for (const disposable of added) this.disposeQuietly(area, disposable);
      this.failures.push({ area, error });
      // eslint-disable-next-line no-restricted-syntax -- the log's words: the user sees activate's one report
      const why = error instanceof AreaUnavailableError ? `it needs ${error.area}` : error instanceof Error ? (error.stack ?? error.message) : String(error);
      // eslint-disable-next-line no-restricted-syntax -- the log's words, as above
      this.log(`${area} did not start: ${why}`);
      return unavailable<T>(area);
    }
  }

  private disposeQuietly(area: string, disposable: Disposable): void {
    try {
      disposable.dispose();
    } catch (error) {
      // eslint-disable-next-line no-restricted-syntax -- the log's words, as above
      this.log(`${area}: disposing after its failure failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/**
 * activate's own failure path: what it registered before it threw (services, the profile commands, the
 * areas) is disposed, newest first, the failure is reported once, and the error goes on to VS Code.
 */
export function startOrTakeBack<T>(subscriptions: Disposable[], start: () => T, report: (error: unknown) => void): T {
  const mark = subscriptions.length;
  try {
    return start();
  } catch (error) {
    for (const disposable of subscriptions.splice(mark).reverse()) {
      try {
        disposable.dispose();
      } catch {
        // Taking back goes on: the failure reported below is the one that matters.
      }
    }
    report(error);
    throw error;
  }
}

/**
 * What a port reads from an area built later (a closure the root passes in by constructor): the area's
 * answer, or `otherwise` when that area did not start (its stand-in throws AreaUnavailableError).
 */
export function fromArea<R>(read: () => R, otherwise: R): R {
  try {
    return read();
  } catch (error) {
    if (error instanceof AreaUnavailableError) return otherwise;
    throw error;
  }
}

/** A stand-in for a failed area: reading any member throws, so what is built from it fails with it. */
function unavailable<T extends object>(area: string): T {
  return new Proxy({} as T, {
    get: (_target, key) => {
      // Not a thenable: awaiting or resolving a stand-in must not throw by itself.
      if (key === 'then') return undefined;
      throw new AreaUnavailableError(area);
    },
  });
}
