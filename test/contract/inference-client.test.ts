// The model client against the sandbox's interface B over loopback: listing, whole and streamed replies,
// reasoning, usage, Stop, auth failures and the platform's HTTP-200 error bodies.

process.env['SANDBOX_CHAT_DELTA_MS'] = '0'; // no typing delay: these tests check content, not pacing

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AbortedError, ConfigError } from '../../src/core/errors';
import { createModelClient, ModelApiError, type ChatRequest, type ChatStreamEvent, type ModelClientOptions } from '../../src/core/inference';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { waitForStream } from '../sandbox/inference/testing';

let sandbox: Sandbox;

function client(overrides: Partial<ModelClientOptions> = {}) {
  return createModelClient({ apiBaseUrl: sandbox.modelApiBaseUrl, apiKey: async () => sandbox.credentials.modelApiKey, ...overrides });
}

const ask = (model: string, content: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model,
  messages: [
    { role: 'system', content: 'You are a test.' },
    { role: 'user', content },
  ],
  ...extra,
});

async function collect(events: AsyncIterable<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const all: ChatStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

const textOf = (events: ChatStreamEvent[], type: 'content' | 'reasoning'): string =>
  events.map((event) => (event.type === type ? event.text : '')).join('');

before(async () => {
  sandbox = await startSandbox();
});
after(async () => {
  await sandbox.close();
});

describe('model client ↔ sandbox interface B', () => {
  it('lists models and tells chat models from the others', async () => {
    const models = await client().listModels();
    const chat = models.filter((model) => model.chat).map((model) => model.id);
    const other = models.filter((model) => !model.chat).map((model) => model.id);
    assert.ok(chat.includes('deepseek/deepseek-v4-flash-0731-free'));
    assert.ok(chat.includes('qwen/qwen3-32b'));
    assert.ok(chat.includes('sandbox/echo'));
    for (const id of ['qwen/qwen3-embedding-4b', 'qwen/qwen3-reranker-8b', 'black-forest-labs/flux.1-krea-dev', 'qwen/qwen3-asr-1.7b']) {
      assert.ok(other.includes(id), `${id} is listed as non-chat`);
    }
  });

  it('gets a whole reply with usage, echoing the question', async () => {
    const completion = await client().complete(ask('sandbox/echo', 'ping 你好 🚀'));
    assert.equal(completion.content, 'ping 你好 🚀');
    assert.equal(completion.finishReason, 'stop');
    assert.ok(completion.usage !== undefined && completion.usage.completion_tokens > 0);
    assert.equal(completion.usage.total_tokens, completion.usage.prompt_tokens + completion.usage.completion_tokens);
  });

  it('streams the same text as the whole reply, with finish reason and usage', async () => {
    const request = ask('qwen/qwen3-32b', 'Show me markdown', { temperature: 0.2, max_tokens: 4000 });
    const whole = await client().complete(request);
    const stream = client().stream(request);
    const events = await collect(stream);
    const outcome = await stream.outcome;
    assert.equal(textOf(events, 'content'), whole.content);
    assert.equal(outcome.content, whole.content);
    assert.match(outcome.content, /```ts[\s\S]*```python[\s\S]*```bash/);
    assert.match(outcome.content, /你好，世界/);
    assert.equal(outcome.complete, true);
    assert.equal(outcome.malformedEvents, 0);
    assert.equal(outcome.finishReason, 'stop');
    assert.deepEqual(outcome.usage, whole.usage);
    assert.deepEqual(events.filter((event) => event.type === 'finish'), [{ type: 'finish', reason: 'stop' }]);
    assert.equal(events.filter((event) => event.type === 'usage').length, 1);
  });

  it('keeps reasoning apart from the answer', async () => {
    const stream = client().stream(ask('sandbox/reasoning', 'why?'));
    const events = await collect(stream);
    const outcome = await stream.outcome;
    assert.match(outcome.reasoning, /^The user wrote 4 characters/);
    assert.equal(textOf(events, 'reasoning'), outcome.reasoning);
    assert.ok(!outcome.content.includes('The user wrote'));
    const firstContent = events.findIndex((event) => event.type === 'content');
    const lastReasoning = events.map((event) => event.type).lastIndexOf('reasoning');
    assert.ok(lastReasoning < firstContent, 'reasoning arrives first');
  });

  it('streams a ~60 KB reply completely', async () => {
    const stream = client().stream(ask('deepseek/deepseek-v4-flash-0731-free', 'please /long'));
    const outcome = await stream.outcome; // settles without anyone iterating
    assert.equal(outcome.complete, true);
    assert.ok(outcome.content.length > 55_000, `got ${outcome.content.length} chars`);
    assert.equal(outcome.content, (await client().complete(ask('deepseek/deepseek-v4-flash-0731-free', 'please /long'))).content);
  });

  it('cuts the reply at max_tokens with finish reason "length"', async () => {
    const stream = client().stream(ask('qwen/qwen3-32b', 'hello', { max_tokens: 5 }));
    const outcome = await stream.outcome;
    assert.equal(outcome.finishReason, 'length');
    assert.equal(outcome.usage?.completion_tokens, 5);
  });

  it('Stop aborts the HTTP request: partial text kept, the server sees the disconnect', async () => {
    const request = ask('qwen/qwen3-32b', 'a slow one /slow');
    const full = (await client().complete(request)).content;
    const controller = new AbortController();
    const stream = client().stream(request, controller.signal);
    let received = '';
    await assert.rejects(async () => {
      for await (const event of stream) {
        if (event.type === 'content') {
          received += event.text;
          if (received.length >= 20) controller.abort();
        }
      }
    }, AbortedError);
    await assert.rejects(stream.outcome, AbortedError);
    const partial = stream.progress();
    assert.equal(partial.complete, false);
    assert.equal(partial.content, received);
    assert.ok(full.startsWith(received) && received.length < full.length);
    const record = await waitForStream(sandbox.modelApiBaseUrl, (entry) => entry.model === 'qwen/qwen3-32b' && entry.state === 'client-disconnected');
    assert.ok(record.chunksWritten < record.chunksPlanned, `server stopped writing (${record.chunksWritten}/${record.chunksPlanned})`);
  });

  it('leaving the loop early also closes the connection', async () => {
    const stream = client().stream(ask('deepseek/deepseek-v4-flash-0731-free', 'break early /slow'));
    for await (const event of stream) {
      if (event.type === 'content') break;
    }
    await assert.rejects(stream.outcome, AbortedError);
    const record = await waitForStream(sandbox.modelApiBaseUrl, (entry) => entry.model === 'deepseek/deepseek-v4-flash-0731-free' && entry.state === 'client-disconnected');
    assert.ok(record.chunksWritten < record.chunksPlanned);
  });

  it('an already-aborted signal sends nothing', async () => {
    const before = sandbox.requests.length;
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(client().complete(ask('sandbox/echo', 'x'), controller.signal), AbortedError);
    await assert.rejects(client().stream(ask('sandbox/echo', 'x'), controller.signal).outcome, AbortedError);
    assert.equal(sandbox.requests.length, before);
  });

  it('refuses to send without a key (ConfigError, nothing sent)', async () => {
    const before = sandbox.requests.length;
    const keyless = client({ apiKey: async () => '  ' });
    await assert.rejects(keyless.listModels(), ConfigError);
    await assert.rejects(keyless.stream(ask('sandbox/echo', 'x')).outcome, ConfigError);
    assert.equal(sandbox.requests.length, before);
  });

  it('a request without credentials gets the platform’s 400 {code, message}', async () => {
    const response = await fetch(`${sandbox.modelApiBaseUrl}/models`);
    assert.equal(response.status, 400);
    assert.deepEqual(await response.json(), { code: 400, message: '缺少用户凭证' });
  });

  it('a wrong key is an auth error that never contains the key', async () => {
    const wrongKey = 'sk-wrong-key-0123456789abcdefghij';
    const wrong = client({ apiKey: async () => wrongKey });
    const check = (error: unknown): boolean => {
      assert.ok(error instanceof ModelApiError);
      assert.equal(error.kind, 'auth');
      assert.equal(error.status, 401);
      assert.equal(error.code, 'invalid_api_key');
      assert.ok(!error.message.includes(wrongKey));
      return true;
    };
    await assert.rejects(wrong.listModels(), check);
    await assert.rejects(wrong.complete(ask('sandbox/echo', 'x')), check);
    await assert.rejects(wrong.stream(ask('sandbox/echo', 'x')).outcome, check);
  });

  it('chat on a non-chat model is an HTTP 200 {error}: ModelApiError, whole and streamed', async () => {
    const check = (error: unknown): boolean =>
      error instanceof ModelApiError && error.status === 200 && error.code === '400' && /does not support Chat Completions/.test(error.message);
    await assert.rejects(client().complete(ask('qwen/qwen3-embedding-4b', 'x')), check);
    const stream = client().stream(ask('qwen/qwen3-embedding-4b', 'x'));
    await assert.rejects(collect(stream), check);
    await assert.rejects(stream.outcome, check);
  });

  it('the sandbox validates requests with OpenAI-style 400s', async () => {
    const post = (body: unknown) =>
      fetch(`${sandbox.modelApiBaseUrl}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sandbox.credentials.modelApiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const cases: [unknown, string][] = [
      [{ messages: [{ role: 'user', content: 'x' }] }, 'model'],
      [{ model: 'qwen/qwen3-32b', messages: 'hi' }, 'messages'],
      [{ model: 'qwen/qwen3-32b', messages: [{ role: 'user' }] }, 'messages[0].content'],
      [{ model: 'qwen/qwen3-32b', messages: [{ role: 'user', content: 'x' }], max_tokens: 1.5 }, 'max_tokens'],
      [{ model: 'qwen/qwen3-32b', messages: [{ role: 'user', content: 'x' }], temperature: 'hot' }, 'temperature'],
    ];
    for (const [body, param] of cases) {
      const response = await post(body);
      assert.equal(response.status, 400, param);
      const json = (await response.json()) as { error: { type: string; param: string } };
      assert.equal(json.error.type, 'invalid_request_error');
      assert.equal(json.error.param, param);
    }
  });
});
