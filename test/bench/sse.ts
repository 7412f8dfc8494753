// SSE → text, side by side in one process (docs/budgets.md): our decoder + chat layer, the hand-written
// indexOf splitter (the floor), eventsource-parser 3.x, and the openai SDK's Stream.fromSSEResponse.
// Same in-memory corpus for all: 20,000 chat chunks cut into random pieces of 1..1500 bytes (seeded).
// Run: node out/test/bench/sse.js   (or through the bench runner, which calls runSseBench()).
import { seededRandom } from '../helpers/seededRandom';

import { createParser } from 'eventsource-parser';
import { Stream } from 'openai/streaming';
import type { ChatStreamEvent } from '../../src/core/inference/api';
import { ChatStreamAccumulator } from '../../src/core/inference/chatChunks';
import { SseDecoder } from '../../src/core/inference/sseDecoder';

const EVENTS = 20_000;
const ROUNDS = 15;
const WARMUP_ROUNDS = 2;
const SEED = 0x5eed_2026;
const CONTENT_ALPHABET = ['a', 'b', 'c', 'd', 'e', ' ', 'x', 'y', 'z', '中', '文', 'é', '🚀', '\n', '"', '\\'];


interface Corpus {
  pieces: Uint8Array[];
  bytes: number;
  expected: string;
}

function buildCorpus(): Corpus {
  const random = seededRandom(SEED);
  let text = '';
  let expected = '';
  for (let index = 0; index < EVENTS; index++) {
    let content = '';
    const length = 3 + Math.floor(random() * 4);
    for (let char = 0; char < length; char++) content += CONTENT_ALPHABET[Math.floor(random() * CONTENT_ALPHABET.length)] ?? 'a';
    expected += content;
    text += `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] })}\n\n`;
  }
  text += 'data: [DONE]\n\n';
  const all = Buffer.from(text, 'utf8');
  const pieces: Uint8Array[] = [];
  for (let start = 0; start < all.length; ) {
    const size = 1 + Math.floor(random() * 1500);
    pieces.push(all.subarray(start, start + size));
    start += size;
  }
  return { pieces, bytes: all.length, expected };
}

type Case = (corpus: Corpus) => Promise<string> | string;

function contentOf(data: string): string {
  const chunk = JSON.parse(data) as { choices: { delta: { content?: string } }[] };
  return chunk.choices[0]?.delta.content ?? '';
}

/** The floor (docs/budgets.md): a hand-written indexOf splitter + JSON.parse + concat, nothing else. */
const handSplitter: Case = ({ pieces }) => {
  const utf8 = new TextDecoder();
  let text = '';
  let buffer = '';
  let data = '';
  const onData = (value: string): void => {
    if (value !== '[DONE]') text += contentOf(value);
  };
  for (const piece of pieces) {
    buffer += utf8.decode(piece, { stream: true });
    let position = 0;
    let newline: number;
    while ((newline = buffer.indexOf('\n', position)) !== -1) {
      let end = newline;
      if (end > position && buffer.charCodeAt(end - 1) === 13) end--;
      if (end === position) {
        if (data) {
          onData(data);
          data = '';
        }
      } else if (buffer.startsWith('data:', position)) {
        const value = buffer.slice(buffer.charCodeAt(position + 5) === 32 ? position + 6 : position + 5, end);
        data = data ? `${data}\n${value}` : value;
      }
      position = newline + 1;
    }
    buffer = position === buffer.length ? '' : buffer.slice(position);
  }
  return text;
};

/** Ours: SseDecoder (bytes → lines → events) + ChatStreamAccumulator (events → chat events), as the client runs them. */
const ours: Case = ({ pieces }) => {
  const decoder = new SseDecoder();
  const accumulator = new ChatStreamAccumulator();
  let text = '';
  for (const piece of pieces) {
    const out: ChatStreamEvent[] = [];
    for (const event of decoder.decode(piece)) accumulator.apply(event, out);
    for (const event of out) if (event.type === 'content') text += event.text;
  }
  for (const event of decoder.end()) accumulator.apply(event, []);
  return text;
};

const eventsourceParser: Case = ({ pieces }) => {
  const utf8 = new TextDecoder();
  let text = '';
  const parser = createParser({
    onEvent: (event) => {
      if (event.data !== '[DONE]') text += contentOf(event.data);
    },
  });
  for (const piece of pieces) parser.feed(utf8.decode(piece, { stream: true }));
  return text;
};

