// The JSON layer of a chat stream: content and reasoning kept apart, usage and finish captured, tolerated
// oddities (empty choices, null content, role-only chunks), malformed lines counted, error events thrown.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatStreamEvent } from '../../../src/core/inference/api';
import { ChatStreamAccumulator, completionFromJson } from '../../../src/core/inference/chatChunks';
import { ModelApiError } from '../../../src/core/inference/modelErrors';
import { ProtocolError } from '../../../src/core/errors';

const message = (data: string, type = 'message') => ({ type, data, id: undefined });
const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  message(JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'Qwen3-32B', choices: [{ index: 0, delta, finish_reason: null }], ...extra }));

function run(events: ReturnType<typeof message>[], secret?: string): { accumulator: ChatStreamAccumulator; out: ChatStreamEvent[] } {
  const accumulator = new ChatStreamAccumulator();
  accumulator.secret = secret;
  const out: ChatStreamEvent[] = [];
  for (const event of events) accumulator.apply(event, out);
  return { accumulator, out };
}

describe('ChatStreamAccumulator', () => {
  it('keeps reasoning apart from content, captures finish and usage, and stops at [DONE]', () => {
    const { accumulator, out } = run([
      chunk({ role: 'assistant', content: '' }),
      chunk({ reasoning: 'think ', content: null }),
      chunk({ reasoning_content: 'more' }),
      chunk({ content: 'Hello' }),
      chunk({ content: null }),
      chunk({}),
      message(JSON.stringify({ choices: [{ index: 0, delta: { content: ', 世界' }, finish_reason: null }] })),
      message(JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })),
      message(JSON.stringify({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 } })),
      message('[DONE]'),
      chunk({ content: 'after done is ignored' }),
    ]);
    assert.deepEqual(out, [
      { type: 'reasoning', text: 'think more' },
      { type: 'content', text: 'Hello, 世界' },
      { type: 'finish', reason: 'stop' },
      { type: 'usage', usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 } },
    ]);
    assert.deepEqual(accumulator.outcome(accumulator.done), {
      content: 'Hello, 世界',
      reasoning: 'think more',
      usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
      finishReason: 'stop',
      complete: true,
      malformedEvents: 0,
      model: 'Qwen3-32B',
    });
  });

  it('skips and counts data lines that are not JSON objects', () => {
    const { accumulator, out } = run([chunk({ content: 'a' }), message('{"broken":'), message('42'), message('not json'), chunk({ content: 'b' })]);
    assert.deepEqual(out, [{ type: 'content', text: 'ab' }]);
    assert.equal(accumulator.malformedEvents, 3);
    assert.equal(accumulator.outcome(false, 'dropped').complete, false);
    assert.equal(accumulator.outcome(false, 'dropped').interruption, 'dropped');
  });

  it('throws ModelApiError for an {error} chunk, and for an error event that is not JSON', () => {
    const { accumulator } = run([chunk({ content: 'partial' })]);
    assert.throws(
      () => accumulator.apply(message(JSON.stringify({ error: { message: 'upstream failed', type: 'upstream_error', code: 'bad_response_status_code' } })), []),
      (error: unknown) => error instanceof ModelApiError && error.status === 200 && error.code === 'bad_response_status_code' && error.kind === 'api',
    );
    assert.equal(accumulator.content, 'partial', 'text before the error is kept');
    assert.throws(() => run([message('overloaded', 'error')]), (error: unknown) => error instanceof ModelApiError && error.serverMessage === 'overloaded');
    assert.throws(
      () => run([message('{"message":"busy, try later"}', 'error')]),
      (error: unknown) => error instanceof ModelApiError && error.serverMessage === 'busy, try later',
    );
  });

  it('never repeats the key in an error message', () => {
    const key = 'sk-secret-0123456789abcdef';
    assert.throws(
      () => run([message(JSON.stringify({ error: { message: `Invalid key ${key}`, code: 'invalid_api_key' } }))], key),
      (error: unknown) => error instanceof ModelApiError && !error.message.includes(key) && error.kind === 'auth',
    );
  });

  it('computes total_tokens when a server leaves it out', () => {
    const { accumulator } = run([message(JSON.stringify({ choices: [], usage: { prompt_tokens: 2, completion_tokens: 3 } }))]);
    assert.deepEqual(accumulator.usage, { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 });
  });
});

describe('completionFromJson', () => {
  it('reads content, reasoning, usage, finish reason and the reported model', () => {
    const completion = completionFromJson(
      {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        model: 'DeepSeek-V4-Flash-0731',
        choices: [{ index: 0, message: { role: 'assistant', content: 'hi', reasoning: 'because' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      },
      200,
      undefined,
    );
    assert.deepEqual(completion, {
      content: 'hi',
      reasoning: 'because',
      finishReason: 'stop',
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      model: 'DeepSeek-V4-Flash-0731',
    });
  });

  it('treats an HTTP 200 {error} body as an error, and a body without choices as a protocol error', () => {
    assert.throws(
      () => completionFromJson({ error: { code: 400, message: 'The model does not support Chat Completions API' } }, 200, undefined),
      (error: unknown) => error instanceof ModelApiError && error.status === 200 && error.code === '400' && /does not support/.test(error.message),
    );
    assert.throws(() => completionFromJson({ id: 'x' }, 200, undefined), ProtocolError);
  });
});
