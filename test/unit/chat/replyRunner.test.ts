import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReplyRun, type DeltaEvent } from '../../../src/core/chat/replyRunner';
import type { ChatTurn } from '../../../src/shared/protocol';
import { silentLogger } from '../../../src/core/log';
import { FakeModelClient } from './helpers/fakes';

function run(client: FakeModelClient, flushMs: number): { run: ReplyRun; deltas: { event: DeltaEvent; at: number }[]; turn: ChatTurn } {
  const turn: ChatTurn = { id: 't1', role: 'assistant', content: '', status: 'streaming', createdAt: 0 };
  const deltas: { event: DeltaEvent; at: number }[] = [];
  const start = Date.now();
  const reply = new ReplyRun('c1', turn, [{ role: 'user', content: 'hi' }], { model: 'vendor/m', systemPrompt: '', temperature: 0, maxTokens: 10 }, {
    client: () => Promise.resolve(client),
    defaultModel: () => Promise.resolve('vendor/m'),
    toTurnError: () => ({ kind: 'unknown', message: 'failed', actions: [] }),
    logger: silentLogger,
    onDelta: (event) => deltas.push({ event, at: Date.now() - start }),
    flushMs,
  });
  return { run: reply, deltas, turn };
}

describe('ReplyRun', () => {
  it('forwards the first delta at once and coalesces the following ones', async () => {
    const client = new FakeModelClient();
    client.reply = { deltas: Array.from({ length: 40 }, (_, i) => `d${i} `) };
    const { run: reply, deltas, turn } = run(client, 10_000);
    let firstSeenSynchronously = false;
    // The fake yields its deltas back to back: with a long flush timer only the first goes out alone.
    await reply.done;
    firstSeenSynchronously = deltas[0]?.event.content === 'd0 ';
    assert.ok(firstSeenSynchronously, `first delta alone: ${JSON.stringify(deltas[0]?.event.content)}`);
    assert.equal(deltas.length, 2, 'the rest in one batch (flushed when the reply ended)');
    assert.equal(deltas.map((delta) => delta.event.content).join(''), turn.content);
    assert.equal(turn.status, 'complete');
    assert.deepEqual(turn.usage, { prompt: 3, completion: 40, total: 43 });
  });

  it('sends the model, messages and settings it was given', async () => {
    const client = new FakeModelClient();
    const { run: reply } = run(client, 5);
    await reply.done;
    assert.deepEqual(client.requests[0], { model: 'vendor/m', messages: [{ role: 'user', content: 'hi' }], max_tokens: 10, temperature: 0 });
  });

  it('announces the new turn after the request was handed to the client, before the first delta, once', async () => {
    const client = new FakeModelClient();
    client.reply = { deltas: ['a', 'b', 'c'] };
    const turn: ChatTurn = { id: 't1', role: 'assistant', content: '', status: 'streaming', createdAt: 0 };
    const log: string[] = [];
    const reply = new ReplyRun('c1', turn, [{ role: 'user', content: 'hi' }], { model: 'vendor/m', systemPrompt: '', temperature: 0, maxTokens: 10 }, {
      client: () => Promise.resolve(client),
      defaultModel: () => Promise.resolve('vendor/m'),
      toTurnError: () => ({ kind: 'unknown', message: 'failed', actions: [] }),
      logger: silentLogger,
      // What a state post would show at that moment: how many requests had left and the turn's text.
      announce: () => log.push(`announce requests=${client.requests.length} text=${JSON.stringify(turn.content)}`),
      onDelta: (event) => log.push(`delta ${event.content}`),
      flushMs: 10_000,
    });
    assert.equal(log.length, 0, 'nothing is announced synchronously on construction (the request goes first)');
    await reply.done;
    assert.equal(log[0], 'announce requests=1 text=""', 'after the request, before any text');
    assert.equal(log.filter((line) => line.startsWith('announce')).length, 1);
    assert.equal(log[1], 'delta a');
  });

  it('announces a reply that failed before any request (the webview must show the error)', async () => {
    const turn: ChatTurn = { id: 't1', role: 'assistant', content: '', status: 'streaming', createdAt: 0 };
    let announced = 0;
    const reply = new ReplyRun('c1', turn, [{ role: 'user', content: 'hi' }], { model: 'vendor/m', systemPrompt: '', temperature: 0, maxTokens: 10 }, {
      client: () => Promise.reject(new Error('no key')),
      defaultModel: () => Promise.resolve('vendor/m'),
      toTurnError: () => ({ kind: 'unknown', message: 'failed', actions: [] }),
      logger: silentLogger,
      announce: () => (announced += 1),
      onDelta: () => undefined,
    });
    await reply.done;
    assert.equal(announced, 1);
    assert.equal(turn.status, 'error');
  });

  it('sends each delta at once until the text has a letter or digit (a reply starting "## "), then coalesces', async () => {
    const client = new FakeModelClient();
    client.reply = { deltas: ['#', '# ', 'San', 'dbox ', 'reply ', 'text'] };
    const { run: reply, deltas } = run(client, 10_000);
    await reply.done;
    assert.deepEqual(deltas.map((delta) => delta.event.content), ['#', '# ', 'San', 'dbox reply text']);
  });
});
