// The localized strings the host put in the page (see src/shared/webviewStrings.ts). Read once; a page
// without a valid bundle shows the keys themselves, so a missing string is visible, never invented here.

import type { TokenUsage } from '../../shared/protocol';
import { WEBVIEW_STRING_KEYS, WEBVIEW_STRINGS_ELEMENT_ID, formatString, parseWebviewStrings, type WebviewStrings } from '../../shared/webviewStrings';

function keysAsStrings(): WebviewStrings {
  return Object.fromEntries(WEBVIEW_STRING_KEYS.map((key) => [key, key])) as WebviewStrings;
}

export function readPageStrings(): WebviewStrings {
  const element = document.getElementById(WEBVIEW_STRINGS_ELEMENT_ID);
  let parsed: unknown;
  try {
    parsed = JSON.parse(element?.textContent ?? '');
  } catch {
    parsed = undefined;
  }
  return parseWebviewStrings(parsed) ?? keysAsStrings();
}

/** "1,234 tokens (1,000 prompt + 234 completion)", in the page's language. */
export function formatTokens(strings: WebviewStrings, usage: TokenUsage): string {
  return formatString(strings.usage, usage.total.toLocaleString(), usage.prompt.toLocaleString(), usage.completion.toLocaleString());
}

/**
 * The picker's search entry: `saved` counts conversations on disk only (a new chat with nothing in it is
 * not one to search), with its own wording for none and for one.
 */
export function searchConversationsLabel(strings: WebviewStrings, saved: number): string {
  if (saved <= 0) return strings.searchConversations;
  if (saved === 1) return strings.searchOneConversation;
  return formatString(strings.searchAllConversations, saved.toLocaleString());
}
