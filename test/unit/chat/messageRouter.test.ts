// The chat's message router (src/vscode/chat/messageRouter.ts): exactly one handler per type of message the
// webview may send (the protocol's validation schemas list them), and each type reaches the operation
// meant for it with the message's own fields — no handler that silently does nothing.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WebviewMessage, WebviewMessageType } from '../../../src/shared/protocol';
import { validateWebviewMessage } from '../../../src/shared/protocolValidation';
import { WEBVIEW_MESSAGE_TYPES } from '../../../src/shared/webviewMessageSchema';
import { CHAT_ROUTES, routeChatMessage, type ChatRouteHost } from '../../../src/vscode/chat/messageRouter';

type Call = [string, unknown[]];

/** A host that records every call; each operation resolves to a distinct confirmation. */
function recordingHost(): { host: ChatRouteHost; calls: Call[] } {
  const calls: Call[] = [];
  const recorder = (prefix: string): Record<string, unknown> =>
    new Proxy({}, {
      get: (_target, name) => {
        if (typeof name !== 'string' || name === 'then') return undefined;
        if (prefix === '' && name === 'session') return session;
        return (...args: unknown[]) => {
          calls.push([`${prefix}${name}`, args]);
          return Promise.resolve(`result of ${prefix}${name}`);
        };
      },
    });
  const session = recorder('session.');
  return { host: recorder('') as unknown as ChatRouteHost, calls };
}

/** One valid message of each type, and the one call it must make (with its arguments). */
const CASES: { [K in WebviewMessageType]: { message: Extract<WebviewMessage, { type: K }>; call: Call; returns: boolean } } = {
  ready: { message: { type: 'ready', requestId: 1 }, call: ['pageReady', []], returns: false },
  'chat/send': { message: { type: 'chat/send', requestId: 1, text: 'hi' }, call: ['send', ['hi']], returns: false },
  'chat/stop': { message: { type: 'chat/stop', requestId: 1 }, call: ['session.stop', []], returns: false },
  'chat/regenerate': { message: { type: 'chat/regenerate', requestId: 1 }, call: ['session.regenerate', []], returns: false },
  'chat/editLast': { message: { type: 'chat/editLast', requestId: 1, text: 'again' }, call: ['session.editLast', ['again']], returns: false },
  'conversation/new': { message: { type: 'conversation/new', requestId: 1 }, call: ['session.newConversation', []], returns: false },
  'conversation/switch': { message: { type: 'conversation/switch', requestId: 1, conversationId: 'c2' }, call: ['session.switchTo', ['c2']], returns: false },
  'conversation/delete': { message: { type: 'conversation/delete', requestId: 1, conversationId: 'c3' }, call: ['deleteConversation', ['c3']], returns: false },
  'conversation/clear': { message: { type: 'conversation/clear', requestId: 1 }, call: ['clearConversation', []], returns: false },
  'conversation/search': { message: { type: 'conversation/search', requestId: 1 }, call: ['searchConversations', []], returns: false },
  'conversation/export': { message: { type: 'conversation/export', requestId: 1 }, call: ['exportMarkdown', []], returns: true },
  'settings/update': { message: { type: 'settings/update', requestId: 1, temperature: 0.5 }, call: ['session.updateSettings', [{ temperature: 0.5 }]], returns: false },
  'models/refresh': { message: { type: 'models/refresh', requestId: 1 }, call: ['refreshModels', []], returns: true },
  'composer/draft': { message: { type: 'composer/draft', requestId: 1, text: 'dra' }, call: ['session.setDraft', ['dra', { focus: false, fromWebview: true }]], returns: false },
  'composer/removeContext': { message: { type: 'composer/removeContext', requestId: 1 }, call: ['detachContext', []], returns: false },
  'code/copy': { message: { type: 'code/copy', requestId: 1, code: 'x = 1' }, call: ['copyCode', ['x = 1']], returns: true },
  'code/insert': { message: { type: 'code/insert', requestId: 1, code: 'y = 2' }, call: ['insertCode', ['y = 2']], returns: true },
  'code/openInEditor': { message: { type: 'code/openInEditor', requestId: 1, code: 'z', language: 'py' }, call: ['openCodeInEditor', ['z', 'py']], returns: true },
  'link/open': { message: { type: 'link/open', requestId: 1, href: 'https://suanli.cn/' }, call: ['openLink', ['https://suanli.cn/']], returns: true },
  'action/run': { message: { type: 'action/run', requestId: 1, action: 'showLogs' }, call: ['runAction', ['showLogs']], returns: true },
};

describe('chat message router', () => {
  it('has exactly one handler for each message type of the protocol, and none besides', () => {
    const routed = Object.keys(CHAT_ROUTES).sort();
    assert.deepEqual(routed, [...WEBVIEW_MESSAGE_TYPES].sort());
    assert.equal(new Set(routed).size, routed.length);
    for (const type of WEBVIEW_MESSAGE_TYPES) assert.equal(typeof CHAT_ROUTES[type], 'function', type);
  });

  for (const type of WEBVIEW_MESSAGE_TYPES) {
    it(`routes ${type} to its operation`, async () => {
      const { message, call, returns } = CASES[type];
      const validated = validateWebviewMessage(message);
      assert.ok(validated.ok, `the sample ${type} message is not valid: ${validated.ok ? '' : validated.reason}`);
      const { host, calls } = recordingHost();
      const result = await routeChatMessage(host, validated.message);
      assert.deepEqual(calls, [call]);
      assert.equal(result, returns ? `result of ${call[0]}` : undefined);
    });
  }

  it('lets a failing operation fail the request (the panel answers it with the error)', async () => {
    const { host } = recordingHost();
    const failing: ChatRouteHost = { ...host, session: host.session, send: () => Promise.reject(new Error('a reply is still streaming')) };
    await assert.rejects(Promise.resolve(routeChatMessage(failing, { type: 'chat/send', requestId: 2, text: 'x' })), /still streaming/);
  });
});
