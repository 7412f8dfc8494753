// The review of what workspace files make the extension run and send (Deploy, Update, Run on GPU, Run
// Again): the one spending review of ui/multiStepInput (Cancel first and highlighted, so Enter never spends
// or sends), with every fact the workspace decided listed below, one per row, wrapped rather than cut by
// the window's width. Values are shown with hidden characters escaped by the caller (shownValue) and icon
// syntax escaped here, so a file cannot draw or hide anything in it (docs/security.md).

import * as vscode from 'vscode';
import { confirmSpend, shownStepInput } from './multiStepInput';

export interface ReviewRequest {
  title: string;
  placeholder: string;
  go: { label: string; description?: string; detail?: string };
  /** One line per fact; shown under a separator naming them. */
  facts: readonly string[];
}

/** Characters per row: a longer fact continues on the next row (a pick cuts a row at the window's edge). */
const ROW_CHARS = 90;

/** The review shown now, if any (the in-host tests read it as a user would, and answer it). */
export function shownReview(): vscode.QuickPick<vscode.QuickPickItem> | undefined {
  const input = shownStepInput();
  return input && 'items' in input ? (input as vscode.QuickPick<vscode.QuickPickItem>) : undefined;
}

/** `text` with VS Code's icon syntax escaped: "$(name)" is shown as written, never as an icon. */
export function iconFree(text: string): string {
  return text.replace(/\$\(/g, '\\$(');
}

function rows(fact: string): string[] {
  const parts: string[] = [];
  for (let start = 0; start < fact.length; start += ROW_CHARS) parts.push(`${start === 0 ? '' : '    ↳ '}${fact.slice(start, start + ROW_CHARS)}`);
  return parts.length === 0 ? [''] : parts;
}

/** The facts as a review's rows below its answers (wrapped, icon syntax escaped), under their separator. */
export function factRows(facts: readonly string[]): { lines: string[]; linesTitle: string } {
  return { lines: facts.flatMap(rows).map(iconFree), linesTitle: vscode.l10n.t('What will run and be sent') };
}

/** Resolves true only when the user chose the action. */
export function review(request: ReviewRequest): Promise<boolean> {
  return confirmSpend({
    title: request.title,
    placeholder: request.placeholder,
    go: request.go,
    ...factRows(request.facts),
  });
}
