import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { FakeModelClient, sessionWith, storeAt, tempFolder } from './helpers/fakes';
import { waitUntil } from '../../helpers/eventually';

describe('ChatSession (host-neutral)', () => {
  let folder: { path: string; cleanup: () => Promise<void> };
  beforeEach(async () => (folder = await tempFolder()));
  afterEach(() => folder.cleanup());

  it('streams a reply into the conversation, asks with the system prompt and history, and persists it', async () => {
    const client = new FakeModelClient();
    const session = sessionWith(storeAt(folder.path).store, client);
    await session.loaded;
    session.updateSettings({ model: 'vendor/chat-model' });
    await session.send('first question');
    client.reply = { deltas: ['second ', 'answer'] };
    await session.send('second question');
    const view = session.view();
    assert.deepEqual(view.turns.map((turn) => [turn.role, turn.content, turn.status]), [
      ['user', 'first question', 'complete'],
      ['assistant', 'Hello there', 'complete'],
      ['user', 'second question', 'complete'],
      ['assistant', 'second answer', 'complete'],
    ]);
    assert.equal(view.title, 'first question');
    assert.deepEqual(client.requests[1]?.messages.map((message) => message.role), ['system', 'user', 'assistant', 'user']);
    await session.flush();
    await session.close();

    const reopened = sessionWith(storeAt(folder.path).store, client);
    await reopened.loaded;
    assert.equal(reopened.active.id, view.id);
    assert.equal(reopened.view().turns.length, 4);
    await reopened.close();
  });

  it('keeps the partial text of a stopped reply', async () => {
    const client = new FakeModelClient();
    client.reply = { deltas: ['one ', 'two ', 'three ', 'four'], pauseMs: 20 };
    const session = sessionWith(storeAt(folder.path).store, client, { flushMs: 1 });
    await session.loaded;
    session.updateSettings({ model: 'vendor/chat-model' });
    let stopped = false;
    session.onDelta(() => {
      if (!stopped) {
        stopped = true;
        session.stop();
      }
    });
    await session.send('go');
    const reply = session.view().turns.at(-1);
    assert.equal(reply?.status, 'stopped');
    assert.equal(reply?.content, 'one ');
    await session.close();
  });

  it('shows a failure on the turn, keeping the text that came before it', async () => {
    const client = new FakeModelClient();
    client.reply = { deltas: ['partial'], failWith: new Error('connection dropped') };
    const session = sessionWith(storeAt(folder.path).store, client);
    await session.loaded;
    await session.send('go');
    const reply = session.view().turns.at(-1);
    assert.equal(reply?.status, 'incomplete');
    assert.equal(reply?.content, 'partial');
    assert.match(reply?.error?.message ?? '', /connection dropped/);
    assert.equal(reply?.model, 'vendor/chat-model', 'the first listed chat model was used');
    await session.close();
  });

  it('deletes a conversation at once from the list and brings it back with undo', async () => {
    const client = new FakeModelClient();
    const session = sessionWith(storeAt(folder.path).store, client, { undoWindowMs: 60_000 });
    await session.loaded;
    await session.send('keep me');
    const id = session.active.id;
    await session.flush();
    const pending = session.delete(id);
    assert.equal(pending.title, 'keep me');
    assert.ok(!session.summaries().some((summary) => summary.id === id));
    assert.notEqual(session.active.id, id);
    assert.equal(await pending.undo(), true);
    assert.equal(session.active.id, id);
    assert.deepEqual(session.view().turns.map((turn) => turn.content), ['keep me', 'Hello there']);
    await session.close();
  });

  it('removes the file only once the deletion is committed (or the undo window passes)', async () => {
    const { store } = storeAt(folder.path);
    const session = sessionWith(store, new FakeModelClient(), { undoWindowMs: 30 });
    await session.loaded;
    await session.send('short-lived');
    const id = session.active.id;
    await session.flush();
    const pending = session.delete(id);
    assert.ok(await store.load(id), 'still on disk during the undo window');
    // Polls (bounded) for the commit after the undo window instead of waiting a fixed time.
    await waitUntil('the delete to be committed after the undo window', async () => {
      await store.flush();
      return (await store.load(id)) === undefined;
    }, { everyMs: 10 });
    assert.equal(await store.load(id), undefined);
    assert.equal(await pending.undo(), false, 'too late to undo');
    await session.close();
  });

  it('clears a conversation and puts its turns back on undo', async () => {
    const session = sessionWith(storeAt(folder.path).store, new FakeModelClient());
    await session.loaded;
    await session.send('hello');
    const cleared = session.clear();
    assert.equal(session.view().turns.length, 0);
    assert.equal(cleared.undo(), true);
    assert.deepEqual(session.view().turns.map((turn) => turn.content), ['hello', 'Hello there']);
    assert.equal(session.view().title, 'hello');
    await session.close();
  });

  it('applies the retention setting to the oldest conversations only, never the active one', async () => {
    const { store } = storeAt(folder.path);
    const session = sessionWith(store, new FakeModelClient(), { retention: () => 3 });
    await session.loaded;
    for (let i = 0; i < 5; i++) {
      if (i > 0) session.newConversation();
      await session.send(`conversation ${i}`);
      await session.flush();
    }
    const titles = (await store.entries()).map((entry) => entry.title);
    assert.deepEqual(titles, ['conversation 4', 'conversation 3', 'conversation 2']);
    assert.equal(session.view().title, 'conversation 4');
    await session.close();
    const reopened = await storeAt(folder.path).store.open();
    assert.equal(reopened.activeId, session.view().id, 'the active conversation is remembered');
  });

  it('finds conversations by words of their title or text, newest first', async () => {
    const session = sessionWith(storeAt(folder.path).store, new FakeModelClient());
    await session.loaded;
    await session.send('How do I resize a GPU task?');
    session.newConversation();
    await session.send('Explain CUDA streams');
    session.newConversation();
    await session.send('What is a GPU kernel');
    await session.flush();
    assert.deepEqual((await session.search('gpu')).map((entry) => entry.title), ['What is a GPU kernel', 'How do I resize a GPU task?']);
    assert.deepEqual((await session.search('hello THERE cuda')).map((entry) => entry.title), ['Explain CUDA streams'], 'reply text is searched too');
    assert.deepEqual(await session.search('nothing-like-this'), []);
    await session.close();
  });

  it('opens with the newest conversations, then lists every one once the full index is read', async () => {
    const { store } = storeAt(folder.path);
    const seeding = sessionWith(store, new FakeModelClient());
    await seeding.loaded;
    for (let i = 0; i < 30; i++) {
      if (i > 0) seeding.newConversation();
      await seeding.send(`conversation ${i}`);
    }
    await seeding.close();

    const { store: fresh } = storeAt(folder.path);
    const session = sessionWith(fresh, new FakeModelClient());
    let changes = 0;
    session.onDidChangeState(() => changes++);
    await session.loaded;
    assert.equal(session.view().title, 'conversation 29', 'the active conversation is back');
    assert.equal(session.counts.total, 30);
    await fresh.loadAll();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(session.summaries().length, 30);
    assert.equal(session.summaries()[0]?.title, 'conversation 29');
    assert.ok(changes >= 2, 'a state change announced the full list');
    await session.close();
  });
});
