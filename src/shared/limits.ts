// Limits shared by the extension host and the chat webview. Both sides import them from here so the
// webview's input caps and the host's validator can never disagree.

/** Longest user message (typed or built from a selection) the host accepts from the webview. */
export const MAX_USER_MESSAGE_CHARS = 200_000;

/** Upper bound for the `computeToolkit.chat.maxSelectionChars` setting (leaves room for the question). */
export const MAX_SELECTION_CHARS_CAP = 150_000;

/** Longest system prompt a conversation keeps. */
export const MAX_SYSTEM_PROMPT_CHARS = 20_000;

/** Longest code block a code action (copy / insert / open) may carry; replies are capped by the model. */
export const MAX_CODE_CHARS = 1_000_000;

/** Longest link the webview may ask the host to open. */
export const MAX_HREF_CHARS = 4_096;

/** Longest language id of a fenced code block (`python`, `typescript`, …). */
export const MAX_LANGUAGE_ID_CHARS = 64;

/** Longest conversation id / model id that crosses the boundary. */
export const MAX_ID_CHARS = 200;

/** Sampling and length bounds, as the chat-completions convention allows. */
export const TEMPERATURE_MIN = 0;
export const TEMPERATURE_MAX = 2;
export const MAX_TOKENS_MIN = 1;
export const MAX_TOKENS_MAX = 1_000_000;
