// Deterministic model-like replies for the renderer's tests and benchmark: headings, paragraphs with
// inline markup and links, nested lists, tables, quotes, fenced code in several languages, non-ASCII.
import { seededRandom } from '../../helpers/seededRandom';
import { splitAtPositions } from '../../helpers/splitAt';

export { seededRandom };

const WORDS = [
  'tensor', 'batch', 'gradient', 'kernel', 'GPU', 'latency', 'throughput', 'checkpoint', 'deployment',
  'region', 'inventory', 'price', 'node', 'task', 'model', 'token', 'stream', 'cache', 'shard', 'optimizer',
  '显存', 'résumé', 'naïve', 'Überblick', '🚀', 'α', 'β', 'the', 'a', 'with', 'for', 'and', 'when',
];

const CODE: Record<string, string[]> = {
  python: [
    'import torch',
    'def train(model, loader, epochs: int = 3) -> None:',
    '    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)',
    '    for epoch in range(epochs):',
    '        for x, y in loader:',
    '            loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())',
    '            loss.backward(); opt.step(); opt.zero_grad()',
    '        print(f"epoch {epoch}: {loss.item():.4f}")  # 训练',
  ],
  typescript: [
    "import { request } from 'undici';",
    'export async function listTasks(baseUrl: string, signal?: AbortSignal): Promise<Task[]> {',
    "  const { body } = await request(`${baseUrl}/api/deployment/task/search`, { signal });",
    '  const envelope = (await body.json()) as Envelope<Task[]>;',
    "  if (envelope.code !== '0000') throw new Error(envelope.msg ?? 'failed');",
    '  return envelope.data ?? [];',
    '}',
  ],
  bash: ['#!/usr/bin/env bash', 'set -euo pipefail', 'nvidia-smi --query-gpu=name,memory.used --format=csv', 'for i in $(seq 1 4); do echo "node $i"; done'],
  json: ['{', '  "task_name": "llama-finetune",', '  "points": 2,', '  "resources": [{ "device": "A100", "count": 8 }]', '}'],
  yaml: ['services:', '  trainer:', '    image: pytorch/pytorch:2.4.0-cuda12.1', '    command: ["python", "train.py"]'],
  cuda: ['__global__ void add(float *a, const float *b, int n) {', '  int i = blockIdx.x * blockDim.x + threadIdx.x;', '  if (i < n) a[i] += b[i];', '}'],
  '': ['plain text block', '  with indentation', 'and <angle> & "quotes"'],
};
const LANGUAGES = Object.keys(CODE);

export interface ReplyOptions {
  /** Approximate length in characters. */
  targetChars: number;
  /** Exact number of fenced code blocks. */
  codeBlocks: number;
  seed?: number;
}

export function generateReply({ targetChars, codeBlocks, seed = 42 }: ReplyOptions): string {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const words = (count: number): string => Array.from({ length: count }, () => pick(WORDS)).join(' ');
  const sentence = (): string => {
    const parts = [words(4 + Math.floor(random() * 8))];
    const flavour = random();
    if (flavour < 0.2) parts.push(`\`${pick(WORDS)}_${Math.floor(random() * 100)}\``);
    else if (flavour < 0.35) parts.push(`**${words(2)}**`);
    else if (flavour < 0.45) parts.push(`[docs](https://docs.example.com/${pick(['gpu', 'tasks', 'keys'])})`);
    else if (flavour < 0.5) parts.push('see https://console.example.com/settings/key');
    parts.push(words(3));
    return `${parts.join(' ')}.`;
  };

  const proseBlocks: (() => string)[] = [
    () => `## ${words(3)}\n`,
    () => `${sentence()} ${sentence()}\n${sentence()}\n`,
    () => Array.from({ length: 3 + Math.floor(random() * 4) }, () => `- ${sentence()}`).join('\n') + '\n',
    () => `1. ${sentence()}\n2. ${sentence()}\n   - ${words(3)}\n   - ${words(2)}\n3. ${sentence()}\n`,
    () => {
      const rows = Array.from({ length: 3 + Math.floor(random() * 4) }, (_, i) => `| ${pick(WORDS)} | ${(random() * 10).toFixed(2)} | ${i} |`);
      return ['| device | price | count |', '| --- | ---: | :---: |', ...rows].join('\n') + '\n';
    },
    () => `> ${sentence()}\n> ${sentence()}\n`,
  ];

  const codeBlock = (): string => {
    const language = pick(LANGUAGES);
    const lines = CODE[language] ?? [];
    const repeat = 1 + Math.floor(random() * 3);
    const body = Array.from({ length: repeat }, () => lines.join('\n')).join('\n');
    return `\`\`\`${language}\n${body}\n\`\`\`\n`;
  };

  // Spread the code blocks evenly through the prose.
  const blocks: string[] = [];
  let length = 0;
  const proseBetween = Math.max(1, Math.round(targetChars / 700 / Math.max(1, codeBlocks + 1)));
  for (let code = 0; code < codeBlocks; code++) {
    for (let i = 0; i < proseBetween; i++) {
      const block = pick(proseBlocks)();
      blocks.push(block);
      length += block.length + 1;
    }
    const block = codeBlock();
    blocks.push(block);
    length += block.length + 1;
  }
  while (length < targetChars) {
    const block = pick(proseBlocks)();
    blocks.push(block);
    length += block.length + 1;
  }
  return blocks.join('\n');
}

/** Cuts `text` into `count` pieces of random size (never splitting a surrogate pair). */
export function splitIntoDeltas(text: string, count: number, seed = 7): string[] {
  const random = seededRandom(seed);
  const cuts = new Set<number>();
  const wanted = Math.min(count - 1, text.length - 1);
  let guard = 0;
  while (cuts.size < wanted && guard++ < wanted * 20) {
    let at = 1 + Math.floor(random() * (text.length - 1));
    const code = text.charCodeAt(at - 1);
    if (code >= 0xd800 && code <= 0xdbff) at++;
    if (at > 0 && at < text.length) cuts.add(at);
  }
  return splitAtPositions(text, cuts);
}

/**
 * A reply that cites many sources reference-style: paragraphs using `[n]`, `[text][n]` and `[n][]`
 * throughout, the definitions (`[n]: url "title"`) at the end, as models write footnoted answers.
 */
export function generateReferenceReply({ sources, seed = 5 }: { sources: number; seed?: number }): string {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const words = (count: number): string => Array.from({ length: count }, () => pick(WORDS)).join(' ');
  const cite = (): string => {
    const n = 1 + Math.floor(random() * sources);
    const style = random();
    return style < 0.5 ? `[${n}]` : style < 0.8 ? `[${words(2)}][${n}]` : `[${n}][]`;
  };
  const blocks: string[] = [];
  for (let i = 0; i < sources / 2; i++) {
    if (i % 6 === 0) blocks.push(`## ${words(3)}\n`);
    blocks.push(`${words(8)} ${cite()} ${words(6)} ${cite()}.\n- ${words(5)} ${cite()}\n- ${words(4)}\n`);
  }
  const definitions = Array.from({ length: sources }, (_, i) => `[${i + 1}]: https://source${i + 1}.example.com/${pick(WORDS)}/${i} "${words(2)}"`);
  return `${blocks.join('\n')}\n${definitions.join('\n')}\n`;
}
