// Hostile spec files within the size cap: the work is bounded by counting it, never by timing it. A
// collection's size is read before its entries are visited, aliases and merge keys are counted before
// the value is built, and a refused file costs one message (no schema validation behind it).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTree } from 'jsonc-parser';
import { ENGLISH, type SpecMessages } from '../../../src/core/specs/messages';
import { checkShape, SPEC_LIMITS } from '../../../src/core/specs/sourceMap';
import { MAX_SPEC_FILE_BYTES, confinedSpecFiles } from '../../../src/core/specs/fileAccess';
import { validateSpecText } from '../../../src/core/specs/validate';

/** English messages that count every call: each diagnostic's words are one call or more. */
function countingMessages(): { messages: SpecMessages; calls: string[] } {
  const calls: string[] = [];
  const messages = new Proxy(ENGLISH, {
    get: (target, name) => (...args: unknown[]) => {
      calls.push(String(name));
      return (target[name as keyof SpecMessages] as (...values: unknown[]) => string)(...args);
    },
  });
  return { messages, calls };
}

const JSON_SHAPE = {
  children: (node: { children?: unknown[] }) => node.children as { children?: unknown[] }[] | undefined,
  isAlias: () => false,
  span: () => ({ start: 0, end: 1 }),
};

function unknownKeys(count: number): string {
  const keys: string[] = [];
  for (let index = 0; index < count; index++) keys.push(`"k${index}": 1`);
  return `{"kind": "task", ${keys.join(', ')}}`;
}

function lineOf(text: string, needle: string): number {
  return text.slice(0, text.indexOf(needle)).split('\n').length - 1;
}

describe('spec shape limits', () => {
  it('a mapping with 25,000 keys is refused after one node: its size is read before its entries', () => {
    const root = parseTree(unknownKeys(25_000))!;
    const check = checkShape(root, JSON_SHAPE, ENGLISH);
    assert.equal(check.visited, 1);
    assert.match(check.problem!.message, /more than 1000 entries/);
  });

  it('many small collections stop the walk right after the value limit', () => {
    const rows = Array.from({ length: 900 }, (_, index) => `{"a": ${index}, "b": 1, "c": 2, "d": 3}`);
    const root = parseTree(`[${rows.join(',')}]`)!;
    const check = checkShape(root, JSON_SHAPE, ENGLISH);
    assert.equal(check.visited, SPEC_LIMITS.values + 1);
    assert.match(check.problem!.message, /more values than the limit of 10000/);
  });

  it('thousands of unknown keys (JSON and YAML): one message on the mapping, no schema validation behind it', () => {
    const yamlLines = ['kind: task'];
    for (let index = 0; index < 2_000; index++) yamlLines.push(`k${index}: 1`);
    for (const [text, format] of [[unknownKeys(2_000), 'json'], [yamlLines.join('\n'), 'yaml']] as const) {
      const { messages, calls } = countingMessages();
      const result = validateSpecText(text, format, messages);
      assert.deepEqual(calls, ['tooManyEntries'], format);
      assert.equal(result.diagnostics.length, 1);
      assert.equal(result.diagnostics[0]!.start.line, 0);
      assert.equal(result.spec, undefined);
    }
  });

  it('thousands of services: refused on the "services" key, nothing else described', () => {
    const services = Array.from({ length: 2_000 }, () => '  - {name: w, image: n, ports: [1]}');
    const yaml = ['kind: task', 'name: x', 'nodes: 1', 'resource: {gpu: a, gpuCount: 1, region: r}', 'services:', ...services].join('\n');
    const json = JSON.stringify({ kind: 'task', name: 'x', nodes: 1, resource: { gpu: 'a', gpuCount: 1, region: 'r' }, services: Array.from({ length: 2_000 }, () => ({ name: 'w', image: 'n', ports: [1] })) });
    for (const [text, format, key] of [[json, 'json', '"services"'], [yaml, 'yaml', 'services']] as const) {
      const { messages, calls } = countingMessages();
      const [refusal] = validateSpecText(text, format, messages).diagnostics;
      assert.deepEqual(calls, ['tooManyEntries'], format);
      assert.equal(refusal!.start.line, lineOf(text, key), format);
      assert.equal(text.split('\n')[refusal!.start.line]!.slice(refusal!.start.character, refusal!.end.character), key, format);
    }
  });

  it('a YAML merge-key chain is refused by its alias count before any merge is resolved', () => {
    const lines = ['a0: &a0 {x0: 1}'];
    for (let index = 1; index < 900; index++) lines.push(`a${index}: &a${index}`, `  <<: *a${index - 1}`, `  x${index}: 1`);
    const { messages, calls } = countingMessages();
    const result = validateSpecText(lines.join('\n'), 'yaml', messages);
    assert.deepEqual(calls, ['tooManyAliases']);
    // The 65th alias is the one refused: the walk goes from the end of the file.
    assert.ok(result.diagnostics[0]!.start.line > 0);
  });

  it('thousands of duplicate keys: one refusal, not thousands of duplicate checks', () => {
    const lines = ['kind: task'];
    for (let index = 0; index < 2_000; index++) lines.push('name: x');
    const { messages, calls } = countingMessages();
    validateSpecText(lines.join('\n'), 'yaml', messages);
    assert.deepEqual(calls, ['tooManyEntries']);
  });

  it('a normal spec is under every limit, with the same diagnostics as before', () => {
    const env = Object.fromEntries(Array.from({ length: 200 }, (_, index) => [`V${index}`, 'x']));
    const text = JSON.stringify({ kind: 'task', name: 'ok', nodes: 1, resource: { gpu: '4090', gpuCount: 1, region: 'r' }, services: [{ name: 'web', image: 'nginx:1.27', ports: [80], env }] }, null, 2);
    assert.deepEqual(validateSpecText(text, 'json').diagnostics, []);
  });

  it('at most 100 syntax errors are kept from a broken file', () => {
    const { messages, calls } = countingMessages();
    const result = validateSpecText(`{${'}'.repeat(5_000)}`, 'json', messages);
    assert.ok(result.diagnostics.length <= 100);
    assert.ok(calls.length <= 100, `${calls.length} messages worded`);
  });
});

describe('spec files read by the agent tools', () => {
  it('a file above the cap is refused by its size without reading it', async () => {
    const reads: string[] = [];
    const files = confinedSpecFiles(['/work/folder'], { size: async () => 50 * 1024 * 1024, read: async (file) => (reads.push(file), new Uint8Array()) }, async () => undefined, true);
    await assert.rejects(files.read('big.task.json'), /larger than 512 KB/);
    assert.deepEqual(reads, []);
  });

  it('a file that grew after its size was read is still refused', async () => {
    const files = confinedSpecFiles(['/work/folder'], { size: async () => 10, read: async () => new Uint8Array(MAX_SPEC_FILE_BYTES + 1) }, async () => undefined, true);
    await assert.rejects(files.read('grew.task.json'), /larger than 512 KB/);
  });
});
