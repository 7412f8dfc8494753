// The chat's message router: one entry per type of message the webview sends (the typed protocol in
// src/shared/protocol.ts), each with its handler. The compiler holds the table to exactly the protocol's
// types, and test/unit/chat/messageRouter.test.ts checks every type reaches the handler meant for it.
// Handlers act on the session and on what the panel offers them (ChatRouteHost); nothing here touches
// the editor API, so the table is checked in a plain Node test. Messages arrive validated
// (src/shared/protocolValidation.ts); the panel answers each with its handler's result.

import { latencyProbe } from '../../core/chat/latencyProbe';
import type { ChatAction, WebviewMessage, WebviewMessageType } from '../../shared/protocol';
import type { ChatSession } from './chatSession';

/** What handlers may do: the session's own operations and those of the surface the message came from. */
export interface ChatRouteHost {
  readonly session: Pick<ChatSession, 'stop' | 'regenerate' | 'editLast' | 'newConversation' | 'switchTo' | 'updateSettings' | 'setDraft'>;
  /** The surface's page loaded: it gets the full state, a composer text waiting for it and the chip. */
  pageReady(): Promise<void>;
  /** Sends what the user typed, after any attached code. */
  send(text: string): Promise<void>;
  /** Opens the conversation search (not awaited: the quick pick stays while the webview goes on). */
  searchConversations(): void;
  /** Deletes with an Undo offer (not awaited: the notification stays while the webview goes on). */
  deleteConversation(conversationId: string): void;
  clearConversation(): void;
  /** Saves the active conversation as Markdown; resolves to a confirmation. */
  exportMarkdown(): Promise<string>;
  /** Lists the chat models again; resolves to "N chat models listed." */
  refreshModels(): Promise<string>;
  /** Removes the attached-code chip. */
  detachContext(): void;
  copyCode(code: string): Promise<string>;
  insertCode(code: string): Promise<string>;
  openCodeInEditor(code: string, language: string): Promise<string>;
  openLink(href: string): Promise<string | undefined>;
  /** A chat turn's error action (the error bridge). */
  runAction(action: ChatAction): Promise<string | undefined>;
}

type MessageOf<K extends WebviewMessageType> = Extract<WebviewMessage, { type: K }>;
/** Runs one validated message; returns a short confirmation for the webview to show, if any. */
type Handler<K extends WebviewMessageType> = (host: ChatRouteHost, message: MessageOf<K>) => Promise<string | undefined> | string | undefined;

export const CHAT_ROUTES: { readonly [K in WebviewMessageType]: Handler<K> } = {
  ready: async (host) => {
    await host.pageReady();
    return undefined;
  },
  'chat/send': async (host, message) => {
    latencyProbe?.start();
    // Answered when the reply ended: a failure (no model, a reply still streaming) comes back as this
    // request's error, which the webview shows inline (never as a notification over Send and Stop).
    // Each message is handled on its own, so the webview keeps working while the reply streams.
    await host.send(message.text);
    return undefined;
  },
  'chat/stop': (host) => {
    host.session.stop();
    return undefined;
  },
  'chat/regenerate': async (host) => {
    await host.session.regenerate();
    return undefined;
  },
  'chat/editLast': async (host, message) => {
    await host.session.editLast(message.text);
    return undefined;
  },
  'conversation/new': (host) => {
    host.session.newConversation();
    return undefined;
  },
  'conversation/switch': async (host, message) => {
    await host.session.switchTo(message.conversationId);
    return undefined;
  },
  'conversation/search': (host) => {
    host.searchConversations();
    return undefined;
  },
  'conversation/delete': (host, message) => {
    host.deleteConversation(message.conversationId);
    return undefined;
  },
  'conversation/clear': (host) => {
    host.clearConversation();
    return undefined;
  },
  'conversation/export': (host) => host.exportMarkdown(),
  'settings/update': (host, message) => {
    const { type: _type, requestId: _requestId, ...patch } = message;
    host.session.updateSettings(patch);
    return undefined;
  },
  'models/refresh': (host) => host.refreshModels(),
  'composer/removeContext': (host) => {
    host.detachContext();
    return undefined;
  },
  'composer/draft': (host, message) => {
    host.session.setDraft(message.text, { focus: false, fromWebview: true });
    return undefined;
  },
  'code/copy': (host, message) => host.copyCode(message.code),
  'code/insert': (host, message) => host.insertCode(message.code),
  'code/openInEditor': (host, message) => host.openCodeInEditor(message.code, message.language),
  'link/open': (host, message) => host.openLink(message.href),
  'action/run': (host, message) => host.runAction(message.action),
};

/** Hands a validated message to its handler. */
export function routeChatMessage(host: ChatRouteHost, message: WebviewMessage): Promise<string | undefined> | string | undefined {
  const handler = CHAT_ROUTES[message.type] as Handler<WebviewMessageType>;
  return handler(host, message as never);
}
