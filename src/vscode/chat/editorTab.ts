// The chat in an editor tab (a WebviewPanel): opened beside the editor, revealed when open, taken over
// when VS Code restores it after a reload (one chat tab is enough: a second restored one is closed).

import * as vscode from 'vscode';
import { Views } from '../commandIds';
import { chatTitle, chatWebviewOptions } from './chatPage';
import type { SurfaceLifecycle } from './surfaceTypes';

export const CHAT_VIEW_TYPE = Views.chatPanel;

export class ChatEditorTab implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly surfaces: SurfaceLifecycle,
  ) {}

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  /** Reveals the tab if it is open; false when it is not. */
  reveal(preserveFocus: boolean): boolean {
    if (!this.panel) return false;
    this.panel.reveal(undefined, preserveFocus);
    return true;
  }

  /** Shows the tab, creating it if needed. */
  open(preserveFocus: boolean): void {
    if (this.reveal(preserveFocus)) return;
    const panel = vscode.window.createWebviewPanel(CHAT_VIEW_TYPE, chatTitle(), { viewColumn: vscode.ViewColumn.Beside, preserveFocus }, chatWebviewOptions(this.extensionUri));
    this.take(panel);
  }

  /** Takes over a tab VS Code restored (WebviewPanelSerializer); false when one is already open (it is closed). */
  restore(panel: vscode.WebviewPanel): boolean {
    if (this.panel) {
      panel.dispose();
      return false;
    }
    panel.webview.options = chatWebviewOptions(this.extensionUri);
    this.take(panel);
    return true;
  }

  private take(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'compute.svg');
    const surface = this.surfaces.attachSurface('panel', panel.webview);
    surface.subscriptions.push(
      panel.onDidChangeViewState(() => {
        // Hidden webviews are destroyed; the page says 'ready' again when shown.
        if (!panel.visible) surface.ready = false;
      }),
      panel.onDidDispose(() => {
        this.panel = undefined;
        this.surfaces.detachSurface('panel');
      }),
    );
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
