// A conversation whose model is one of the routes' (a user's deployment): the request goes to the route's
// client with the route's model id, never the profile's client; the reply gets the route's cost; a route
// that cannot answer fails the turn with its reason; an id the routes do not know goes to the profile.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ModelRoutes } from '../../../src/core/chat/modelRoutes';
import { ReplyRun } from '../../../src/core/chat/replyRunner';
import { silentLogger } from '../../../src/core/log';
import type { ChatTurn } from '../../../src/shared/protocol';
import { FakeModelClient } from './helpers/fakes';

function runWith(model: string, profile: FakeModelClient, routes: ModelRoutes): { done: Promise<void>; turn: ChatTurn } {
  const turn: ChatTurn = { id: 't', role: 'assistant', content: '', status: 'streaming', createdAt: 0 };
  const run = new ReplyRun('c', turn, [{ role: 'user', content: 'hi' }], { model, systemPrompt: '', temperature: 0, maxTokens: 10 }, {
    client: () => Promise.resolve(profile),
    routes,
    defaultModel: () => Promise.resolve('vendor/m'),
    toTurnError: (error) => ({ kind: 'unknown', message: error instanceof Error ? error.message : String(error), actions: [] }),
    logger: silentLogger,
    onDelta: () => undefined,
    flushMs: 1,
  });
  return { done: run.done, turn };
}

describe('chat model routes', () => {
  it('routes a deployment model to its own client and records the cost with the tokens', async () => {
    const profile = new FakeModelClient();
    const deployment = new FakeModelClient();
    deployment.reply = { deltas: ['a', 'b'] };
    const events: string[] = [];
    const routes: ModelRoutes = {
      options: () => [],
      route: async (id) =>
        id === 'deployment:7/Qwen/Qwen3-8B'
          ? {
              client: deployment,
              model: 'Qwen/Qwen3-8B',
              started: () => events.push('started'),
              finished: (ms, usage) => {
                events.push(`finished ${usage?.completion_tokens}`);
                return { yuan: 0.01, seconds: ms / 1000, yuanPerHour: 1.68, tokens: usage?.completion_tokens ?? 0, deployment: 'd' };
              },
            }
          : undefined,
    };
    const { done, turn } = runWith('deployment:7/Qwen/Qwen3-8B', profile, routes);
    await done;
    assert.equal(profile.requests.length, 0, 'the profile client is not asked');
    assert.equal(deployment.requests[0]?.model, 'Qwen/Qwen3-8B');
    assert.equal(turn.status, 'complete');
    assert.deepEqual(events, ['started', 'finished 2']);
    assert.equal(turn.cost?.tokens, 2);
    assert.equal(turn.cost?.deployment, 'd');

    const hosted = runWith('vendor/m', profile, routes);
    await hosted.done;
    assert.equal(profile.requests.length, 1, 'an id the routes do not know goes to the profile');
    assert.equal(hosted.turn.cost, undefined);
  });

  it('a route that cannot answer fails the turn with its reason, without any request', async () => {
    const profile = new FakeModelClient();
    const routes: ModelRoutes = { options: () => [], route: async () => { throw new Error('The deployment "d" cannot answer: it is paused.'); } };
    const { done, turn } = runWith('deployment:7/x', profile, routes);
    await done;
    assert.equal(turn.status, 'error');
    assert.match(turn.error?.message ?? '', /it is paused/);
    assert.equal(profile.requests.length, 0);
  });
});
