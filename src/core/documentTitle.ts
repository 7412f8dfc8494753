// A read-only document's title becomes the last segment of its URI (vscode/documents/readOnlyDocuments.ts)
// and the editor tab's label. Titles hold server names (task, job, model, node names): no escape
// sequence, control or bidi character, no separator that would add a segment, no "." or ".." segment,
// and a bounded length (docs/security.md "Names from a server").

import { plainTerminalText } from './terminalText';

/** Longest title kept, in code points. */
export const MAX_TITLE_CHARS = 120;

export function documentTitleSegment(title: string, fallback = 'document'): string {
  // Cut first (linear, bounded), then clean what is kept.
  const head = title.length > MAX_TITLE_CHARS * 4 ? title.slice(0, MAX_TITLE_CHARS * 4) : title;
  const plain = plainTerminalText(head).replace(/[\r\n\t]/g, ' ').replace(/[/\\]/g, '∕');
  const points = [...plain];
  const kept = points.length > MAX_TITLE_CHARS ? `${points.slice(0, MAX_TITLE_CHARS - 1).join('')}…` : plain;
  return /^[.\s]*$/.test(kept) ? fallback : kept;
}
