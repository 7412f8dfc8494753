// What a kind's service (src/core/<area>/<kind>Service.ts) is built with: the client it calls and the
// one remote-state store it wakes after each change it makes (CONTRIBUTING.md, "Add a platform operation").

import type { CallOptions, ComputeClient, OperationId, OperationParams, OperationResult } from '../compute/api';

/** The client, read per call: the active profile's (a switch takes effect at once) or one profile's. */
export type ClientSource = () => ComputeClient;

/** Tells the store that the platform changed; the store polls as soon as its floor allows. */
export type WakeStore = () => void | Promise<void>;

export const NO_WAKE: WakeStore = () => undefined;

/** The call every service makes: the operation, its parameters, and the caller's cancellation. */
export function send<K extends OperationId>(client: ClientSource, operation: K, params: OperationParams<K>, signal?: AbortSignal, options?: Omit<CallOptions, 'signal'>): Promise<OperationResult<K>> {
  const callOptions: CallOptions = { ...options, ...(signal ? { signal } : {}) };
  // No options object when there are none: the same call the caller would have written by hand.
  return client().call(operation, params, Object.keys(callOptions).length > 0 ? callOptions : undefined);
}
