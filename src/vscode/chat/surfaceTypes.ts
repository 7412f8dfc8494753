// What the chat's commands, selection-to-prompt and the message router need from the chat's webviews,
// as types only. chatPanel.ts implements them; this file imports nothing of the chat area, so the commands
// never import the panel (no import circle: test/unit/chat/importCycles.test.ts).

import type * as vscode from 'vscode';

/** Where the chat shows: the editor tab or the side-bar view. */
export type ChatSurfaceKind = 'panel' | 'view';

/** Code attached to the next message: the chip's label and the quoted text sent ahead of the message. */
export interface ChatAttachment {
  label: string;
  text: string;
}

/** What the commands use: show the chat where the user has it, open the editor tab, attach code. */
export interface ChatSurfaces {
  /** Shows the side-bar view if visible, else the editor tab if open, else the view; says which. */
  show(preserveFocus?: boolean): Promise<ChatSurfaceKind>;
  /** Shows the editor-tab panel (creating it if needed). */
  open(preserveFocus?: boolean): void;
  /** Attaches quoted code to the next message (replacing any attached before); undefined detaches. */
  attach(attachment: ChatAttachment | undefined): void;
}

/** One webview showing the chat (the panel's or the view's). */
export interface ChatSurface {
  readonly kind: ChatSurfaceKind;
  readonly webview: vscode.Webview;
  ready: boolean;
  /** The conversation of the last state posted to this webview (what it shows). */
  shownConversationId: string | undefined;
  subscriptions: vscode.Disposable[];
}

/** How a surface's owner (the editor tab or the side-bar view) hands its webview to the chat and takes it back. */
export interface SurfaceLifecycle {
  /** Loads the chat page into the webview and listens to it; the surface is ready once its page says so. */
  attachSurface(kind: ChatSurfaceKind, webview: vscode.Webview): ChatSurface;
  /** Stops listening (closing the last chat stops its replies). */
  detachSurface(kind: ChatSurfaceKind): void;
}
