// The "Compute Chat" webviews: the editor-tab panel and the side-bar view (contributes.views), both showing
// the one ChatSession. Strict CSP with a nonce, local resources only, every message from a webview validated
// before use. A webview keeps no state of its own (retainContextWhenHidden is off): each time it loads it
// says 'ready' and gets the full state from the ChatSession.

import { Views } from '../commandIds';
import { actionTarget, runErrorAction, type ActionSituation, type ErrorAction } from '../errors/errorActions';
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { exportConversation } from './exportConversation';
import type { ChatAction, HostMessage, WebviewMessage } from '../../shared/protocol';
import { parseOpenableLink, validateWebviewMessage } from '../../shared/protocolValidation';
import type { ExtensionServices } from '../services';
import { chatPageHtml } from '../webviews/pageHtml';
import { webviewStrings } from './webviewStrings';
import type { ChatSession } from './chatSession';
import type { CodeActions } from './codeActions';
import { clearWithUndo, deleteWithUndo, searchConversations } from './commands';
import { errorMessage } from '../../shared/errorMessage';
import { latencyProbe } from '../../core/chat/latencyProbe';

export const CHAT_VIEW_TYPE = Views.chatPanel;
/** The side-bar webview view (same page, same session as the panel). */
export const CHAT_SIDE_VIEW_ID = Views.chatView;

/** Where the chat shows: the editor tab or the side-bar view. */
export type ChatSurfaceKind = 'panel' | 'view';

/** Code attached to the next message: the chip's label and the quoted text sent ahead of the message. */
export interface ChatAttachment {
  label: string;
  text: string;
}

interface ChatSurface {
  readonly kind: ChatSurfaceKind;
  readonly webview: vscode.Webview;
  ready: boolean;
  /** The conversation of the last state posted to this webview (what it shows). */
  shownConversationId: string | undefined;
  subscriptions: vscode.Disposable[];
}

/** A chat turn's actions in the one error-action table (errors/errorActions.ts); Retry regenerates. */
const CHAT_ERROR_ACTIONS = {
  setModelApiKey: { kind: 'setSecret', secret: 'modelApiKey' },
  connectSandbox: { kind: 'connectSandbox' },
  createProfile: { kind: 'createProfile' },
  showLogs: { kind: 'showLogs' },
} as const satisfies Record<string, ErrorAction>;
const TITLE = 'Compute Chat';

