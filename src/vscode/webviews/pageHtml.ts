// The chat panel's HTML page: one stylesheet and one nonce'd script, both from the extension's own
// folders, under a CSP that allows nothing else (no inline script or style, no remote or data: content).
// Pure (no editor calls), so a plain Node test can hold the policy to exactly this. The page's lang is
// the display language, so a screen reader reads a Chinese page as Chinese. The localized strings
// travel as inert JSON (a data script the CSP does not run), escaped so no text can close the element.

import { WEBVIEW_STRINGS_ELEMENT_ID, stringsAsPageJson, type WebviewStrings } from '../../shared/webviewStrings';

export interface ChatPageSources {
  /** `vscode.env.language`: the page's lang, so a screen reader reads it in the display language. */
  language: string;
  /** `webview.cspSource`: the origin the webview serves local resources from. */
  cspSource: string;
  /** Fresh per page load; only the script tag carrying it may run. */
  nonce: string;
  scriptUri: string;
  styleUri: string;
  title: string;
  /** The webview's localized strings (it shows no other text). */
  strings: WebviewStrings;
}

/** The Content-Security-Policy of the chat page. */
export function chatContentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `img-src ${cspSource}`,
    `font-src ${cspSource}`,
  ].join('; ');
}

export function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** What every page of ours is made of: the one stylesheet and the one nonce'd script around its body. */
export interface WebviewPageShell {
  /** `vscode.env.language` ("en", "zh-cn"). */
  language: string;
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  title: string;
}

/** The page's lang attribute: the display language when it is a well-formed language tag, else English. */
export function pageLanguage(language: string): string {
  return /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(language) ? language : 'en';
}

/**
 * A whole webview page under the chat's CSP: `body` is trusted markup of ours (never remote text), placed
 * before the script tag.
 */
export function webviewPageHtml(shell: WebviewPageShell, body: string): string {
  const csp = chatContentSecurityPolicy(shell.cspSource, shell.nonce);
  // eslint-disable-next-line no-restricted-syntax -- markup, not prose: the page's words are its strings
  return `<!DOCTYPE html>
<html lang="${pageLanguage(shell.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttribute(shell.styleUri)}">
<title>${escapeAttribute(shell.title)}</title>
</head>
<body>
${body}
<script nonce="${escapeAttribute(shell.nonce)}" src="${escapeAttribute(shell.scriptUri)}"></script>
</body>
</html>`;
}

export function chatPageHtml(sources: ChatPageSources): string {
  return webviewPageHtml(
    sources,
    // eslint-disable-next-line no-restricted-syntax -- markup, not prose
    `<div id="chat-root"></div>
<script type="application/json" id="${WEBVIEW_STRINGS_ELEMENT_ID}">${stringsAsPageJson(sources.strings)}</script>`,
  );
}
