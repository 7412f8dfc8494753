// Placeholder: the compute area (trees, task/resource/storage commands) replaces this file.
import type { ExtensionServices } from '../services';

/** What the compute area exposes to the composition root and to the in-host tests. */
export interface ComputeApi {
  readonly ready: boolean;
}

export function registerCompute(_services: ExtensionServices): ComputeApi {
  return { ready: false };
}
