// The chat area: the session (conversations, streaming, persistence), the panel, its serializer and the
// chat commands. Nothing heavy loads here: the model client (HTTP stack) loads on the first request.

import * as vscode from 'vscode';
import type { ModelRoutes } from '../../core/chat/modelRoutes';
import type { ConversationSummary, ConversationView, DeployedModelOption, SettingsPatch } from '../../shared/protocol';
import { conversationToMarkdown } from '../../shared/conversationMarkdown';
import { registerCommandTable } from '../commands/commandTable';
import type { RegisteredArea } from '../areaRegistry';
import type { ExtensionServices } from '../services';
import { CHAT_SIDE_VIEW_ID, CHAT_VIEW_TYPE, ChatPanel, type ChatSurfaceKind } from './chatPanel';
import { createChatSession } from './chatSession';
import { CodeActions } from './codeActions';
import { CHAT_COMMANDS } from './commands';
import { ModelClientProvider } from './modelClientProvider';

export interface ChatSnapshot {
  /** The conversation the panel shows. */
  conversation: ConversationView;
  conversations: ConversationSummary[];
  /** Every conversation kept (the list above holds the newest) and the bytes they use on disk. */
  conversationCount: number;
  historyBytes: number;
  /** The composer text as the host knows it (set by selection-to-prompt, reported back by the webview). */
  draft: string;
  models: string[];
  /** A user's deployed models in the picker (docs/deployments.md), unavailable ones with their reason. */
  deployed: DeployedModelOption[];
  modelsError: string | undefined;
  panelOpen: boolean;
  /** The panel's webview has loaded and said 'ready' (it receives state and deltas). */
  webviewReady: boolean;
  /** The side-bar view's webview said 'ready'. */
  viewReady: boolean;
  /** The code Ask about Selection attached to the next message (shown as a chip), if any. */
  attached: { label: string; text: string } | undefined;
  /** The conversation each webview was last sent (what it shows), if it is ready. */
  shown: { panel: string | undefined; view: string | undefined };
}

/** What the chat area exposes to the composition root and to the in-host tests. */
export interface ChatApi {
  /** Opens (or reveals) the editor-tab panel; resolves once its webview said 'ready'. */
  open(): Promise<void>;
  /** Reveals the side-bar view; resolves once its webview said 'ready'. */
  openView(): Promise<void>;
  /** Starts a new conversation and makes it active. */
  newConversation(): ConversationView;
  /** Sends a user message in the active conversation; resolves when the reply ended (complete, stopped, failed). */
  send(text: string): Promise<ConversationView>;
  /** Stops the active conversation's streaming reply (its partial text is kept). */
  stop(): void;
  regenerate(): Promise<ConversationView>;
  /** Lists the active profile's chat models again. */
  refreshModels(): Promise<string[]>;
  selectModel(modelId: string): void;
  /** A newly deployed model: preselected in an empty conversation and for the next new ones. */
  preferModel(modelId: string): void;
  /** Changes the active conversation's model, system prompt, temperature or max_tokens. */
  updateSettings(patch: SettingsPatch): void;
  activeConversation(): ConversationView;
  snapshot(): ChatSnapshot;
  /** The active conversation as Export to Markdown writes it. */
  exportMarkdown(): string;
  /** Fires on every state change and every forwarded batch of streamed text. */
  readonly onDidUpdate: vscode.Event<ChatSnapshot>;
  /** Resolves when no reply is streaming. */
  whenIdle(): Promise<void>;
  /** Deletes a conversation (undoable until `commit` or the undo window ends). */
  deleteConversation(conversationId: string): { undo: () => Promise<boolean>; commit: () => void };
  /** Conversations whose title or text contain every word of the query. */
  searchConversations(query: string): Promise<ConversationSummary[]>;
  switchTo(conversationId: string): Promise<void>;
  /** Writes the history now (persistence is otherwise debounced). */
  flush(): Promise<void>;
}

/** Models besides the profile's (a user's deployments): listed in the picker, asked through their routes. */
export interface ChatModelRoutes extends ModelRoutes {
  /** The routes' models changed: the picker shows it. */
  readonly onDidChange: vscode.Event<void>;
}

