// Read-only virtual documents on the `compute-toolkit` scheme (task detail JSON, Sign Request output,
// node logs). The text is produced before the document opens, so a failure surfaces as an error to
// report instead of an empty editor; opening the same key again refreshes the open document in place.
// Every text passes documentText (src/core/terminalText.ts) and then the Redactor.

import * as vscode from 'vscode';
import type { Redactor } from '../../core/log';
import { documentTitleSegment } from '../../core/documentTitle';
import { documentText } from '../../core/terminalText';
import type { ReadOnlyDocumentOptions } from '../services';

export const DOCUMENT_SCHEME = 'compute-toolkit';
const UPDATE_WAIT_LIMIT_MS = 5000;

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
    // A title may hold a server's name: one plain, bounded segment (core/documentTitle.ts).
    const title = documentTitleSegment(options.title);
    return vscode.Uri.from({ scheme: DOCUMENT_SCHEME, path: `/${key}/${title}` });
  }

  async open(options: ReadOnlyDocumentOptions): Promise<vscode.TextEditor> {
    const uri = ReadOnlyDocuments.uriFor(options);
    const key = uri.toString();
    const text = await this.shownText(options);
    this.entries.set(key, { text, options });
    await this.showNewText(uri, text);
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

  /** Stores a document's text and returns its URI without showing it (the two sides of a diff view). */
  async put(options: ReadOnlyDocumentOptions): Promise<vscode.Uri> {
    const uri = ReadOnlyDocuments.uriFor(options);
    const text = await this.shownText(options);
    this.entries.set(uri.toString(), { text, options });
    await this.showNewText(uri, text);
    return uri;
  }

  /** Recomputes an open document's text (e.g. a task detail after a lifecycle action). */
  async refresh(options: Pick<ReadOnlyDocumentOptions, 'key' | 'title'>): Promise<boolean> {
    const uri = ReadOnlyDocuments.uriFor(options);
    const entry = this.entries.get(uri.toString());
    if (!entry) return false;
    entry.text = await this.shownText(entry.options);
    await this.showNewText(uri, entry.text);
    return true;
  }

  /**
   * The text to show: server data made safe for a document first (a removed sequence could otherwise join
   * a secret's halves), then masked. The Redactor is the last line of defence: areas mask secrets themselves.
   */
  private async shownText(options: ReadOnlyDocumentOptions): Promise<string> {
    return this.redactor.redact(documentText(await options.content(), options.language));
  }

  /**
   * Tells VS Code an open document changed and waits until it shows `text`, so callers (and tests)
   * that read the editor right after open() see the new content. VS Code re-reads asynchronously.
   */
  private async showNewText(uri: vscode.Uri, text: string): Promise<void> {
    const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
    if (!open || open.getText() === text) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        listener.dispose();
        clearTimeout(bound);
        resolve();
      };
      const listener = vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document.uri.toString() === uri.toString() && event.document.getText() === text) done();
      });
      // A bound, not a delay: should the update never be observed, showing the editor beats hanging.
      const bound = setTimeout(done, UPDATE_WAIT_LIMIT_MS);
      this.changeEmitter.fire(uri);
    });
  }

  /** The current text of a document this provider serves (for tests and follow-up commands). */
  textOf(options: Pick<ReadOnlyDocumentOptions, 'key' | 'title'>): string | undefined {
    return this.entries.get(ReadOnlyDocuments.uriFor(options).toString())?.text;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.entries.get(uri.toString())?.text ?? vscode.l10n.t('This document is no longer available: run the command that produced it again.');
  }

  dispose(): void {
    for (const registration of this.registrations) registration.dispose();
    this.changeEmitter.dispose();
  }
}
