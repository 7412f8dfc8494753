import assert from 'node:assert/strict';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { StoredConversation } from '../../../src/core/chat/conversation';
import { LEGACY_HISTORY, RECENT_ENTRIES } from '../../../src/core/chat/conversationStore';
import { storeAt, tempFolder } from './helpers/fakes';

function conversation(id: string, updatedAt: number, text = `question ${id}`): StoredConversation {
  return {
    id,
    title: `Title ${id}`,
    createdAt: updatedAt,
    updatedAt,
    settings: { model: 'vendor/m', systemPrompt: '', temperature: 0.7, maxTokens: 100 },
    turns: [
      { id: `${id}-u`, role: 'user', content: text, status: 'complete', createdAt: updatedAt },
      { id: `${id}-a`, role: 'assistant', content: `answer ${id}`, status: 'complete', createdAt: updatedAt },
    ],
  };
}

describe('ConversationStore', () => {
  let folder: { path: string; cleanup: () => Promise<void> };
  beforeEach(async () => (folder = await tempFolder()));
  afterEach(() => folder.cleanup());

  it('keeps each conversation in its own file and reads it back after a restart', async () => {
    const { store } = storeAt(folder.path);
    await store.open();
    await store.save(conversation('a', 1));
    await store.save(conversation('b', 2));
    await store.setActive('a');
    await store.flush();

    const { store: reopened } = storeAt(folder.path);
    const opened = await reopened.open();
    assert.equal(opened.activeId, 'a');
    assert.deepEqual(opened.recent.map((entry) => entry.id), ['b', 'a']);
    assert.equal(opened.total, 2);
    assert.ok(opened.bytes > 0);
    assert.deepEqual((await reopened.load('a'))?.turns.map((turn) => turn.content), ['question a', 'answer a']);
  });

  it('writes only the changed conversation and small files, never the whole history', async () => {
    const { store, files } = storeAt(folder.path);
    await store.open();
    for (let i = 0; i < 30; i++) await store.save(conversation(`c${i}`, i));
    files.writes.length = 0;
    await store.save(conversation('c7', 100, 'edited'));
    assert.deepEqual(files.writes.sort(), ['chat/conversations/c7.json', 'chat/recent.json']);
    assert.deepEqual(files.appends.slice(-1), ['chat/index.log']);
  });

  it('opens from the recent file alone: the newest entries and the totals', async () => {
    const { store } = storeAt(folder.path);
    await store.open();
    for (let i = 0; i < RECENT_ENTRIES + 20; i++) await store.save(conversation(`c${i}`, i));
    const { store: reopened, files } = storeAt(folder.path);
    const opened = await reopened.open();
    assert.equal(opened.recent.length, RECENT_ENTRIES);
    assert.equal(opened.recent[0]?.id, `c${RECENT_ENTRIES + 19}`);
    assert.equal(opened.total, RECENT_ENTRIES + 20);
    assert.equal(files.writes.length, 0, 'opening writes nothing');
    assert.equal((await reopened.entries()).length, RECENT_ENTRIES + 20);
  });

  it('migrates the single-file history of earlier versions without losing a conversation, keeping a backup', async () => {
    const legacy = {
      version: 1,
      activeId: 'old-2',
      conversations: [
        conversation('old-1', 10),
        { ...conversation('old-2', 20), turns: [{ id: 't', role: 'assistant', content: 'partial', status: 'streaming', createdAt: 20 }] },
        { ...conversation('weird id/..', 30) },
        { not: 'a conversation' },
      ],
    };
    await writeFile(join(folder.path, LEGACY_HISTORY), JSON.stringify(legacy));
    const { store } = storeAt(folder.path);
    const opened = await store.open();
    assert.equal(opened.total, 3, 'every readable conversation, the one with an unsafe id under a new id');
    assert.equal(opened.activeId, 'old-2');
    assert.equal((await store.load('old-2'))?.turns[0]?.status, 'incomplete', 'an interrupted reply is settled');
    assert.ok(opened.recent.some((entry) => entry.title === 'Title weird id/..'));
    const backup = await readFile(join(folder.path, 'chat-history.migrated.json'), 'utf8');
    assert.equal(JSON.parse(backup).conversations.length, 4, 'the old file is kept whole');
    await assert.rejects(readFile(join(folder.path, LEGACY_HISTORY)), /ENOENT/);
  });

  it('lists again a conversation file the index lost, and skips a damaged one without losing the others', async () => {
    const { store } = storeAt(folder.path);
    await store.open();
    await store.save(conversation('kept', 1));
    await store.flush();
    await mkdir(join(folder.path, 'chat', 'conversations'), { recursive: true });
    await writeFile(join(folder.path, 'chat', 'conversations', 'orphan.json'), JSON.stringify(conversation('orphan', 5)));
    await writeFile(join(folder.path, 'chat', 'conversations', 'broken.json'), '{"id": "broken", ');
    const { store: reopened } = storeAt(folder.path);
    await reopened.open();
    const ids = (await reopened.entries()).map((entry) => entry.id);
    assert.deepEqual(ids, ['orphan', 'kept']);
  });

  it('removes a conversation for good and keeps the counts right', async () => {
    const { store } = storeAt(folder.path);
    await store.open();
    await store.save(conversation('a', 1));
    await store.save(conversation('b', 2));
    const before = store.counts;
    await store.remove('a');
    assert.equal(store.counts.total, before.total - 1);
    assert.ok(store.counts.bytes < before.bytes);
    const { store: reopened } = storeAt(folder.path);
    const opened = await reopened.open();
    assert.deepEqual(opened.recent.map((entry) => entry.id), ['b']);
    assert.equal(await reopened.load('a'), undefined);
  });

  it('refuses ids that are not plain file names', async () => {
    const { store } = storeAt(folder.path);
    await store.open();
    assert.equal(await store.load('../../etc/passwd'), undefined);
  });
});