/** `own`: the registry's list for this area (areaRegistry.ts); each disposable goes in as it is created. */
export function registerChat(services: ExtensionServices, routes: ChatModelRoutes, own: vscode.Disposable[] = []): RegisteredArea<ChatApi> {
  const clients = new ModelClientProvider(services);
  const session = createChatSession(services, clients, routes);
  own.push(session);
  const codeActions = new CodeActions();
  own.push(codeActions);
  const panel = new ChatPanel(services, session, codeActions);
  own.push(panel);
  const updated = new vscode.EventEmitter<ChatSnapshot>();
  own.push(updated);

  const snapshot = (): ChatSnapshot => {
    const models = session.models;
    return {
      conversation: session.view(),
      conversations: session.summaries(),
      conversationCount: session.counts.total,
      historyBytes: session.counts.bytes,
      draft: session.draft(),
      models: models.models,
      deployed: session.deployedModels,
      modelsError: models.error,
      panelOpen: panel.isOpen,
      webviewReady: panel.isReady,
      viewReady: panel.isViewReady,
      attached: panel.attached,
      shown: { panel: panel.shownConversation('panel'), view: panel.shownConversation('view') },
    };
  };

  /** Shows one surface and resolves once its webview said 'ready'. */
  const openSurface = async (kind: ChatSurfaceKind, reveal: () => unknown): Promise<void> => {
    await session.loaded;
    const isReady = (): boolean => (kind === 'panel' ? panel.isReady : panel.isViewReady);
    if (isReady()) {
      await reveal();
      return;
    }
    const ready = new Promise<void>((resolve) => {
      const subscription = panel.onDidBecomeReady((readyKind) => {
        if (readyKind !== kind) return;
        subscription.dispose();
        resolve();
      });
    });
    await reveal();
    await ready;
  };

  own.push(session.onDidChangeState(() => updated.fire(snapshot())));
  own.push(session.onDelta(() => updated.fire(snapshot())));
  own.push(panel.onDidBecomeReady(() => updated.fire(snapshot())));
  own.push(routes.onDidChange(() => session.routesChanged()));
  own.push(
    services.profiles.onDidChangeActive(() => {
      clients.reset();
      session.profileChanged();
    }),
  );
  own.push(
    vscode.window.registerWebviewViewProvider(CHAT_SIDE_VIEW_ID, { resolveWebviewView: (view) => panel.resolveView(view) }, {
      webviewOptions: { retainContextWhenHidden: false },
    }),
  );
  own.push(
    vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, {
      deserializeWebviewPanel: async (webviewPanel, state: unknown) => panel.restore(webviewPanel, state),
    }),
  );
  own.push(...registerCommandTable(CHAT_COMMANDS, { services, session, panel }, services.reportError));

  const api: ChatApi = {
    open: () => openSurface('panel', () => panel.open(false)),
    openView: () => openSurface('view', () => panel.openView(false)),
    newConversation: () => session.view(session.newConversation()),
    send: async (text) => {
      await session.send(text);
      return session.view();
    },
    stop: () => session.stop(),
    regenerate: async () => {
      await session.regenerate();
      return session.view();
    },
    refreshModels: () => session.ensureModels(true),
    selectModel: (modelId) => session.updateSettings({ model: modelId }),
    preferModel: (modelId) => session.preferModel(modelId),
    updateSettings: (patch) => session.updateSettings(patch),
    activeConversation: () => session.view(),
    snapshot,
    exportMarkdown: () => conversationToMarkdown(session.view(), new Date()),
    onDidUpdate: updated.event,
    deleteConversation: (conversationId) => session.delete(conversationId),
    searchConversations: async (query) =>
      (await session.search(query)).map((entry) => ({ id: entry.id, title: entry.title, updatedAt: entry.updatedAt, turnCount: entry.turnCount })),
    switchTo: (conversationId) => session.switchTo(conversationId),
    whenIdle: () => session.whenIdle(),
    flush: () => session.flush(),
  };
  return { api, disposables: own };
}