export class ChatPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private view: vscode.WebviewView | undefined;
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
    return this.panel !== undefined;
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
    if (this.view?.visible) {
      this.view.show(preserveFocus);
      return 'view';
    }
    if (this.panel) {
      this.panel.reveal(undefined, preserveFocus);
      return 'panel';
    }
    await this.openView(preserveFocus);
    return 'view';
  }

  /** Reveals the side-bar view (VS Code resolves it through the provider if needed). */
  async openView(preserveFocus = false): Promise<void> {
    if (this.view) {
      this.view.show(preserveFocus);
      return;
    }
    await vscode.commands.executeCommand(`${CHAT_SIDE_VIEW_ID}.focus`, { preserveFocus });
  }

  /** Shows the editor-tab panel (creating it if needed). */
  open(preserveFocus = false): void {
    if (this.panel) {
      this.panel.reveal(undefined, preserveFocus);
      return;
    }
    const panel = vscode.window.createWebviewPanel(CHAT_VIEW_TYPE, TITLE, { viewColumn: vscode.ViewColumn.Beside, preserveFocus }, this.webviewOptions());
    this.attachPanel(panel);
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
    if (this.panel) {
      // A second restored panel: one chat panel is enough, keep the first.
      panel.dispose();
      return;
    }
    panel.webview.options = this.webviewOptions();
    this.attachPanel(panel);
  }

  /** WebviewViewProvider.resolveWebviewView: the side-bar view gets the same page and session. */
  resolveView(view: vscode.WebviewView): void {
    this.view = view;
    view.webview.options = this.webviewOptions();
    const surface = this.attachSurface('view', view.webview);
    surface.subscriptions.push(
      view.onDidChangeVisibility(() => {
        // A hidden view's webview is destroyed; the page says 'ready' again when shown.
        if (!view.visible) surface.ready = false;
      }),
      view.onDidDispose(() => {
        this.view = undefined;
        this.detachSurface('view');
      }),
    );
  }

  private webviewOptions(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    const extensionUri = this.services.context.extensionUri;
    return {
      enableScripts: true,
      enableCommandUris: false,
      retainContextWhenHidden: false,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')],
    };
  }

  private attachPanel(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    panel.iconPath = vscode.Uri.joinPath(this.services.context.extensionUri, 'media', 'compute.svg');
    const surface = this.attachSurface('panel', panel.webview);
    surface.subscriptions.push(
      panel.onDidChangeViewState(() => {
        // Hidden webviews are destroyed; the page says 'ready' again when shown.
        if (!panel.visible) surface.ready = false;
      }),
      panel.onDidDispose(() => {
        this.panel = undefined;
        this.detachSurface('panel');
      }),
    );
  }

  private attachSurface(kind: ChatSurfaceKind, webview: vscode.Webview): ChatSurface {
    this.detachSurface(kind, false);
    const surface: ChatSurface = { kind, webview, ready: false, shownConversationId: undefined, subscriptions: [] };
    this.surfaces.set(kind, surface);
    webview.html = this.html(webview);
    surface.subscriptions.push(webview.onDidReceiveMessage((message: unknown) => void this.receive(surface, message)));
    return surface;
  }

  private detachSurface(kind: ChatSurfaceKind, stopWhenLast = true): void {
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

  private html(webview: vscode.Webview): string {
    const extensionUri = this.services.context.extensionUri;
    return chatPageHtml({
      cspSource: webview.cspSource,
      nonce: randomBytes(18).toString('base64'),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'chat.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'chat.css')).toString(),
      title: TITLE,
      strings: webviewStrings(),
    });
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

  private async receive(surface: ChatSurface, raw: unknown): Promise<void> {
    const validation = validateWebviewMessage(raw);
    if (!validation.ok) {
      // Nothing from an invalid message is trusted, not even its requestId: log and drop it.
      this.services.logger.warn(`Chat: rejected a message from the webview: ${validation.reason}`);
      return;
    }
    const message = validation.message;
    let reply: { ok: boolean; message: string | undefined };
    try {
      reply = { ok: true, message: await this.handle(surface, message) };
    } catch (error) {
      this.services.logger.warn(`Chat: ${message.type} failed: ${errorMessage(error)}`);
      reply = { ok: false, message: this.services.redactor.redact(errorMessage(error)) };
    }
    this.postTo(surface, { type: 'request/result', requestId: message.requestId, ...reply });
  }

  /** Runs one validated request; returns a short confirmation for the webview to show, if any. */
  private async handle(surface: ChatSurface, message: WebviewMessage): Promise<string | undefined> {
    const session = this.session;
    switch (message.type) {
      case 'ready':
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
        return undefined;
      case 'chat/send':
        latencyProbe?.start();
        // Answered when the reply ended: a failure (no model, a reply still streaming) comes back as this
        // request's error, which the webview shows inline (never as a notification over Send and Stop).
        // Each message is handled on its own, so the webview keeps working while the reply streams.
        await this.sendWithAttachment(message.text);
        return undefined;
      case 'chat/stop':
        session.stop();
        return undefined;
      case 'chat/regenerate':
        await session.regenerate();
        return undefined;
      case 'chat/editLast':
        await session.editLast(message.text);
        return undefined;
      case 'conversation/new':
        session.newConversation();
        return undefined;
      case 'conversation/switch':
        await session.switchTo(message.conversationId);
        return undefined;
      case 'conversation/search':
        void searchConversations(session, this).catch((error: unknown) => this.services.reportError(error, vscode.l10n.t('Search the conversations')));
        return undefined;
      case 'conversation/delete':
        // Not awaited: the notification with Undo stays while the webview goes on.
        void deleteWithUndo(session, message.conversationId);
        return undefined;
      case 'conversation/clear':
        void clearWithUndo(session);
        return undefined;
      case 'conversation/export':
        return this.exportMarkdown();
      case 'settings/update': {
        const { type: _type, requestId: _requestId, ...patch } = message;
        session.updateSettings(patch);
        return undefined;
      }
      case 'models/refresh': {
        const models = await session.ensureModels(true);
        return `${models.length} chat model${models.length === 1 ? '' : 's'} listed.`;
      }
      case 'composer/removeContext':
        this.attach(undefined);
        return undefined;
      case 'composer/draft':
        session.setDraft(message.text, { focus: false, fromWebview: true });
        return undefined;
      case 'code/copy':
        return this.codeActions.copy(message.code);
      case 'code/insert':
        return this.codeActions.insert(message.code);
      case 'code/openInEditor':
        return this.codeActions.openInEditor(message.code, message.language);
      case 'link/open':
        return this.openLink(message.href);
      case 'action/run':
        return this.runAction(message.action);
    }
  }

  async exportMarkdown(): Promise<string> {
    return exportConversation(this.session.view());
  }

  private async openLink(href: string): Promise<string | undefined> {
    const url = parseOpenableLink(href);
    if (!url) throw new Error('Only http and https links can be opened from the chat.');
    const opened = await vscode.env.openExternal(vscode.Uri.parse(url.href, true));
    return opened ? undefined : 'The link was not opened.';
  }

  private async runAction(action: ChatAction): Promise<string | undefined> {
    switch (action) {
      case 'retry':
        await this.session.regenerate();
        return undefined;
      case 'setModelApiKey':
        await runErrorAction(CHAT_ERROR_ACTIONS.setModelApiKey, this.situation());
        return undefined;
      case 'connectProfile': {
        const choices = [CHAT_ERROR_ACTIONS.connectSandbox, CHAT_ERROR_ACTIONS.createProfile].map((action) => ({ action, label: actionTarget(action, this.situation())?.title ?? '' }));
        const picked = await vscode.window.showQuickPick(choices, { title: vscode.l10n.t('Set up a profile for the chat') });
        if (picked) await runErrorAction(picked.action, this.situation());
        return undefined;
      }
      case 'showLogs':
        await runErrorAction(CHAT_ERROR_ACTIONS.showLogs, this.situation());
        return undefined;
    }
  }

  private situation(): ActionSituation {
    return { hasProfile: this.services.profiles.active !== undefined };
  }

  dispose(): void {
    this.panel?.dispose();
    for (const kind of [...this.surfaces.keys()]) this.detachSurface(kind, false);
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
