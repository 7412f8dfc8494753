// Read-only virtual documents on the `compute-toolkit` scheme (task detail JSON, Sign Request output,
// node logs). The text is produced before the document opens, so a failure surfaces as an error to
// report instead of an empty editor; opening the same key again refreshes the open document in place.

import * as vscode from 'vscode';
import type { Redactor } from '../../core/log';
import type { ReadOnlyDocumentOptions } from '../services';

export const DOCUMENT_SCHEME = 'compute-toolkit';

interface Entry {
  text: string;
  options: ReadOnlyDocumentOptions;
}

export class ReadOnlyDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<vscode.Uri>();
  private readonly entries = new Map<string, Entry>();
  private readonly registrations: vscode.Disposable[];

  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly redactor: Redactor) {
    this.registrations = [
      vscode.workspace.registerTextDocumentContentProvider(DOCUMENT_SCHEME, this),
      // Forget texts nobody shows any more; a later open recomputes them.
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (document.uri.scheme === DOCUMENT_SCHEME) this.entries.delete(document.uri.toString());
      }),
    ];
  }

  /** The URI a key and title map to (stable, so reopening reuses the editor). */
  static uriFor(options: Pick<ReadOnlyDocumentOptions, 'key' | 'title'>): vscode.Uri {
    const key = options.key.split('/').map(encodeURIComponent).join('/');
    return vscode.Uri.from({ scheme: DOCUMENT_SCHEME, path: `/${key}/${options.title.replace(/\//g, '∕')}` });
  }

  async open(options: ReadOnlyDocumentOptions): Promise<vscode.TextEditor> {
    const uri = ReadOnlyDocuments.uriFor(options);
    const key = uri.toString();
    const wasOpen = this.entries.has(key);
    // The Redactor is the last line of defence: feature areas mask secrets themselves.
    this.entries.set(key, { text: this.redactor.redact(await options.content()), options });
    if (wasOpen) this.changeEmitter.fire(uri);
    let document = await vscode.workspace.openTextDocument(uri);
    if (document.languageId !== options.language) {
      document = await vscode.languages.setTextDocumentLanguage(document, options.language);
    }
    return vscode.window.showTextDocument(document, {
      preview: false,
      preserveFocus: false,
      viewColumn: options.beside ? vscode.ViewColumn.Beside : undefined,
    });
  }

  /** Recomputes an open document's text (e.g. a task detail after a lifecycle action). */
  async refresh(options: Pick<ReadOnlyDocumentOptions, 'key' | 'title'>): Promise<boolean> {
    const uri = ReadOnlyDocuments.uriFor(options);
    const entry = this.entries.get(uri.toString());
    if (!entry) return false;
    entry.text = this.redactor.redact(await entry.options.content());
    this.changeEmitter.fire(uri);
    return true;
  }

  /** The current text of a document this provider serves (for tests and follow-up commands). */
  textOf(options: Pick<ReadOnlyDocumentOptions, 'key' | 'title'>): string | undefined {
    return this.entries.get(ReadOnlyDocuments.uriFor(options).toString())?.text;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.entries.get(uri.toString())?.text ?? 'This document is no longer available: run the command that produced it again.';
  }

  dispose(): void {
    for (const registration of this.registrations) registration.dispose();
    this.changeEmitter.dispose();
  }
}
