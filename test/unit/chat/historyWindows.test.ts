// Two VS Code windows share the chat history folder. Stores over one folder, each with its own write
// queue (as two windows have), run hundreds of random saves, deletions and reopenings (a reopening reads
// the full index and compacts the journal) interleaved on the real file system: no deleted conversation
// may come back, none kept may be lost, in the windows' lists or after a restart. Also: a damaged file is
// named as damaged and set aside, never deleted; files over the size cap are not read.

import assert from 'node:assert/strict';
import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { StoredConversation } from '../../../src/core/chat/conversation';
import { ConversationList } from '../../../src/core/chat/conversationList';
import { ConversationStore, DamagedConversationError, MAX_CONVERSATION_BYTES } from '../../../src/core/chat/conversationStore';
import { nodeChatFiles } from '../../../src/core/chat/chatFiles';
import type { Logger } from '../../../src/core/log';
import { seededRandom } from '../../helpers/seededRandom';
import { tempFolder } from './helpers/fakes';

function conversation(id: string, updatedAt: number, title = `Title ${id}`): StoredConversation {
  return {
    id,
    title,
    createdAt: updatedAt,
    updatedAt,
    settings: { model: 'vendor/m', systemPrompt: '', temperature: 0.7, maxTokens: 100 },
    turns: [{ id: `${id}-u`, role: 'user', content: `question ${id}`, status: 'complete', createdAt: updatedAt }],
  };
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (line: string): void => void lines.push(line);
  return { lines, trace: push, debug: push, info: push, warn: push, error: push };
}

