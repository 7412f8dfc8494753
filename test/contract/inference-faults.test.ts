// Every interface B fault of the sandbox against the model client: timeouts by phase, a dropped stream
// (partial text kept, marked incomplete), malformed chunks (skipped, counted), retries before the first
// byte with Retry-After honoured, HTTP-200 error bodies, HTML pages and resets.

process.env['SANDBOX_CHAT_DELTA_MS'] = '0';

import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { HttpError, NetworkError, RateLimitError, TimeoutError } from '../../src/core/errors';
import { sleep } from '../../src/core/http';
import { createModelClient, ModelApiError, type ChatRequest, type ModelClientOptions } from '../../src/core/inference';
import { startSandbox, type Sandbox } from '../sandbox/server';
import type { Fault } from '../sandbox/types';

let sandbox: Sandbox;
/** Delays the client asked to wait between retries (recorded, then really waited). */
let waits: number[] = [];

function client(overrides: Partial<ModelClientOptions> = {}) {
  return createModelClient({
    apiBaseUrl: sandbox.modelApiBaseUrl,
    apiKey: async () => sandbox.credentials.modelApiKey,
    retry: { baseDelayMs: 20, maxDelayMs: 5_000 },
    sleep: async (ms, signal) => {
      waits.push(ms);
      await sleep(ms, signal);
    },
    ...overrides,
  });
}

const request: ChatRequest = { model: 'qwen/qwen3-32b', messages: [{ role: 'user', content: 'faults' }] };
const inject = (fault: Omit<Fault, 'target'>): void => sandbox.faults.inject({ target: 'inference', ...fault });
const chatRequests = (): number => sandbox.requests.filter((entry) => entry.path.startsWith('/v1/chat/completions')).length;

let fullText = '';

before(async () => {
  sandbox = await startSandbox();
  fullText = (await client().complete(request)).content;
});
afterEach(() => {
  sandbox.faults.clear();
  waits = [];
});
after(async () => {
  await sandbox.close();
});

