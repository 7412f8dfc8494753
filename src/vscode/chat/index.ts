// Placeholder: the chat area (panel, selection-to-prompt) replaces this file.
import type { ExtensionServices } from '../services';

/** What the chat area exposes to the composition root and to the in-host tests. */
export interface ChatApi {
  readonly ready: boolean;
}

export function registerChat(_services: ExtensionServices): ChatApi {
  return { ready: false };
}
