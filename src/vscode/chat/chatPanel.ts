// The "Compute Chat" webviews: the editor tab (editorTab.ts) and the side-bar view (sideView.ts), both
// showing the one ChatSession. Strict CSP with a nonce, local resources only (chatPage.ts), every message
// from a webview validated before use and handed to its handler in the router table (messageRouter.ts);
// a failed turn's buttons go through the error bridge (errorBridge.ts). A webview keeps no state of its
// own (retainContextWhenHidden is off): each time it loads it says 'ready' and gets the full state.

import * as vscode from 'vscode';
import { Refusal } from '../errors/refusal';
import { errorText } from '../errors/errorText';
import { latencyProbe } from '../../core/chat/latencyProbe';
import { errorMessage } from '../../shared/errorMessage';
import type { HostMessage } from '../../shared/protocol';
import { parseOpenableLink, validateWebviewMessage } from '../../shared/protocolValidation';
import type { ExtensionServices } from '../services';
import { chatPage } from './chatPage';
import type { ChatSession } from './chatSession';
import type { CodeActions } from './codeActions';
import { clearWithUndo, deleteWithUndo, searchConversations } from './conversationActions';
import { ChatEditorTab } from './editorTab';
import { runChatAction } from './errorBridge';
import { exportConversation } from './exportConversation';
import { routeChatMessage, type ChatRouteHost } from './messageRouter';
import { ChatSideView } from './sideView';
import type { ChatAttachment, ChatSurface, ChatSurfaceKind, ChatSurfaces, SurfaceLifecycle } from './surfaceTypes';

export { CHAT_VIEW_TYPE } from './editorTab';
export { CHAT_SIDE_VIEW_ID } from './sideView';
export type { ChatAttachment, ChatSurfaceKind } from './surfaceTypes';

export class ChatPanel implements ChatSurfaces, SurfaceLifecycle, vscode.Disposable {
  private readonly tab: ChatEditorTab;
  private readonly sideView: ChatSideView;
  private readonly surfaces = new Map<ChatSurfaceKind, ChatSurface>();
  private readonly subscriptions: vscode.Disposable[];
  /** Code quoted by Ask about Selection, sent ahead of the user's next message; shown as a chip. */
  private attachment: ChatAttachment | undefined;
  /** Composer text to focus once the webview is ready (selection-to-prompt before the page loaded). */
  private pendingComposer: { text: string; focus: boolean } | undefined;
  private readonly readyEmitter = new vscode.EventEmitter<ChatSurfaceKind>();
  readonly onDidBecomeReady = this.readyEmitter.event;

  constructor(
    private readonly services: ExtensionServices,
    private readonly session: ChatSession,
    private readonly codeActions: CodeActions,
  ) {
    const extensionUri = services.context.extensionUri;
    this.tab = new ChatEditorTab(extensionUri, this);
    this.sideView = new ChatSideView(extensionUri, this);
    this.subscriptions = [
      session.onDidChangeState(() => this.postState()),
      session.onDelta((delta) => {
        const hops = latencyProbe?.takeForFirstPost();
        this.post(hops ? { type: 'chat/delta', ...delta, hops } : { type: 'chat/delta', ...delta });
      }),
      session.onDidSetComposer((composer) => {
        if (this.readySurfaces().length > 0) this.post({ type: 'composer/set', ...composer });
        else this.pendingComposer = composer;
      }),
      this.readyEmitter,
    ];
  }

  /** The editor-tab panel is open. */
  get isOpen(): boolean {
    return this.tab.isOpen;
  }

  /** The editor-tab panel's webview said 'ready'. */
  get isReady(): boolean {
    return this.surfaces.get('panel')?.ready === true;
  }

  /** The side-bar view's webview said 'ready'. */
  get isViewReady(): boolean {
    return this.surfaces.get('view')?.ready === true;
  }

  /** The code attached to the next message, if any. */
  get attached(): ChatAttachment | undefined {
    return this.attachment;
  }

  /** Attaches quoted code to the next message (replacing any attached before) and shows it as a chip. */
  attach(attachment: ChatAttachment | undefined): void {
    this.attachment = attachment;
    this.post({ type: 'composer/context', label: attachment?.label });
  }

