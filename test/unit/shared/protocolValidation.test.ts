import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_CODE_CHARS, MAX_HREF_CHARS, MAX_USER_MESSAGE_CHARS } from '../../../src/shared/limits';
import type { WebviewMessage, WebviewMessageType } from '../../../src/shared/protocol';
import { parseOpenableLink, validateWebviewMessage } from '../../../src/shared/protocolValidation';

/** One valid example of every webview→host message type (the compiler checks the set is complete). */
const VALID: { [K in WebviewMessageType]: Extract<WebviewMessage, { type: K }> } = {
  ready: { type: 'ready', requestId: 1 },
  'chat/send': { type: 'chat/send', requestId: 2, text: 'hello' },
  'chat/stop': { type: 'chat/stop', requestId: 3 },
  'chat/regenerate': { type: 'chat/regenerate', requestId: 4 },
  'chat/editLast': { type: 'chat/editLast', requestId: 5, text: 'edited' },
  'conversation/new': { type: 'conversation/new', requestId: 6 },
  'conversation/switch': { type: 'conversation/switch', requestId: 7, conversationId: 'c-1' },
  'conversation/delete': { type: 'conversation/delete', requestId: 8, conversationId: 'c-1' },
  'conversation/clear': { type: 'conversation/clear', requestId: 9 },
  'conversation/search': { type: 'conversation/search', requestId: 21 },
  'conversation/export': { type: 'conversation/export', requestId: 10 },
  'settings/update': { type: 'settings/update', requestId: 11, model: 'qwen/qwen3-32b', temperature: 0.2, maxTokens: 512, systemPrompt: 'Be brief.' },
  'models/refresh': { type: 'models/refresh', requestId: 12 },
  'composer/draft': { type: 'composer/draft', requestId: 13, text: '' },
  'composer/removeContext': { type: 'composer/removeContext', requestId: 22 },
  'code/copy': { type: 'code/copy', requestId: 14, code: 'print(1)' },
  'code/insert': { type: 'code/insert', requestId: 15, code: 'print(1)\n' },
  'code/openInEditor': { type: 'code/openInEditor', requestId: 16, code: 'x = 1', language: 'python' },
  'link/open': { type: 'link/open', requestId: 17, href: 'https://example.com/' },
  'action/run': { type: 'action/run', requestId: 18, action: 'setModelApiKey' },
};

function rejects(value: unknown, reasonPart: string | RegExp): void {
  const result = validateWebviewMessage(value);
  assert.equal(result.ok, false, `accepted ${JSON.stringify(value)?.slice(0, 120)}`);
  if (!result.ok) {
    if (typeof reasonPart === 'string') assert.ok(result.reason.includes(reasonPart), result.reason);
    else assert.match(result.reason, reasonPart);
  }
}

describe('validateWebviewMessage', () => {
  for (const [type, message] of Object.entries(VALID)) {
    it(`accepts a valid ${type}`, () => {
      const result = validateWebviewMessage(structuredClone(message));
      assert.deepEqual(result, { ok: true, message });
    });
  }

  it('accepts a settings/update with a single field', () => {
    assert.equal(validateWebviewMessage({ type: 'settings/update', requestId: 1, temperature: 0 }).ok, true);
  });

  it('rejects values that are not message objects', () => {
    for (const value of [null, undefined, 42, 'ready', [], [{ type: 'ready', requestId: 1 }], true]) rejects(value, 'not an object');
  });

  it('rejects unknown and mistyped message types', () => {
    rejects({ type: 'chat/exec', requestId: 1 }, 'unknown message type "chat/exec"');
    rejects({ type: 'toString', requestId: 1 }, 'unknown message type');
    rejects({ type: '__proto__', requestId: 1 }, 'unknown message type');
    rejects({ type: 7, requestId: 1 }, 'unknown message type number');
    rejects({ requestId: 1 }, 'unknown message type undefined');
  });

  it('rejects a missing or invalid requestId', () => {
    for (const requestId of [undefined, 0, -1, 1.5, '1', Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) {
      rejects({ type: 'ready', requestId }, 'requestId');
    }
  });

  it('rejects unexpected fields', () => {
    rejects({ ...VALID['chat/send'], command: 'workbench.action.terminal.new' }, 'unexpected field "command"');
    rejects({ ...VALID.ready, text: 'x' }, 'unexpected field "text"');
  });

  it('rejects missing required fields', () => {
    rejects({ type: 'chat/send', requestId: 1 }, 'chat/send: text');
    rejects({ type: 'code/openInEditor', requestId: 1, code: 'x' }, 'language');
    rejects({ type: 'link/open', requestId: 1 }, 'href');
  });

  it('rejects fields of the wrong type', () => {
    rejects({ type: 'chat/send', requestId: 1, text: 42 }, 'text must be');
    rejects({ type: 'code/copy', requestId: 1, code: ['a'] }, 'code must be');
    rejects({ type: 'conversation/switch', requestId: 1, conversationId: { id: 'x' } }, 'conversationId');
    rejects({ type: 'settings/update', requestId: 1, temperature: '0.5' }, 'temperature');
  });

  it('rejects empty text where a value is required', () => {
    rejects({ type: 'chat/send', requestId: 1, text: '' }, 'non-empty');
    rejects({ type: 'conversation/delete', requestId: 1, conversationId: '' }, 'non-empty');
    rejects({ type: 'link/open', requestId: 1, href: '' }, 'non-empty');
  });

  it('rejects oversized strings', () => {
    rejects({ type: 'chat/send', requestId: 1, text: 'x'.repeat(MAX_USER_MESSAGE_CHARS + 1) }, `at most ${MAX_USER_MESSAGE_CHARS}`);
    rejects({ type: 'code/copy', requestId: 1, code: 'x'.repeat(MAX_CODE_CHARS + 1) }, 'at most');
    rejects({ type: 'link/open', requestId: 1, href: `https://e.com/${'a'.repeat(MAX_HREF_CHARS)}` }, 'at most');
    rejects({ type: 'code/openInEditor', requestId: 1, code: 'x', language: 'l'.repeat(65) }, 'language');
  });

  it('rejects out-of-range and non-integer settings, and an empty settings change', () => {
    rejects({ type: 'settings/update', requestId: 1, temperature: 2.5 }, 'temperature');
    rejects({ type: 'settings/update', requestId: 1, temperature: -0.1 }, 'temperature');
    rejects({ type: 'settings/update', requestId: 1, temperature: Number.NaN }, 'temperature');
    rejects({ type: 'settings/update', requestId: 1, maxTokens: 0 }, 'maxTokens');
    rejects({ type: 'settings/update', requestId: 1, maxTokens: 10.5 }, 'maxTokens');
    rejects({ type: 'settings/update', requestId: 1 }, 'no setting given');
  });

  it('rejects actions outside the fixed list', () => {
    rejects({ type: 'action/run', requestId: 1, action: 'workbench.action.openSettings' }, 'action must be one of');
  });
});

describe('parseOpenableLink', () => {
  it('accepts absolute http and https links', () => {
    assert.equal(parseOpenableLink('https://docs.example.com/a?b=1#c')?.href, 'https://docs.example.com/a?b=1#c');
    assert.equal(parseOpenableLink('http://127.0.0.1:8080/')?.host, '127.0.0.1:8080');
  });

  it('refuses other schemes, relative links and links with credentials', () => {
    for (const href of [
      'command:workbench.action.terminal.new',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'vscode://settings',
      'data:text/html,hi',
      '/relative/path',
      'example.com',
      'https://user:pass@example.com/',
    ]) {
      assert.equal(parseOpenableLink(href), undefined, href);
    }
  });
});
