// The chat area's files import each other without a circle (issue 17: chatPanel, commands and selection
// used to): every relative import between src/vscode/chat files, type-only ones included, is followed.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

const repoRoot = path.resolve(__dirname, '../../../..');
const CHAT = path.join(repoRoot, 'src/vscode/chat');

/** The chat files a file imports (relative imports and re-exports that resolve inside the folder). */
function importsOf(file: string, source: string): string[] {
  const found: string[] = [];
  const pattern = /(?:^|\n)\s*(?:import|export)\b[^;'"]*?from\s+['"](\.[^'"]+)['"]/g;
  for (const match of source.matchAll(pattern)) {
    const target = path.resolve(path.dirname(file), match[1] ?? '');
    for (const candidate of [`${target}.ts`, path.join(target, 'index.ts')]) {
      if (candidate.startsWith(`${CHAT}${path.sep}`) && fs.existsSync(candidate)) found.push(candidate);
    }
  }
  return found;
}

/** A cycle in the graph as a list of files, or undefined. */
export function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'open') return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}

describe('chat area imports', () => {
  it('the cycle finder finds a circle and accepts a tree', () => {
    assert.deepEqual(findCycle(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]])), ['a', 'b', 'c', 'a']);
    assert.equal(findCycle(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]])), undefined);
  });

  it('has no import circle between the chat files', () => {
    const files = fs.readdirSync(CHAT).filter((name) => name.endsWith('.ts')).map((name) => path.join(CHAT, name));
    assert.ok(files.length >= 10, `only ${files.length} chat files found`);
    const graph = new Map(files.map((file) => [file, importsOf(file, fs.readFileSync(file, 'utf8'))]));
    const edges = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
    assert.ok(edges >= 10, `only ${edges} imports between chat files were found: the parser misses them`);
    const cycle = findCycle(graph);
    assert.equal(cycle, undefined, `import circle: ${cycle?.map((file) => path.relative(repoRoot, file)).join(' → ')}`);
  });
});
