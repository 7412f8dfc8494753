// Render CPU of a streamed chat reply, for two input shapes: a 60 KB model-like reply (lists, tables,
// 30 fenced code blocks) and an 85 KB reply citing 560 sources reference-style, each arriving as 20,000
// deltas, one every 5 ms of simulated time.
// Cases run round-robin in one process; every number is CPU time, median [min–max], and the ratio is
// against one render of the final text (the lower bound). Goal: incremental + frame batching ≤ 50×.
// Run: npm run compile-tests && node out/test/bench/render.js

import { IncrementalMarkdown } from '../../src/webview/chat/incrementalMarkdown';
import { createChatMarkdown, type Markdown } from '../../src/webview/chat/markdown';
import { generateReferenceReply, generateReply, splitIntoDeltas } from '../unit/webview/replyCorpus';
import { ENGLISH_CODE_BLOCK_STRINGS } from '../helpers/codeBlockStrings';

const DELTAS = 20_000;
const DELTA_INTERVAL_MS = 5;
const FRAME_MS = 1000 / 60;
/** The naive case renders every NAIVE_STRIDE-th prefix and multiplies by the stride. */
const NAIVE_STRIDE = 200;
const WARMUP_ROUNDS = 1;
const ROUNDS = 5;
const GOAL = 50;

interface CaseResult {
  cpuMs: number;
  renders: number;
}

function cpuMs(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function incremental(md: Markdown, deltas: readonly string[], expected: string, batchPerFrame: boolean): CaseResult {
  const start = process.cpuUsage();
  const renderer = new IncrementalMarkdown(md);
  let renders = 0;
  let nextFrame = FRAME_MS;
  deltas.forEach((delta, index) => {
    renderer.append(delta);
    const now = (index + 1) * DELTA_INTERVAL_MS;
    if (!batchPerFrame || now >= nextFrame) {
      renderer.update();
      renders++;
      while (nextFrame <= now) nextFrame += FRAME_MS;
    }
  });
  renderer.finish();
  renders++;
  const cpu = cpuMs(start);
  if (renderer.html !== expected) throw new Error('incremental render differs from md.render(full)');
  return { cpuMs: cpu, renders };
}

function fullOnce(md: Markdown, text: string): CaseResult {
  const start = process.cpuUsage();
  md.render(text);
  return { cpuMs: cpuMs(start), renders: 1 };
}

/** Full re-render on every delta would take minutes; render every NAIVE_STRIDE-th prefix and scale up. */
function naiveSampled(md: Markdown, prefixLengths: readonly number[], text: string): CaseResult {
  const start = process.cpuUsage();
  let renders = 0;
  for (let i = NAIVE_STRIDE - 1; i < prefixLengths.length; i += NAIVE_STRIDE) {
    md.render(text.slice(0, prefixLengths[i]));
    renders++;
  }
  return { cpuMs: cpuMs(start) * NAIVE_STRIDE, renders: renders * NAIVE_STRIDE };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const format = (ms: number): string => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

export async function runRenderBench(): Promise<void> {
  await benchShape('model-like reply', generateReply({ targetChars: 60_000, codeBlocks: 30 }));
  // Many reference-style links, definitions at the end: each new definition changes earlier blocks.
  await benchShape('reference-style links', generateReferenceReply({ sources: 560 }));
}

async function benchShape(shape: string, text: string): Promise<void> {
  const md = createChatMarkdown(ENGLISH_CODE_BLOCK_STRINGS);
  const deltas = splitIntoDeltas(text, DELTAS);
  const expected = md.render(text);
  const prefixLengths: number[] = [];
  let length = 0;
  for (const delta of deltas) prefixLengths.push((length += delta.length));
  const codeBlocks = (text.match(/^```/gm) ?? []).length / 2;

  const cases: Record<string, () => CaseResult> = {
    'incremental, render on every delta': () => incremental(md, deltas, expected, false),
    'incremental + per-frame batching (60 fps)': () => incremental(md, deltas, expected, true),
    [`naive full re-render on every delta (EXTRAPOLATED: every ${NAIVE_STRIDE}th delta measured, ×${NAIVE_STRIDE})`]: () =>
      naiveSampled(md, prefixLengths, text),
    'one full render of the final text (lower bound)': () => fullOnce(md, text),
  };
  const results = new Map<string, CaseResult[]>(Object.keys(cases).map((name) => [name, []]));

  for (let round = -WARMUP_ROUNDS; round < ROUNDS; round++) {
    for (const [name, run] of Object.entries(cases)) {
      // Let the event loop breathe between cases so timers and GC of the previous case settle.
      await new Promise((resolve) => setImmediate(resolve));
      const result = run();
      if (round >= 0) results.get(name)?.push(result);
    }
  }

  const fullMedian = median((results.get('one full render of the final text (lower bound)') ?? []).map((r) => r.cpuMs));
  console.log(
    `\nRender benchmark (${shape}): ${text.length.toLocaleString('en-US')} chars (${codeBlocks} code blocks) → ` +
      `${expected.length.toLocaleString('en-US')} B of HTML, ${deltas.length.toLocaleString('en-US')} deltas every ${DELTA_INTERVAL_MS} ms ` +
      `(simulated), ${ROUNDS} rounds, CPU ms median [min–max]`,
  );
  const rows = [...results].map(([name, runs]) => {
    const cpu = runs.map((r) => r.cpuMs);
    const ratio = median(cpu) / fullMedian;
    return [name, `${format(median(cpu))} [${format(Math.min(...cpu))}–${format(Math.max(...cpu))}]`, String(runs[0]?.renders ?? 0), `${ratio.toFixed(1)}×`] as const;
  });
  const header = ['case', 'CPU ms', 'renders', '× full render'] as const;
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const line = (cells: readonly string[]): string => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(line(header));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const row of rows) console.log(line(row));

  const batched = median((results.get('incremental + per-frame batching (60 fps)') ?? []).map((r) => r.cpuMs)) / fullMedian;
  console.log(`${shape}: incremental + per-frame batching: ${batched.toFixed(1)}× one full render (goal ≤ ${GOAL}×) → ${batched <= GOAL ? 'OK' : 'OVER BUDGET'}`);
  console.log('final HTML of both incremental cases checked byte-identical to md.render(full text)');
}

if (require.main === module) {
  runRenderBench().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
