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
});