  /** Sends what the user typed after the attached code (then detached; attached again if the send is refused). */
  private async sendWithAttachment(text: string): Promise<void> {
    const attachment = this.attachment;
    if (attachment) this.attach(undefined);
    const message = attachment ? `${attachment.text}${text}` : text;
    try {
      await this.session.send(message);
    } catch (error) {
      // Refused before the message was added (a reply still streaming): the code stays attached.
      const sent = this.session.view().turns.some((turn) => turn.role === 'user' && turn.content === message);
      if (attachment && !sent && !this.attachment) this.attach(attachment);
      throw error;
    }
  }

  /** The conversation a surface's webview was last sent (undefined before its 'ready'). */
  shownConversation(kind: ChatSurfaceKind): string | undefined {
    const surface = this.surfaces.get(kind);
    return surface?.ready ? surface.shownConversationId : undefined;
  }

  /**
   * Shows the chat where the user has it: the side-bar view if it is visible, else the editor-tab panel if it
   * is open, else the view (the chat then sits beside the editor rather than over it).
   */
  async show(preserveFocus = false): Promise<ChatSurfaceKind> {
    if (this.sideView.isVisible) {
      await this.sideView.show(preserveFocus);
      return 'view';
    }
    if (this.tab.reveal(preserveFocus)) return 'panel';
    await this.sideView.show(preserveFocus);
    return 'view';
  }

  /** Reveals the side-bar view (VS Code resolves it through the provider if needed). */
  openView(preserveFocus = false): Promise<void> {
    return this.sideView.show(preserveFocus);
  }

  /** Shows the editor-tab panel (creating it if needed). */
  open(preserveFocus = false): void {
    this.tab.open(preserveFocus);
  }

  /** Takes over a panel VS Code restored after a reload (WebviewPanelSerializer). */
  restore(panel: vscode.WebviewPanel, state: unknown): void {
    const conversationId = typeof state === 'object' && state !== null ? (state as { conversationId?: unknown }).conversationId : undefined;
    if (typeof conversationId === 'string') {
      void this.session.loaded
        .then(() => this.session.switchTo(conversationId))
        .catch((error: unknown) => {
          // The conversation was deleted since: the panel shows the current one instead.
          this.services.logger.debug(`Chat: the restored panel's conversation is gone (${errorMessage(error)})`);
        });
    }
    this.tab.restore(panel);
  }

  /** WebviewViewProvider.resolveWebviewView: the side-bar view gets the same page and session. */
  resolveView(view: vscode.WebviewView): void {
    this.sideView.resolve(view);
  }

  attachSurface(kind: ChatSurfaceKind, webview: vscode.Webview): ChatSurface {
    this.detach(kind, false);
    const surface: ChatSurface = { kind, webview, ready: false, shownConversationId: undefined, subscriptions: [] };
    this.surfaces.set(kind, surface);
    webview.html = chatPage(webview, this.services.context.extensionUri);
    const host = this.routeHost(surface);
    surface.subscriptions.push(webview.onDidReceiveMessage((message: unknown) => void this.receive(surface, host, message)));
    return surface;
  }

  detachSurface(kind: ChatSurfaceKind): void {
    this.detach(kind, true);
  }

  private detach(kind: ChatSurfaceKind, stopWhenLast: boolean): void {
    const surface = this.surfaces.get(kind);
    if (!surface) return;
    this.surfaces.delete(kind);
    for (const subscription of surface.subscriptions) subscription.dispose();
    // Closing the last chat is a Stop: the HTTP requests end, partial replies are kept.
    if (stopWhenLast && this.surfaces.size === 0) this.session.stopAll();
  }

  private readySurfaces(): ChatSurface[] {
    return [...this.surfaces.values()].filter((surface) => surface.ready);
  }

  /** Posts to every webview that said 'ready'. */
  private post(message: HostMessage): void {
    for (const surface of this.readySurfaces()) this.postTo(surface, message);
  }

