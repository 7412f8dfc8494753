// One remote list behind a tree: loads on demand, never runs two loads at once, drops answers that
// arrive after a profile switch, and keeps the last good value when a refresh fails.
import * as vscode from 'vscode';
import { isAbort } from '../../core/errors';

export type LoadState<T> =
  | { kind: 'idle' }
  | { kind: 'loaded'; value: T; loadedAt: number }
  | { kind: 'failed'; error: unknown; stale?: { value: T; loadedAt: number } };

export class RemoteData<T> implements vscode.Disposable {
  private current: LoadState<T> = { kind: 'idle' };
  private inflight: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private controller: AbortController | undefined;
  /** Bumped by reset(): a load that started before it must not write its answer. */
  private generation = 0;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after every load settles (success or failure) and after reset/update. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly load: (signal: AbortSignal) => Promise<T>) {}

  get state(): LoadState<T> {
    return this.current;
  }

  get loading(): boolean {
    return this.inflight !== undefined;
  }

  /** The freshest value we have, even if the last refresh failed. */
  get value(): T | undefined {
    if (this.current.kind === 'loaded') return this.current.value;
    if (this.current.kind === 'failed') return this.current.stale?.value;
    return undefined;
  }

  /** Starts a load, or joins the one already running (no overlapping requests). */
  refresh(): Promise<void> {
    if (this.inflight) return this.inflight;
    const generation = this.generation;
    const controller = new AbortController();
    this.controller = controller;
    const run = async (): Promise<void> => {
      try {
        const value = await this.load(controller.signal);
        if (generation !== this.generation) return;
        this.current = { kind: 'loaded', value, loadedAt: Date.now() };
      } catch (error) {
        if (generation !== this.generation || isAbort(error)) return;
        this.current = this.failed(error);
      } finally {
        if (generation === this.generation) {
          this.inflight = undefined;
          this.controller = undefined;
          this.changed.fire();
        }
      }
    };
    const promise = run();
    this.inflight = promise;
    return promise;
  }

  /**
   * Like refresh(), but the answer is guaranteed to come from a load that started after this call:
   * after a create or a pause, joining a load that began before it would show the old state.
   */
  refreshAfterChange(): Promise<void> {
    if (!this.inflight) return this.refresh();
    this.queued ??= this.inflight.then(() => {
      this.queued = undefined;
      return this.refresh();
    });
    return this.queued;
  }

  /** Loads once if nothing was loaded yet; otherwise returns at once (or joins the running load). */
  ensureLoaded(): Promise<void> {
    if (this.inflight) return this.inflight;
    if (this.current.kind === 'idle') return this.refresh();
    return Promise.resolve();
  }

  /** Forgets everything (profile switch): aborts the running load and discards its answer. */
  reset(): void {
    this.generation += 1;
    this.controller?.abort();
    this.controller = undefined;
    this.inflight = undefined;
    this.queued = undefined;
    this.current = { kind: 'idle' };
    this.changed.fire();
  }

  /** Takes a value read elsewhere (the remote-state store's poll) as the freshest load. */
  accept(value: T): void {
    this.current = { kind: 'loaded', value, loadedAt: Date.now() };
    this.changed.fire();
  }

  /** Takes a failure read elsewhere (the store's poll): the last good value stays as stale. */
  fail(error: unknown): void {
    this.current = this.failed(error);
    this.changed.fire();
  }

  /** A failure that keeps the last good value as stale. */
  private failed(error: unknown): LoadState<T> {
    const previous = this.current;
    const stale = previous.kind === 'loaded' ? { value: previous.value, loadedAt: previous.loadedAt } : previous.kind === 'failed' ? previous.stale : undefined;
    return stale ? { kind: 'failed', error, stale } : { kind: 'failed', error };
  }

  /** Applies a local change (an optimistic insert) to the loaded value. */
  update(change: (value: T) => T): void {
    if (this.current.kind === 'loaded') {
      this.current = { ...this.current, value: change(this.current.value) };
      this.changed.fire();
    }
  }

  dispose(): void {
    this.controller?.abort();
    this.changed.dispose();
  }
}