const openaiStream: Case = async ({ pieces }) => {
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = pieces[index++];
      if (piece === undefined) controller.close();
      else controller.enqueue(piece);
    },
  });
  const response = new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  const stream = Stream.fromSSEResponse<{ choices: { delta: { content?: string } }[] }>(response, new AbortController());
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
  return text;
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export async function runSseBench(): Promise<void> {
  const corpus = buildCorpus();
  const cases: Record<string, Case> = {
    'hand indexOf splitter (floor)': handSplitter,
    'ours: SseDecoder + chat layer': ours,
    'eventsource-parser 3.x createParser': eventsourceParser,
    'openai 6 Stream.fromSSEResponse': openaiStream,
  };
  const timings: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  for (let round = -WARMUP_ROUNDS; round < ROUNDS; round++) {
    for (const [name, run] of Object.entries(cases)) {
      const started = process.hrtime.bigint();
      const text = await run(corpus);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (text !== corpus.expected) throw new Error(`${name} decoded the wrong text (${text.length} vs ${corpus.expected.length} chars)`);
      if (round >= 0) timings[name]?.push(ms);
    }
  }
  const floor = median(timings['hand indexOf splitter (floor)'] ?? []);
  console.log(`SSE → text: ${EVENTS} events, ${corpus.bytes} B in ${corpus.pieces.length} pieces; median [min–max] of ${ROUNDS} rounds`);
  const floorMin = Math.min(...(timings['hand indexOf splitter (floor)'] ?? []));
  // Medians are the headline; the ratio of minimums is shown too because a busy machine inflates medians unevenly.
  console.log('case'.padEnd(40), 'ms'.padStart(22), 'MB/s'.padStart(7), '× floor'.padStart(8), '× (min)'.padStart(8));
  for (const [name, values] of Object.entries(timings)) {
    const mid = median(values);
    const min = Math.min(...values);
    const range = `${mid.toFixed(1)} [${min.toFixed(1)}–${Math.max(...values).toFixed(1)}]`;
    console.log(
      name.padEnd(40),
      range.padStart(22),
      (corpus.bytes / 1e6 / (mid / 1e3)).toFixed(0).padStart(7),
      (mid / floor).toFixed(2).padStart(8),
      (min / floorMin).toFixed(2).padStart(8),
    );
  }
  const ratio = median(timings['ours: SseDecoder + chat layer'] ?? []) / floor;
  console.log(`goal: ours ≤ 1.20× floor → ${ratio.toFixed(2)}× ${ratio <= 1.2 ? '(met)' : '(NOT met)'}`);
  await runLongLineShape();
}

/** One event whose `data:` line is `chars` long, cut into 64-byte pieces (a server that sends a whole reply at once). */
function longLineCorpus(chars: number): Corpus {
  const content = 'x'.repeat(chars);
  const all = Buffer.from(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\ndata: [DONE]\n\n`, 'utf8');
  const pieces: Uint8Array[] = [];
  for (let start = 0; start < all.length; start += 64) pieces.push(all.subarray(start, start + 64));
  return { pieces, bytes: all.length, expected: content };
}

/** The long-line shape: ours against eventsource-parser, and ours at 512 KB against 4 MB (linear ≈ 8×). */
async function runLongLineShape(): Promise<void> {
  const rounds = 5;
  const timeOf = async (run: Case, corpus: Corpus): Promise<number> => {
    const values: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const started = process.hrtime.bigint();
      const text = await run(corpus);
      values.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (text !== corpus.expected) throw new Error(`long line decoded wrongly (${text.length} vs ${corpus.expected.length} chars)`);
    }
    return median(values);
  };
  const small = longLineCorpus(512 * 1024);
  const large = longLineCorpus(4 * 1024 * 1024);
  const oursSmall = await timeOf(ours, small);
  const oursLarge = await timeOf(ours, large);
  const parserLarge = await timeOf(eventsourceParser, large);
  console.log(`SSE long line: one 4 MB data line in ${large.pieces.length} pieces of 64 B; median of ${rounds}`);
  console.log(`  ours ${oursLarge.toFixed(1)} ms, eventsource-parser ${parserLarge.toFixed(1)} ms → ${(oursLarge / parserLarge).toFixed(2)}×`);
  console.log(`  ours 4 MB / 512 KB = ${(oursLarge / oursSmall).toFixed(1)} (linear ≈ 8, quadratic ≈ 64)`);
}

if (require.main === module) {
  runSseBench().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