  private postTo(surface: ChatSurface, message: HostMessage): void {
    if (!surface.ready || this.surfaces.get(surface.kind) !== surface) return;
    if (message.type === 'conversation/state') surface.shownConversationId = message.conversation.id;
    void surface.webview.postMessage(message).then(undefined, (error: unknown) => {
      this.services.logger.debug(`Chat: a message to the ${surface.kind} webview was not delivered (${String(error)})`);
    });
  }

  private postState(): void {
    if (this.readySurfaces().length === 0) return;
    // Deltas already counted in the snapshot must reach the webview before it, never after.
    this.session.flushAllDeltas();
    this.post({
      type: 'conversation/state',
      conversation: this.session.view(),
      conversations: this.session.summaries(),
      conversationCount: this.session.counts.total,
      profileLabel: this.services.profiles.active?.label,
    });
    const models = this.session.models;
    this.post({ type: 'models/list', models: models.models, loading: models.loading, error: models.error, deployed: this.session.deployedModels });
  }

  private async receive(surface: ChatSurface, host: ChatRouteHost, raw: unknown): Promise<void> {
    const validation = validateWebviewMessage(raw);
    if (!validation.ok) {
      // Nothing from an invalid message is trusted, not even its requestId: log and drop it.
      this.services.logger.warn(`Chat: rejected a message from the webview: ${validation.reason}`);
      return;
    }
    const message = validation.message;
    let reply: { ok: boolean; message: string | undefined };
    try {
      reply = { ok: true, message: await routeChatMessage(host, message) };
    } catch (error) {
      this.services.logger.warn(`Chat: ${message.type} failed: ${errorMessage(error)}`);
      reply = { ok: false, message: this.services.redactor.redact(errorText(error)) };
    }
    this.postTo(surface, { type: 'request/result', requestId: message.requestId, ...reply });
  }

  /** What the router's handlers may do for messages from one surface. */
  private routeHost(surface: ChatSurface): ChatRouteHost {
    const session = this.session;
    return {
      session,
      pageReady: () => this.pageReady(surface),
      send: (text) => this.sendWithAttachment(text),
      searchConversations: () => {
        void searchConversations(session, this).catch((error: unknown) => this.services.reportError(error, vscode.l10n.t('Search the conversations')));
      },
      deleteConversation: (conversationId) => void deleteWithUndo(session, conversationId),
      clearConversation: () => void clearWithUndo(session),
      exportMarkdown: () => this.exportMarkdown(),
      refreshModels: async () => {
        const models = await session.ensureModels(true);
        return models.length === 1 ? vscode.l10n.t('1 chat model listed.') : vscode.l10n.t('{0} chat models listed.', models.length);
      },
      detachContext: () => this.attach(undefined),
      copyCode: (code) => this.codeActions.copy(code),
      insertCode: (code) => this.codeActions.insert(code),
      openCodeInEditor: (code, language) => this.codeActions.openInEditor(code, language),
      openLink: (href) => this.openLink(href),
      runAction: (action) => runChatAction(action, this.services, session),
    };
  }

  /** A page said 'ready': it gets the full state, a composer text waiting for it, and the chip. */
  private async pageReady(surface: ChatSurface): Promise<void> {
    const session = this.session;
    await session.loaded;
    surface.ready = true;
    this.postState();
    if (this.pendingComposer) {
      this.postTo(surface, { type: 'composer/set', ...this.pendingComposer });
      this.pendingComposer = undefined;
    } else if (session.draft()) {
      this.postTo(surface, { type: 'composer/set', text: session.draft(), focus: false });
    }
    if (this.attachment) this.postTo(surface, { type: 'composer/context', label: this.attachment.label });
    this.readyEmitter.fire(surface.kind);
    void session.ensureModels();
  }

  async exportMarkdown(): Promise<string> {
    return exportConversation(this.session.view());
  }

  private async openLink(href: string): Promise<string | undefined> {
    const url = parseOpenableLink(href);
    if (!url) throw new Refusal(vscode.l10n.t('Only http and https links can be opened from the chat.'));
    const opened = await vscode.env.openExternal(vscode.Uri.parse(url.href, true));
    return opened ? undefined : vscode.l10n.t('The link was not opened.');
  }

  dispose(): void {
    this.tab.dispose();
    for (const kind of [...this.surfaces.keys()]) this.detach(kind, false);
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
