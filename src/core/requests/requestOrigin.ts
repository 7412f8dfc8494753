// Where a compute request came from, for the request history: the command that was running (palette,
// view buttons, menus, links: every command goes through the command table), an agent tool, or a
// background action (a budget's auto-pause, a pause timer). Carried by Node's AsyncLocalStorage, so
// it follows every await of the work it wraps, without passing it down by hand. Nothing: background.

import { AsyncLocalStorage } from 'node:async_hooks';

export type RequestOrigin =
  | { kind: 'command'; command: string }
  | { kind: 'tool'; tool: string }
  | { kind: 'budget' }
  | { kind: 'timer' };

const origins = new AsyncLocalStorage<RequestOrigin>();

/** Runs `work` with `origin` as the origin of every request it sends (an inner origin wins). */
export function runWithOrigin<T>(origin: RequestOrigin, work: () => T): T {
  return origins.run(origin, work);
}

/** The origin of the work running now; undefined for background work (polling, refresh timers). */
export function currentOrigin(): RequestOrigin | undefined {
  return origins.getStore();
}

/**
 * Runs `work` as background work, whatever origin the caller had: for timers that outlive the command
 * that set them (a poll loop woken by a command keeps polling on its own afterwards).
 */
export function runInBackground<T>(work: () => T): T {
  return origins.exit(work);
}
