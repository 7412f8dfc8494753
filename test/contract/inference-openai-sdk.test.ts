// The official `openai` npm SDK, unchanged, against the sandbox's interface B: proof that the sandbox speaks
// the chat-completions convention the platform promises (docs/models.md: "a client library for that convention works
// after changing only the API key and the base address").

process.env['SANDBOX_CHAT_DELTA_MS'] = '0';

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import OpenAI, { AuthenticationError } from 'openai';
import { startSandbox, type Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
let sdk: OpenAI;

before(async () => {
  sandbox = await startSandbox();
  sdk = new OpenAI({ apiKey: sandbox.credentials.modelApiKey, baseURL: sandbox.modelApiBaseUrl, maxRetries: 0 });
});
after(async () => {
  await sandbox.close();
});

describe('openai SDK ↔ sandbox interface B', () => {
  it('lists models', async () => {
    const ids: string[] = [];
    for await (const model of sdk.models.list()) ids.push(model.id);
    assert.ok(ids.includes('qwen/qwen3-32b'));
    assert.ok(ids.includes('qwen/qwen3-embedding-4b'));
  });

  it('gets a whole completion', async () => {
    const completion = await sdk.chat.completions.create({ model: 'sandbox/echo', messages: [{ role: 'user', content: '你好 SDK' }] });
    assert.equal(completion.choices[0]?.message.content, '你好 SDK');
    assert.equal(completion.choices[0]?.finish_reason, 'stop');
    assert.ok((completion.usage?.total_tokens ?? 0) > 0);
  });

  it('streams a completion with usage; the deltas add up to the whole reply', async () => {
    const messages = [{ role: 'user' as const, content: 'markdown please' }];
    const whole = await sdk.chat.completions.create({ model: 'qwen/qwen3-32b', messages, max_tokens: 4000 });
    const stream = await sdk.chat.completions.create({
      model: 'qwen/qwen3-32b',
      messages,
      max_tokens: 4000,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let finish: string | null = null;
    let roleSeen = false;
    let usageTotal: number | undefined;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice?.delta.role === 'assistant') roleSeen = true;
      text += choice?.delta.content ?? '';
      finish = choice?.finish_reason ?? finish;
      if (chunk.usage) usageTotal = chunk.usage.total_tokens;
    }
    assert.ok(roleSeen, 'first chunk carries the role');
    assert.equal(text, whole.choices[0]?.message.content);
    assert.equal(finish, 'stop');
    assert.equal(usageTotal, whole.usage?.total_tokens);
  });

  it('maps a wrong key to the SDK’s AuthenticationError (401)', async () => {
    const wrong = new OpenAI({ apiKey: 'sk-wrong-000000000000', baseURL: sandbox.modelApiBaseUrl, maxRetries: 0 });
    await assert.rejects(wrong.models.list(), (error: unknown) => error instanceof AuthenticationError && error.status === 401 && error.code === 'invalid_api_key');
  });
});
