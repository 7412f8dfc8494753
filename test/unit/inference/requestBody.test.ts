// The chat request body: exactly the convention's fields, usage asked for when streaming, bad settings
// refused locally before anything is sent.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError } from '../../../src/core/errors';
import type { ChatRequest } from '../../../src/core/inference/api';
import { chatRequestBody } from '../../../src/core/inference/requestBody';

const base: ChatRequest = {
  model: 'qwen/qwen3-32b',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: '你好' },
  ],
};

describe('chatRequestBody', () => {
  it('builds a whole-reply body without stream fields', () => {
    assert.deepEqual(JSON.parse(chatRequestBody({ ...base, max_tokens: 256, temperature: 0.7 }, false)), {
      model: 'qwen/qwen3-32b',
      messages: base.messages,
      max_tokens: 256,
      temperature: 0.7,
    });
  });

  it('asks for usage when streaming', () => {
    const body = JSON.parse(chatRequestBody(base, true)) as Record<string, unknown>;
    assert.equal(body['stream'], true);
    assert.deepEqual(body['stream_options'], { include_usage: true });
    assert.equal('max_tokens' in body, false);
  });

  it('drops fields the convention does not know from messages', () => {
    const message = { role: 'user', content: 'x', extra: 'dropped' } as ChatRequest['messages'][number];
    assert.deepEqual(JSON.parse(chatRequestBody({ model: 'm/x', messages: [message] }, false)), { model: 'm/x', messages: [{ role: 'user', content: 'x' }] });
  });

  const invalid: ReadonlyArray<readonly [string, ChatRequest, RegExp]> = [
    ['empty model', { ...base, model: '  ' }, /No model selected/],
    ['no messages', { ...base, messages: [] }, /at least one message/],
    ['bad role', { ...base, messages: [{ role: 'tool' as 'user', content: 'x' }] }, /Message 1/],
    ['fractional max_tokens', { ...base, max_tokens: 1.5 }, /max_tokens/],
    ['zero max_tokens', { ...base, max_tokens: 0 }, /max_tokens/],
    ['temperature out of range', { ...base, temperature: 3 }, /temperature/],
    ['temperature NaN', { ...base, temperature: Number.NaN }, /temperature/],
  ];
  for (const [name, request, message] of invalid) {
    it(`refuses ${name}`, () => {
      assert.throws(() => chatRequestBody(request, true), (error: unknown) => error instanceof ConfigError && message.test(error.message));
    });
  }
});