describe('interface B faults', () => {
  it('slow first token → TimeoutError(first-token)', async () => {
    inject({ kind: 'slow-first-token', delayMs: 1_500 });
    const stream = client({ firstTokenTimeoutMs: 150, idleTimeoutMs: 10_000 }).stream(request);
    await assert.rejects(stream.outcome, (error: unknown) => error instanceof TimeoutError && error.phase === 'first-token' && error.timeoutMs === 150);
  });

  it('a silent gap longer than the idle limit → TimeoutError(idle)', async () => {
    inject({ kind: 'slow-first-token', delayMs: 1_500 });
    const stream = client({ firstTokenTimeoutMs: 10_000, idleTimeoutMs: 150 }).stream(request);
    await assert.rejects(stream.outcome, (error: unknown) => error instanceof TimeoutError && error.phase === 'idle');
  });

  it('no response headers in time → TimeoutError(connect), not retried', async () => {
    inject({ kind: 'latency', delayMs: 1_500 });
    const stream = client({ connectTimeoutMs: 150 }).stream(request);
    await assert.rejects(stream.outcome, (error: unknown) => error instanceof TimeoutError && error.phase === 'connect');
    assert.deepEqual(waits, [], 'every retry waits first, so no wait means no retry');
  });

  it('drop mid-stream → outcome complete:false with the partial text kept', async () => {
    inject({ kind: 'drop-midstream', afterChunks: 40 });
    const stream = client().stream(request);
    let streamed = '';
    for await (const event of stream) if (event.type === 'content') streamed += event.text;
    const outcome = await stream.outcome;
    assert.equal(outcome.complete, false);
    assert.ok(outcome.content.length > 0, 'some text arrived');
    assert.equal(outcome.content, streamed);
    assert.ok(fullText.startsWith(outcome.content) && outcome.content.length < fullText.length);
    assert.match(outcome.interruption ?? '', /closed|ended/);
    assert.equal(outcome.finishReason, null);
  });

  it('malformed chunk → skipped and counted, the rest of the reply intact', async () => {
    inject({ kind: 'malformed-chunk', afterChunks: 5 });
    const stream = client().stream(request);
    const outcome = await stream.outcome;
    assert.equal(outcome.complete, true);
    assert.equal(outcome.malformedEvents, 1);
    assert.equal(outcome.content, fullText);
  });

  it('429 with Retry-After, then success: retried after exactly the asked delay', async () => {
    inject({ kind: 'status', status: 429, retryAfterSeconds: 1 });
    const before = chatRequests();
    const stream = client().stream(request);
    const outcome = await stream.outcome;
    assert.equal(outcome.complete, true);
    assert.equal(outcome.content, fullText);
    assert.deepEqual(waits, [1_000]);
    assert.equal(chatRequests() - before, 2);
  });

  it('429 beyond the retry budget → RateLimitError carrying Retry-After', async () => {
    inject({ kind: 'status', status: 429, retryAfterSeconds: 0, count: 3 });
    await assert.rejects(client({ maxRetries: 1 }).complete(request), (error: unknown) => error instanceof RateLimitError && error.retryAfterSeconds === 0);
    assert.deepEqual(waits, [0]);
  });

  it('503 and 500, then success (whole reply)', async () => {
    inject({ kind: 'status', status: 503 });
    inject({ kind: 'status', status: 500 });
    const completion = await client().complete(request);
    assert.equal(completion.content, fullText);
    assert.equal(waits.length, 2);
  });

  it('a 500 that persists → ModelApiError with the server message after the retries', async () => {
    inject({ kind: 'status', status: 500, count: 5, message: 'backend restarting' });
    await assert.rejects(client({ maxRetries: 2 }).complete(request), (error: unknown) => error instanceof ModelApiError && error.status === 500 && /backend restarting/.test(error.message));
    assert.equal(waits.length, 2);
  });

  it('connection reset before any answer → retried (network error)', async () => {
    inject({ kind: 'reset' });
    const stream = client().stream(request);
    assert.equal((await stream.outcome).content, fullText);
    assert.equal(waits.length, 1);
  });

  it('connection reset every time → NetworkError', async () => {
    inject({ kind: 'reset', count: 2 });
    await assert.rejects(client({ maxRetries: 1 }).listModels(), NetworkError);
  });

  it('HTML gateway page → HttpError with a readable excerpt', async () => {
    inject({ kind: 'html', status: 502, count: 1 });
    await assert.rejects(client({ maxRetries: 0 }).listModels(), (error: unknown) => error instanceof HttpError && error.status === 502 && /502 Bad Gateway/.test(error.excerpt) && !error.excerpt.includes('<'));
  });

  it('HTTP 200 with an {error} body → ModelApiError (whole reply)', async () => {
    inject({ kind: 'error-200', code: 'bad_response_status_code', message: 'Not Found' });
    await assert.rejects(client().complete(request), (error: unknown) => error instanceof ModelApiError && error.status === 200 && error.code === 'bad_response_status_code' && error.kind === 'api');
    assert.deepEqual(waits, [], 'an answered request is never retried');
  });

  it('an {error} event inside the stream → ModelApiError from the iterator and the outcome', async () => {
    inject({ kind: 'error-200', message: 'upstream overloaded' });
    const stream = client().stream(request);
    await assert.rejects(async () => {
      for await (const _event of stream) {
        // consume
      }
    }, (error: unknown) => error instanceof ModelApiError && /upstream overloaded/.test(error.message));
    await assert.rejects(stream.outcome, ModelApiError);
  });

  it('faults on the model list: latency is waited out, 401 is never retried', async () => {
    inject({ kind: 'latency', delayMs: 50 });
    assert.ok((await client().listModels()).length > 0);
    await assert.rejects(client({ apiKey: async () => 'sk-not-the-right-key-000000' }).listModels(), (error: unknown) => error instanceof ModelApiError && error.kind === 'auth');
    assert.deepEqual(waits, []);
  });
});
