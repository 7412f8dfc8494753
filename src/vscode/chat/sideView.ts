// The chat in the side bar (a WebviewView, contributes.views): VS Code resolves it through the provider
// when it is first shown; the same page and the same session as the editor tab.

import * as vscode from 'vscode';
import { Views } from '../commandIds';
import { chatWebviewOptions } from './chatPage';
import type { SurfaceLifecycle } from './surfaceTypes';

export const CHAT_SIDE_VIEW_ID = Views.chatView;

export class ChatSideView {
  private view: vscode.WebviewView | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly surfaces: SurfaceLifecycle,
  ) {}

  /** The view is resolved and visible. */
  get isVisible(): boolean {
    return this.view?.visible === true;
  }

  /** Reveals the view (VS Code resolves it through the provider if needed). */
  async show(preserveFocus: boolean): Promise<void> {
    if (this.view) {
      this.view.show(preserveFocus);
      return;
    }
    await vscode.commands.executeCommand(`${CHAT_SIDE_VIEW_ID}.focus`, { preserveFocus });
  }

  /** WebviewViewProvider.resolveWebviewView. */
  resolve(view: vscode.WebviewView): void {
    this.view = view;
    view.webview.options = chatWebviewOptions(this.extensionUri);
    const surface = this.surfaces.attachSurface('view', view.webview);
    surface.subscriptions.push(
      view.onDidChangeVisibility(() => {
        // A hidden view's webview is destroyed; the page says 'ready' again when shown.
        if (!view.visible) surface.ready = false;
      }),
      view.onDidDispose(() => {
        this.view = undefined;
        this.surfaces.detachSurface('view');
      }),
    );
  }
}
