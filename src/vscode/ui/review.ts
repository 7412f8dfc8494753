// The one confirmation for what workspace files make the extension run and send (Deploy, Update, Run
// on GPU, Run Again): a pick whose first, highlighted answer is Cancel (Enter never spends or sends),
// then the action, then every fact the workspace decided, one per row, wrapped rather than cut by the
// window's width. Values are shown with hidden characters escaped by the caller (shownValue) and icon
// syntax escaped here, so a file cannot draw or hide anything in it (docs/security.md).

import * as vscode from 'vscode';

interface ReviewItem extends vscode.QuickPickItem {
  answer?: boolean;
}

export interface ReviewRequest {
  title: string;
  placeholder: string;
  go: { label: string; description?: string; detail?: string };
  /** One line per fact; shown under a separator naming them. */
  facts: readonly string[];
}

/** Characters per row: a longer fact continues on the next row (a pick cuts a row at the window's edge). */
const ROW_CHARS = 90;

let shown: vscode.QuickPick<vscode.QuickPickItem> | undefined;
/** The review shown now, if any (the in-host tests read it as a user would, and answer it). */
export function shownReview(): vscode.QuickPick<vscode.QuickPickItem> | undefined {
  return shown;
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

/** Resolves true only when the user chose the action. */
export function review(request: ReviewRequest): Promise<boolean> {
  const cancel: ReviewItem = { label: vscode.l10n.t('Cancel'), answer: false };
  const go: ReviewItem = { ...request.go, answer: true };
  const items: ReviewItem[] = [
    cancel,
    go,
    ...(request.facts.length === 0
      ? []
      : [{ label: vscode.l10n.t('What will run and be sent'), kind: vscode.QuickPickItemKind.Separator }, ...request.facts.flatMap(rows).map((row) => ({ label: iconFree(row) }))]),
  ];
  return new Promise<boolean>((resolve) => {
    const pick = vscode.window.createQuickPick<ReviewItem>();
    pick.title = request.title;
    pick.placeholder = request.placeholder;
    pick.ignoreFocusOut = true;
    pick.matchOnDescription = false;
    pick.items = items;
    pick.activeItems = [cancel];
    let answered = false;
    pick.onDidAccept(() => {
      const chosen = pick.selectedItems[0] ?? pick.activeItems[0];
      if (chosen?.answer === undefined) return; // a fact row: keep the question open
      answered = true;
      resolve(chosen.answer);
      pick.hide();
    });
    pick.onDidHide(() => {
      if (!answered) resolve(false);
      if (shown === pick) shown = undefined;
      pick.dispose();
    });
    shown = pick;
    pick.show();
  });
}
