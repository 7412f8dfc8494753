import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ModelList } from '../../../src/core/chat/modelList';
import { silentLogger } from '../../../src/core/log';
import { FakeModelClient } from './helpers/fakes';

function listWith(client: FakeModelClient): { list: ModelList; changes: number[] } {
  const changes: number[] = [];
  const list = new ModelList({ client: () => Promise.resolve(client), describeError: (error) => String(error), logger: silentLogger, changed: () => changes.push(1) });
  return { list, changes };
}

describe('ModelList', () => {
  it('lists chat models once and answers later calls from memory', async () => {
    const client = new FakeModelClient();
    const { list } = listWith(client);
    assert.deepEqual(await list.ensure(), ['vendor/chat-model']);
    assert.deepEqual(await list.ensure(), ['vendor/chat-model']);
    assert.equal(client.listCalls, 1);
    assert.equal(list.current.loading, false);
  });

  it('Refresh aborts a stuck listing and answers with the new one', async () => {
    const client = new FakeModelClient();
    client.hangListing = true;
    const { list } = listWith(client);
    const stuck = list.ensure();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(list.current.loading, true);
    client.hangListing = false;
    client.models = [{ id: 'vendor/new-model', chat: true }];
    const refreshed = await list.refresh();
    assert.deepEqual(refreshed, ['vendor/new-model']);
    assert.deepEqual(await stuck, ['vendor/new-model'], 'the superseded caller gets the newer answer');
    assert.deepEqual(list.current, { models: ['vendor/new-model'], loading: false, error: undefined });
  });

  it('a reset drops the previous list at once', async () => {
    const client = new FakeModelClient();
    const { list } = listWith(client);
    await list.ensure();
    client.models = [];
    const resetting = list.reset();
    assert.deepEqual(list.current.models, []);
    assert.deepEqual(await resetting, []);
    assert.match(list.current.error ?? '', /No chat models/);
  });
});
