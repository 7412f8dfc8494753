// What the code-block buttons of a reply do, on the host side: copy to the clipboard, insert at the
// cursor of the last text editor the user worked in, or open in a new untitled editor.

import * as vscode from 'vscode';
import { Refusal } from '../errors/refusal';
import { documentText } from '../../core/terminalText';

/** Fence names whose VS Code language id differs. */
const LANGUAGE_IDS: Record<string, string> = {
  py: 'python',
  js: 'javascript',
  ts: 'typescript',
  tsx: 'typescriptreact',
  jsx: 'javascriptreact',
  sh: 'shellscript',
  bash: 'shellscript',
  shell: 'shellscript',
  zsh: 'shellscript',
  yml: 'yaml',
  md: 'markdown',
  'c++': 'cpp',
  cu: 'cuda-cpp',
  cuda: 'cuda-cpp',
  rs: 'rust',
  golang: 'go',
  dockerfile: 'dockerfile',
  text: 'plaintext',
  txt: 'plaintext',
};

export class CodeActions implements vscode.Disposable {
  /** The webview takes focus when its buttons are clicked, so remember the editor the user was in. */
  private lastEditor: vscode.TextEditor | undefined = vscode.window.activeTextEditor;
  private readonly subscription = vscode.window.onDidChangeActiveTextEditor((editor) => {
    if (editor) this.lastEditor = editor;
  });

  async copy(code: string): Promise<string> {
    await vscode.env.clipboard.writeText(code);
    return vscode.l10n.t('Copied to the clipboard.');
  }

  async insert(code: string): Promise<string> {
    const editor = this.targetEditor();
    if (!editor) {
      await this.openInEditor(code, '');
      return vscode.l10n.t('No editor was open, so the code was opened in a new editor.');
    }
    const shown = await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, preserveFocus: false });
    const inserted = await shown.edit((edit) => {
      for (const selection of shown.selections) edit.replace(selection, documentText(code, shown.document.languageId));
    });
    const file = vscode.workspace.asRelativePath(editor.document.uri);
    if (!inserted) throw new Refusal(vscode.l10n.t('Could not insert into {0} (is it read-only?).', file));
    return vscode.l10n.t('Inserted into {0}.', file);
  }

  async openInEditor(code: string, fenceLanguage: string): Promise<string> {
    const language = await languageIdFor(fenceLanguage);
    const document = await vscode.workspace.openTextDocument({ content: documentText(code, language), language });
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false });
    return vscode.l10n.t('Opened in a new {0} editor.', language);
  }

  private targetEditor(): vscode.TextEditor | undefined {
    const editor = vscode.window.activeTextEditor ?? this.lastEditor;
    if (editor && !editor.document.isClosed) return editor;
    return vscode.window.visibleTextEditors.find((visible) => visible.document.uri.scheme !== 'output');
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

async function languageIdFor(fenceLanguage: string): Promise<string> {
  const wanted = fenceLanguage.toLowerCase();
  if (!wanted) return 'plaintext';
  const candidate = LANGUAGE_IDS[wanted] ?? wanted;
  const known = await vscode.languages.getLanguages();
  return known.includes(candidate) ? candidate : 'plaintext';
}
