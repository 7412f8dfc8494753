// The chat panel's HTML page: one stylesheet and one nonce'd script, both from the extension's own
// folders, under a CSP that allows nothing else (no inline script or style, no remote or data: content).
// Pure (no editor calls), so a plain Node test can hold the policy to exactly this. The localized strings
// travel as inert JSON (a data script the CSP does not run), escaped so no text can close the element.

import { WEBVIEW_STRINGS_ELEMENT_ID, stringsAsPageJson, type WebviewStrings } from '../../shared/webviewStrings';

export interface ChatPageSources {
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

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function chatPageHtml(sources: ChatPageSources): string {
  const csp = chatContentSecurityPolicy(sources.cspSource, sources.nonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttribute(sources.styleUri)}">
<title>${escapeAttribute(sources.title)}</title>
</head>
<body>
<div id="chat-root" role="main"></div>
<script type="application/json" id="${WEBVIEW_STRINGS_ELEMENT_ID}">${stringsAsPageJson(sources.strings)}</script>
<script nonce="${escapeAttribute(sources.nonce)}" src="${escapeAttribute(sources.scriptUri)}"></script>
</body>
</html>`;
}
