// Every user-facing string of the chat webview, by key. The host builds the bundle with vscode.l10n.t
// (src/vscode/chat/webviewStrings.ts: the compiler checks it is complete) and passes it in the page; the
// webview shows only these (a lint rule fails on bare text in src/webview). `{0}`, `{1}` are arguments.

export const WEBVIEW_STRING_KEYS = [
  'conversationPicker', 'conversationPickerTitle', 'searchAllConversations', 'searchOneConversation', 'searchConversations',
  'modelPicker', 'modelPickerTitle', 'noModelYet', 'loadingModels', 'refreshModelsTitle',
  'profileTitle', 'profileLabel', 'noProfile', 'conversationUsageTitle',
  'newConversation', 'newConversationTitle', 'clear', 'clearTitle', 'export', 'exportTitle', 'delete', 'deleteTitle',
  'settings', 'systemPrompt', 'temperature', 'maxTokens', 'temperatureRange', 'maxTokensRange',
  'transcript', 'emptyState', 'emptyStateHint', 'jumpToLatest',
  'message', 'messageTitle', 'send', 'sendTitle', 'stop', 'stopTitle', 'cancel', 'editingBanner',
  'you', 'assistant', 'streaming', 'usage', 'usageTitle', 'notice', 'reasoning',
  'statusStopped', 'statusIncomplete', 'edit', 'editTitle', 'regenerate', 'regenerateTitle',
  'actionRetry', 'actionSetModelApiKey', 'actionConnectProfile', 'actionShowLogs',
  'codeCopy', 'codeCopyTitle', 'codeInsert', 'codeInsertTitle', 'codeOpen', 'codeOpenTitle', 'codePlainText',
  'image', 'imageLink', 'attachedContext', 'removeContext',
] as const;

export type WebviewStringKey = (typeof WEBVIEW_STRING_KEYS)[number];
export type WebviewStrings = Record<WebviewStringKey, string>;

/** The id of the page element that carries the bundle as JSON. */
export const WEBVIEW_STRINGS_ELEMENT_ID = 'chat-strings';
const MAX_STRING_CHARS = 500;

/** Replaces `{0}`, `{1}`… with the arguments (a missing one stays as written). */
export function formatString(template: string, ...args: (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (match, index: string) => {
    const value = args[Number(index)];
    return value === undefined ? match : String(value);
  });
}

/** The bundle as the webview reads it from the page: every key a bounded string, or undefined. */
export function parseWebviewStrings(value: unknown): WebviewStrings | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const strings: Partial<WebviewStrings> = {};
  for (const key of WEBVIEW_STRING_KEYS) {
    const text = record[key];
    if (typeof text !== 'string' || text.length > MAX_STRING_CHARS) return undefined;
    strings[key] = text;
  }
  return strings as WebviewStrings;
}

/** JSON safe to place inside a <script type="application/json"> element (no `</script>`, no `<!--`). */
export function stringsAsPageJson(strings: WebviewStrings): string {
  return JSON.stringify(strings).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}
