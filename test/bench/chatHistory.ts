// Chat history at scale: opening the conversation list and saving one new turn with 2,000 stored
// conversations, each as a ratio to the same with 10 (goal ≤ 2×: the cost must not grow with the
// history), and a 500-turn conversation opened and rendered, as a ratio to one markdown render of its
// whole text (goal ≤ 10×). Wall-clock medians on a temp folder (real files, the storage the extension uses).
// Run: npm run compile-tests && node out/test/bench/chatHistory.js

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ConversationList } from '../../src/core/chat/conversationList';
import type { StoredConversation } from '../../src/core/chat/conversation';
import { nodeChatFiles } from '../../src/core/chat/chatFiles';
import { ConversationStore } from '../../src/core/chat/conversationStore';
import { silentLogger } from '../../src/core/log';
import { createChatMarkdown } from '../../src/webview/chat/markdown';
import { generateReply } from '../unit/webview/replyCorpus';
import { ENGLISH_CODE_BLOCK_STRINGS } from '../helpers/codeBlockStrings';

const ROUNDS = 31;

function conversation(index: number, turns: number, replyChars: number): StoredConversation {
  const now = 1_700_000_000_000 + index * 1000;
  const reply = generateReply({ targetChars: replyChars, codeBlocks: 1, seed: index + 1 });
  return {
    id: `bench-${index}`,
    title: `Conversation ${index} about GPU tasks`,
    createdAt: now,
    updatedAt: now,
    settings: { model: 'vendor/model', systemPrompt: 'Be brief.', temperature: 0.7, maxTokens: 2048 },
    turns: Array.from({ length: turns }, (_, turn) => ({
      id: `t${index}-${turn}`,
      role: turn % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: turn % 2 === 0 ? `Question ${turn} of conversation ${index}: how do I resize a task?` : reply,
      status: 'complete' as const,
      createdAt: now + turn,
    })),
  };
}

async function seeded(count: number): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'chat-bench-'));
  const store = new ConversationStore(nodeChatFiles(path), silentLogger);
  await store.open();
  for (let i = 0; i < count; i++) await store.save(conversation(i, 6, 1500));
  await store.setActive(`bench-${count - 1}`);
  await store.flush();
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** From nothing in memory to the list's first page and the active conversation (what the panel shows). */
async function openList(path: string): Promise<number> {
  const start = performance.now();
  const store = new ConversationStore(nodeChatFiles(path), silentLogger);
  let created = 0;
  const list = new ConversationList(store, silentLogger, () => conversation(1_000_000 + created++, 0, 0));
  await list.open();
  const summaries = list.summaries();
  if (summaries.length === 0 || list.active.turns.length === 0) throw new Error('the list did not open');
  const elapsed = performance.now() - start;
  await store.loadAll(); // let the background read finish before the next round
  return elapsed;
}

/** One new user turn and its reply appended to the active conversation, written to disk. */
async function saveTurn(list: ConversationList, store: ConversationStore, round: number): Promise<number> {
  const active = list.active;
  active.turns.push(
    { id: `new-${round}-u`, role: 'user', content: `Another question ${round}`, status: 'complete', createdAt: Date.now() },
    { id: `new-${round}-a`, role: 'assistant', content: `Another answer ${round}`, status: 'complete', createdAt: Date.now() },
  );
  active.updatedAt = Date.now();
  list.touched(active);
  const start = performance.now();
  await list.save(active, 0);
  await store.flush();
  return performance.now() - start;
}

export async function runChatHistoryBench(): Promise<void> {
  const sizes = [10, 2000] as const;
  const folders = await Promise.all(sizes.map((count) => seeded(count)));
  const opens: number[][] = sizes.map(() => []);
  const saves: number[][] = sizes.map(() => []);
  try {
    // Round-robin between the sizes, so machine noise falls on both alike.
    for (let round = 0; round < ROUNDS + 2; round++) {
      for (const [index, folder] of folders.entries()) {
        const elapsed = await openList(folder.path);
        if (round >= 2) opens[index]?.push(elapsed);
      }
    }
    const opened = await Promise.all(
      folders.map(async (folder) => {
        const store = new ConversationStore(nodeChatFiles(folder.path), silentLogger);
        const list = new ConversationList(store, silentLogger, () => conversation(2_000_000, 0, 0));
        await list.open();
        await store.loadAll();
        return { store, list };
      }),
    );
    for (let round = 0; round < ROUNDS + 2; round++) {
      for (const [index, { list, store }] of opened.entries()) {
        const elapsed = await saveTurn(list, store, round);
        if (round >= 2) saves[index]?.push(elapsed);
      }
    }
  } finally {
    await Promise.all(folders.map((folder) => folder.cleanup()));
  }
  console.log(`\nChat history (wall-clock ms, median of ${ROUNDS}, sizes measured round-robin; one file per conversation, ~10 KB each)`);
  console.log('| case | 10 conversations | 2,000 conversations | ratio (goal ≤ 2×) |');
  console.log('| --- | --- | --- | --- |');
  for (const [name, samples] of [['open the list (first page + active conversation)', opens], ['save one new turn', saves]] as const) {
    const small = median(samples[0] ?? []);
    const large = median(samples[1] ?? []);
    const ratio = large / small;
    console.log(`| ${name} | ${small.toFixed(2)} | ${large.toFixed(2)} | ${ratio.toFixed(2)}× ${ratio <= 2 ? 'OK' : 'OVER'} |`);
  }

  // A 500-turn conversation: read from disk and every turn rendered, vs one render of all its text.
  const long = conversation(7, 500, 600);
  const folder = await mkdtemp(join(tmpdir(), 'chat-bench-long-'));
  try {
    const store = new ConversationStore(nodeChatFiles(folder), silentLogger);
    await store.open();
    await store.save(long);
    await store.flush();
    const md = createChatMarkdown(ENGLISH_CODE_BLOCK_STRINGS);
    const whole = long.turns.map((turn) => turn.content).join('\n\n');
    const opens: number[] = [];
    const fulls: number[] = [];
    for (let round = 0; round < ROUNDS + 2; round++) {
      let start = performance.now();
      const loaded = await new ConversationStore(nodeChatFiles(folder), silentLogger).load(long.id);
      let html = 0;
      for (const turn of loaded?.turns ?? []) html += md.render(turn.content).length;
      const open = performance.now() - start;
      start = performance.now();
      md.render(whole);
      const full = performance.now() - start;
      if (html === 0) throw new Error('nothing rendered');
      if (round >= 2) {
        opens.push(open);
        fulls.push(full);
      }
    }
    const ratio = median(opens) / median(fulls);
    console.log(
      `500-turn conversation (${(whole.length / 1024).toFixed(0)} KB of text): open + render every turn ${median(opens).toFixed(1)} ms, ` +
        `one full render ${median(fulls).toFixed(1)} ms → ${ratio.toFixed(2)}× (goal ≤ 10×) ${ratio <= 10 ? 'OK' : 'OVER'}`,
    );
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

if (require.main === module) {
  runChatHistoryBench().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
