// What the spec actions write into a spec file itself, keeping its format and line endings: the deployed
// task id and profile after Deploy, and the profile id in place of a profile label (docs/specs.md).

import * as vscode from 'vscode';
import { specsCore } from '../../core/specs/load';
import { formatOf } from './specDocuments';

function lineEnding(document: vscode.TextDocument): string {
  return document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
}

async function replaceText(document: vscode.TextDocument, next: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), next);
  await vscode.workspace.applyEdit(edit);
}

/** Writes taskId (and the profile) into the file and saves it. */
export async function writeDeployedIds(document: vscode.TextDocument, values: { taskId: number; profile: string }): Promise<void> {
  await replaceText(document, specsCore().withDeployedIds(document.getText(), formatOf(document), values, lineEnding(document)));
  await document.save();
}

/** A file naming its profile by label still works; it is told once per file to use the id (Deploy writes it). */
export class ProfileIdHints {
  private readonly hinted = new Set<string>();

  offer(document: vscode.TextDocument, label: string, id: string): void {
    const key = document.uri.toString();
    if (this.hinted.has(key)) return;
    this.hinted.add(key);
    const write = vscode.l10n.t('Write the Id');
    void vscode.window
      .showInformationMessage(vscode.l10n.t('This spec names its profile by the label "{0}", which can change (renamed, or another display language). Spec files now use the profile id "{1}".', label, id), write)
      .then(async (picked) => {
        if (picked !== write) return;
        await replaceText(document, specsCore().withProfileId(document.getText(), formatOf(document), id, lineEnding(document)));
      });
  }
}
