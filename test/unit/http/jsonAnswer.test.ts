// A server's JSON answer is parsed off this thread when large, and bounded before anything walks it
// (src/core/http/jsonAnswer.ts): the same result either way, refusals by shape, never a long turn.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProtocolError } from '../../../src/core/errors';
import { AnswerBytes } from '../../../src/core/http/answerBytes';
import { HEAD_BYTES, jsonBounds, keepTail, MAX_CONTAINERS, MAX_DEPTH, OFF_THREAD_BYTES, parseJsonAnswer } from '../../../src/core/http/jsonAnswer';

const bytes = (text: string): AnswerBytes => AnswerBytes.of(Buffer.from(text, 'utf8'));

describe('parseJsonAnswer', () => {
  it('parses a small answer here and a large one in the worker to the same value, with the head for excerpts', async () => {
    const small = { code: '0000', data: { logs: '训练 ok\n' } };
    assert.deepEqual(await parseJsonAnswer(bytes(JSON.stringify(small)), 'h'), { head: JSON.stringify(small), parsed: { ok: true, value: small }, bytes: Buffer.byteLength(JSON.stringify(small)) });
    const large = { code: '0000', data: { logs: '实验 step\n'.repeat(200_000), results: Array.from({ length: 1000 }, (_, i) => ({ i })) } };
    const text = JSON.stringify(large);
    assert.ok(Buffer.byteLength(text) > OFF_THREAD_BYTES);
    const answer = await parseJsonAnswer(bytes(text), 'h');
    assert.deepEqual(answer.parsed, { ok: true, value: large });
    assert.ok(answer.head.length <= HEAD_BYTES && text.startsWith(answer.head.slice(0, -1)), 'the head is the start of the text');
  });

  it('a body that is not JSON comes back as such with its head, small or large', async () => {
    assert.deepEqual((await parseJsonAnswer(bytes('<html>502</html>'), 'h')).parsed, { ok: false });
    const page = `<html>${'x'.repeat(OFF_THREAD_BYTES * 2)}</html>`;
    const answer = await parseJsonAnswer(bytes(page), 'h');
    assert.deepEqual(answer.parsed, { ok: false });
    assert.ok(answer.head.startsWith('<html>xxx'));
  });

  it('refuses more objects and arrays than any page holds, and nesting deeper than any shape, on both paths', async () => {
    const many = (count: number): string => `{"code":"0000","data":[${new Array<string>(count).fill('{}').join(',')}]}`;
    assert.equal((await parseJsonAnswer(bytes(many(MAX_CONTAINERS - 2)), 'h')).parsed.ok, true, 'at the bound');
    for (const text of [many(MAX_CONTAINERS), many(2_000_000)]) {
      await assert.rejects(parseJsonAnswer(bytes(text), 'example.test'), (e: unknown) => e instanceof ProtocolError && /example\.test holds more than 20,000 objects/.test(e.message));
    }
    const deep = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    assert.equal((await parseJsonAnswer(bytes(deep(MAX_DEPTH)), 'h')).parsed.ok, true, 'at the bound');
    for (const text of [deep(MAX_DEPTH + 1), `[${' '.repeat(OFF_THREAD_BYTES)}${deep(1_000_000)}]`]) {
      await assert.rejects(parseJsonAnswer(bytes(text), 'h'), (e: unknown) => e instanceof ProtocolError && /nested more than 64 levels/.test(e.message));
    }
  });

  it('answers many large parses at once, each its own', async () => {
    const texts = Array.from({ length: 6 }, (_, i) => JSON.stringify({ i, pad: String(i).repeat(OFF_THREAD_BYTES) }));
    const answers = await Promise.all(texts.map((text) => parseJsonAnswer(bytes(text), 'h')));
    assert.deepEqual(answers.map((answer) => (answer.parsed.ok ? (answer.parsed.value as { i: number }).i : -1)), [0, 1, 2, 3, 4, 5]);
  });

  it('jsonBounds counts objects and arrays only, without recursion', () => {
    assert.equal(jsonBounds({ a: [1, 'x', { b: null }] }, 3, 3), 'ok');
    assert.equal(jsonBounds({ a: [1, 'x', { b: null }] }, 2, 3), 'containers');
    assert.equal(jsonBounds({ a: [1, 'x', { b: null }] }, 3, 2), 'depth');
    let nested: unknown = [];
    for (let level = 0; level < 200_000; level++) nested = [nested];
    assert.equal(jsonBounds(nested, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER), 'ok');
  });

  it('keeps only the end of a long text field on both paths, and says where it starts (never the server)', async () => {
    const tail = { field: 'logs', keepChars: 1000 };
    const small = await parseJsonAnswer(bytes(JSON.stringify({ code: '0000', data: { logs: 'a\nb\n', logsFrom: 77 } })), 'h', tail);
    assert.deepEqual(small.parsed, { ok: true, value: { code: '0000', data: { logs: 'a\nb\n', logsFrom: 0 } } });
    const log = Array.from({ length: 20_000 }, (_, i) => `line ${i} 实验`).join('\n');
    const large = await parseJsonAnswer(bytes(JSON.stringify({ code: '0000', data: { logs: log, logsFrom: 'x' } })), 'h', tail);
    assert.deepEqual(large.parsed, { ok: true, value: { code: '0000', data: { logs: log.slice(-1000), logsFrom: log.length - 1000 } } });
    // Without a tail request nothing changes; a data that is not an object is left alone.
    const untouched = await parseJsonAnswer(bytes(JSON.stringify({ code: '0000', data: { logs: log } })), 'h');
    assert.deepEqual(untouched.parsed, { ok: true, value: { code: '0000', data: { logs: log } } });
    const value = { code: '0000', data: null };
    keepTail(value, 'logs', 10);
    assert.deepEqual(value, { code: '0000', data: null });
  });
});
