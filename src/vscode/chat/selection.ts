// Selection-to-prompt: "Ask about Selection" attaches the selection (or the whole file) to the next
// message as a removable chip (file, lines) and focuses the input; "Explain Selection" and "Find Bugs in Selection" send at once, by default in a
// new conversation (computeToolkit.chat.selectionActionsNewConversation) so the open one is not resent.
// Truncation and whole-file use are always announced (in the prompt, on the turn, and as a notification).

import * as vscode from 'vscode';
import { buildSelectionPrompt, type SelectionIntent, type SelectionPrompt, type SelectionWords } from '../../shared/selectionPrompt';
import type { ChatSession } from './chatSession';
import type { ChatSurfaces } from './surfaceTypes';

/** Builds the prompt from the active editor, or explains why there is nothing to quote. */
export function promptFromEditor(editor: vscode.TextEditor | undefined, intent: SelectionIntent, maxSelectionChars: number): SelectionPrompt | string {
  if (!editor) return vscode.l10n.t('Open a file and select some code first.');
  const { document, selection } = editor;
  const wholeFile = selection.isEmpty;
  const range = wholeFile ? new vscode.Range(document.lineAt(0).range.start, document.lineAt(document.lineCount - 1).range.end) : selection;
  const text = document.getText(range);
  if (text.trim().length === 0) return wholeFile ? vscode.l10n.t('The file is empty: there is nothing to quote.') : vscode.l10n.t('The selection is only whitespace.');
  const fileName = document.isUntitled ? document.fileName : vscode.workspace.asRelativePath(document.uri);
  return buildSelectionPrompt(
    { text, languageId: document.languageId, fileName, startLine: range.start.line + 1, wholeFile },
    intent,
    maxSelectionChars,
    selectionWords(),
  );
}

/** The quote's and the notice's words in the display language (the instructions are the user's message). */
export function selectionWords(): SelectionWords {
  return {
    line: vscode.l10n.t('line {0}'),
    lines: vscode.l10n.t('lines {0}–{1}'),
    explain: vscode.l10n.t('Explain what this code does, step by step, and point out anything surprising.'),
    findBugs: vscode.l10n.t('Find bugs in this code. For each one, give the line, what goes wrong, and a corrected snippet. Say so if you find none.'),
    wholeFileNotice: vscode.l10n.t('Nothing was selected, so the whole file is quoted.'),
    truncatedSelectionNotice: vscode.l10n.t(
      'The selection was truncated to {0} of {1} characters ({2} of {3}); raise computeToolkit.chat.maxSelectionChars to send more.',
    ),
    truncatedFileNotice: vscode.l10n.t(
      'The whole file was truncated to {0} of {1} characters ({2} of {3}); raise computeToolkit.chat.maxSelectionChars to send more.',
    ),
    header: vscode.l10n.t('{0}, {1}:'),
    truncatedSelectionHeader: vscode.l10n.t('{0}, {1} of {2} in the selection (truncated):'),
    truncatedFileHeader: vscode.l10n.t('{0}, {1} of {2} in the whole file (truncated):'),
  };
}

/** The chip's label: "src/a.py, lines 3–9", or the file name alone for a whole file. */
function contextLabel(editor: vscode.TextEditor | undefined): string {
  if (!editor) return '';
  const { document, selection } = editor;
  const fileName = document.isUntitled ? document.fileName : vscode.workspace.asRelativePath(document.uri);
  if (selection.isEmpty) return fileName;
  const first = selection.start.line + 1;
  // A selection ending at column 0 of a line does not include that line.
  const last = selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line : selection.end.line + 1;
  return first === last ? vscode.l10n.t('{0}, line {1}', fileName, first) : vscode.l10n.t('{0}, lines {1}–{2}', fileName, first, last);
}

export interface SelectionOptions {
  maxSelectionChars: number;
  /** Explain and Find Bugs start a new conversation instead of continuing the open one. */
  newConversation: boolean;
}

export async function quoteSelection(intent: SelectionIntent, session: ChatSession, panel: ChatSurfaces, options: SelectionOptions): Promise<void> {
  const prompt = promptFromEditor(vscode.window.activeTextEditor, intent, options.maxSelectionChars);
  if (typeof prompt === 'string') {
    void vscode.window.showInformationMessage(prompt);
    return;
  }
  if (prompt.notice) void vscode.window.showWarningMessage(prompt.notice);
  await session.loaded;
  await panel.show(false);
  if (intent === 'ask') {
    // The quote rides as a chip (file, lines) sent ahead of the question; the input keeps what was typed.
    panel.attach({ label: contextLabel(vscode.window.activeTextEditor), text: prompt.text });
    session.setDraft(session.draft(), { focus: true, fromWebview: false });
    return;
  }
  // An empty conversation is reused rather than leaving an empty one behind.
  if (options.newConversation && session.view().turns.length > 0) session.newConversation();
  await session.send(prompt.text, prompt.notice);
}