describe('chat history shared by two windows', () => {
  let folder: { path: string; cleanup: () => Promise<void> };
  beforeEach(async () => (folder = await tempFolder()));
  afterEach(() => folder.cleanup());

  const storeOver = (logger: Logger = recordingLogger()): ConversationStore => new ConversationStore(nodeChatFiles(folder.path), logger);

  for (const seed of [1, 2, 3]) {
    it(`600 random operations from two windows with compactions (seed ${seed}): zero resurrections, nothing lost`, { timeout: 300_000 }, async () => {
      const random = seededRandom(seed);
      const windows = [storeOver(), storeOver()];
      await Promise.all(windows.map((store) => store.open()));
      const live = new Set<string>();
      const deleted = new Set<string>();
      let next = 0;
      let clock = 1;
      let operations = 0;
      while (operations < 600) {
        // A batch runs concurrently: each window's queue keeps its own order, the two interleave on disk.
        const batch: Promise<unknown>[] = [];
        const touched = new Set<string>();
        const size = 1 + Math.floor(random() * 6);
        for (let k = 0; k < size; k++, operations++) {
          const w = Math.floor(random() * 2);
          const store = windows[w] as ConversationStore;
          const roll = random();
          const candidates = [...live].filter((id) => !touched.has(id));
          if (roll < 0.35 || candidates.length === 0) {
            const id = `c${next++}`;
            live.add(id);
            touched.add(id);
            batch.push(store.save(conversation(id, clock++)));
          } else if (roll < 0.55) {
            const id = candidates[Math.floor(random() * candidates.length)] as string;
            touched.add(id);
            batch.push(store.save(conversation(id, clock++, `Renamed ${id}`)));
          } else if (roll < 0.8) {
            const id = candidates[Math.floor(random() * candidates.length)] as string;
            touched.add(id);
            live.delete(id);
            deleted.add(id);
            batch.push(store.remove(id));
          } else {
            // The window reopens (a reload, or the chat view opening): the full read compacts the index.
            batch.push(
              (async () => {
                await store.flush();
                const reopened = storeOver();
                windows[w] = reopened;
                await reopened.open();
                await reopened.loadAll();
              })(),
            );
          }
        }
        await Promise.all(batch);
      }
      await Promise.all(windows.map((store) => store.flush()));

      // Each window's own full list, then a restart.
      for (const [name, store] of [['window A', storeOver()], ['window B', storeOver()], ['after a restart', storeOver()]] as const) {
        const opened = await store.open();
        const ids = new Set((await store.entries()).map((entry) => entry.id));
        const resurrected = [...deleted].filter((id) => ids.has(id) || opened.recent.some((entry) => entry.id === id));
        assert.deepEqual(resurrected, [], `${name}: deleted conversations came back`);
        const lost = [...live].filter((id) => !ids.has(id));
        assert.deepEqual(lost, [], `${name}: kept conversations were lost`);
        assert.equal(store.counts.total, live.size, `${name}: the count`);
        for (const id of deleted) assert.equal(await store.load(id), undefined, `${name}: the file of ${id} is gone`);
      }
    });
  }

  it('a window that still shows a deleted conversation cannot save it back', async () => {
    const [a, b] = [storeOver(), storeOver()];
    await a.open();
    await b.open();
    await a.save(conversation('x', 1));
    await b.remove('x'); // b's list never knew x: the deletion still stands
    await a.save(conversation('x', 2, 'edited after the deletion'));
    await a.flush();
    const fresh = storeOver();
    await fresh.open();
    assert.deepEqual((await fresh.entries()).map((entry) => entry.id), []);
    assert.equal(await fresh.load('x'), undefined);
  });

  it('a damaged conversation file is named as damaged, set aside (not deleted) and logged', async () => {
    const logger = recordingLogger();
    const store = storeOver(logger);
    await store.open();
    await store.save(conversation('bad', 1));
    await store.save(conversation('good', 2)); // the newest: the list opens on it
    await store.flush();
    const damaged = '{"id":"bad","title":"cut off';
    await writeFile(join(folder.path, 'chat', 'conversations', 'bad.json'), damaged);

    const list = new ConversationList(storeOver(logger), logger, () => conversation('new', 3));
    await list.open();
    await list.flush();
    await assert.rejects(list.switchTo('bad'), (error: unknown) => {
      assert.ok(error instanceof DamagedConversationError, String(error));
      assert.match(error.message, /damaged/);
      assert.match(error.message, /chat\/damaged\/bad\.\d+\.json/);
      assert.doesNotMatch(error.message, /no longer exists/);
      return true;
    });
    assert.equal(list.has('bad'), false, 'it leaves the list');
    const aside = await readdir(join(folder.path, 'chat', 'damaged'));
    assert.equal(aside.length, 1);
    assert.equal(await readFile(join(folder.path, 'chat', 'damaged', aside[0] as string), 'utf8'), damaged, 'kept byte for byte');
    assert.ok(logger.lines.some((line) => /conversation bad is damaged.*set aside as chat\/damaged\/bad\./.test(line)), logger.lines.join('\n'));
    const fresh = storeOver();
    await fresh.open();
    assert.deepEqual((await fresh.entries()).map((entry) => entry.id), ['good']);
  });

  it('a conversation file found damaged during the full read is set aside too', async () => {
    await mkdir(join(folder.path, 'chat', 'conversations'), { recursive: true });
    await writeFile(join(folder.path, 'chat', 'conversations', 'junk.json'), 'not json');
    const logger = recordingLogger();
    const store = storeOver(logger);
    await store.open();
    assert.deepEqual(await store.entries(), []);
    assert.deepEqual(await readdir(join(folder.path, 'chat', 'conversations')), []);
    assert.equal((await readdir(join(folder.path, 'chat', 'damaged'))).length, 1);
    assert.ok(logger.lines.some((line) => /junk is damaged/.test(line)));
  });

  it('files over the size cap are not read: a huge conversation is set aside, a huge recent file is rebuilt', async () => {
    const store = storeOver();
    await store.open();
    await store.save(conversation('small', 1));
    await store.flush();
    const huge = `{"id":"huge","pad":"${'x'.repeat(MAX_CONVERSATION_BYTES)}"}`;
    await writeFile(join(folder.path, 'chat', 'conversations', 'huge.json'), huge);
    await writeFile(join(folder.path, 'chat', 'recent.json'), `{"version":2,"pad":"${'y'.repeat(2 * 1024 * 1024)}"}`);
    const logger = recordingLogger();
    const fresh = storeOver(logger);
    const opened = await fresh.open();
    assert.deepEqual(opened.recent.map((entry) => entry.id), ['small']);
    assert.ok(logger.lines.some((line) => /recent\.json is \d+ bytes, more than/.test(line)), logger.lines.join('\n'));
    assert.ok(logger.lines.some((line) => /huge is damaged/.test(line)), logger.lines.join('\n'));
    assert.equal((await readdir(join(folder.path, 'chat', 'damaged'))).length, 1);
  });

  it('counts saved conversations only: deleting the only one leaves 0, not the empty new chat', async () => {
    const list = new ConversationList(storeOver(), recordingLogger(), () => conversation(`n${Math.random().toString(36).slice(2)}`, 5), 0);
    await list.open();
    const only = list.active;
    only.turns.push({ id: 'q', role: 'user', content: 'hi', status: 'complete', createdAt: 1 });
    list.touched(only);
    await list.save(only, 0);
    assert.equal(list.counts.total, 1);
    list.delete(only.id).commit();
    await list.flush();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(list.counts.total, 0);
    assert.equal(list.summaries().length, 1, 'the list shows the new empty chat');
  });
});
