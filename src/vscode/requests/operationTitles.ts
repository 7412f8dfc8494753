// Catalog operations' titles in the display language. The catalog (src/core/<area>/operations.ts) keeps
// each title once, in English, for the log, the MCP tools and the agent; the l10n export puts every one in
// the string bundle (scripts/l10n-export.mjs, catalogTitles), so Sign Request, its history and its pickers
// look it up there by that English text — a new operation needs no entry here.

import * as vscode from 'vscode';

/** The operation's title in the display language. */
export function operationTitle(spec: { title: string }): string {
  return vscode.l10n.t(spec.title);
}
