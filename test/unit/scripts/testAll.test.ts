// THE test command's helpers (scripts/test-all.mjs): the VS Code runs in lanes side by side with their
// output tagged line by line, the browser phases never at the same time, and node:test's summary read back.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { importScript } from './importScript';

interface TestAll {
  taggedWriter(tag: string, out: (text: string) => void): { write(text: string): void; flush(): void };
  laneLayout(versions: string[]): { inHost: { version: string; order: string[] }[]; browser: { version: string; order: string[]; chatLatency: boolean }[] };
  benchmarkedHere(index: number, count: number): boolean;
  parseNodeTestSummary(output: string): { passed: number; failed: number; skipped: number; failures: string[] } | undefined;
  nodeTestConcurrency(env: Record<string, string | undefined>, cores: number, options?: { beside?: boolean }): number;
  unitBesideVscode(env: Record<string, string | undefined>, quick: boolean): boolean;
}

describe('scripts/test-all.mjs', () => {
  let testAll: TestAll;
  before(async () => {
    testAll = await importScript<TestAll>('scripts/test-all.mjs');
  });

  it('tags whole lines only, however the output is chunked, and flushes a last line without its end', () => {
    let written = '';
    const writer = testAll.taggedWriter('[1.104]', (text) => (written += text));
    writer.write('[run] VS Code 1.104: e2e …\n  ✔ che');
    writer.write('ck one (2.0 s)\n');
    writer.write('\nlast');
    assert.equal(written, '[1.104] [run] VS Code 1.104: e2e …\n[1.104]   ✔ check one (2.0 s)\n[1.104] \n');
    writer.flush();
    assert.equal(written.split('\n').at(-2), '[1.104] last');
    writer.flush();
    assert.ok(written.endsWith('[1.104] last\n'), 'a second flush writes nothing');
  });

  it('runs every phase of every version once: the in-host suites in a lane per version, the browser checks of all in one more lane', () => {
    const layout = testAll.laneLayout(['1.139', '1.104']);
    assert.deepEqual(layout.inHost, [
      { version: '1.139', order: ['integration', 'integration-zh-cn'] },
      { version: '1.104', order: ['integration', 'integration-zh-cn'] },
    ]);
    assert.deepEqual(layout.browser.map(({ version, order }) => [version, order]), [['1.139', ['e2e']], ['1.104', ['e2e']]], 'one lane: never two browsers at once');
    assert.deepEqual(layout.browser.map((lane) => lane.chatLatency), [false, true], 'the chat latency benchmark once, on the last version');
    const phases = [...layout.inHost, ...layout.browser].flatMap(({ version, order }) => order.map((layer) => `${version} ${layer}`));
    assert.equal(new Set(phases).size, 6, 'each of the 3 phases of each version exactly once');
  });

  it('runs the chat latency benchmark once per run, on the last version (not on the first, the longest)', () => {
    assert.deepEqual([0, 1].map((index) => testAll.benchmarkedHere(index, 2)), [false, true]);
    assert.equal(testAll.benchmarkedHere(0, 1), true, 'a single version still measures');
  });

  it('reads the counts and the failing titles from the spec reporter', () => {
    const output = ['✔ a (1ms)', '✖ failing tests:', '', '✖ b breaks (12.5ms)', 'ℹ tests 3', 'ℹ pass 1', 'ℹ fail 1', 'ℹ cancelled 1', 'ℹ skipped 2', 'ℹ todo 0'].join('\n');
    assert.deepEqual(testAll.parseNodeTestSummary(output), { passed: 1, failed: 2, skipped: 2, failures: ['b breaks'] });
    assert.equal(testAll.parseNodeTestSummary('no summary'), undefined);
  });

  it('runs two node:test files per core (node:test alone runs one at a time on 2 cores); the variable overrides it', () => {
    assert.equal(testAll.nodeTestConcurrency({}, 2), 4);
    assert.equal(testAll.nodeTestConcurrency({}, 1), 2);
    assert.equal(testAll.nodeTestConcurrency({ COMPUTE_TOOLKIT_TEST_CONCURRENCY: '1' }, 2), 1);
    assert.equal(testAll.nodeTestConcurrency({ COMPUTE_TOOLKIT_TEST_CONCURRENCY: 'lots' }, 2), 4);
  });

  it('runs unit + contract beside the VS Code runs, one file per core then; alone first on request or with --quick', () => {
    assert.equal(testAll.nodeTestConcurrency({}, 2, { beside: true }), 2);
    assert.equal(testAll.nodeTestConcurrency({ COMPUTE_TOOLKIT_TEST_CONCURRENCY: '3' }, 2, { beside: true }), 3);
    assert.equal(testAll.unitBesideVscode({}, false), true);
    assert.equal(testAll.unitBesideVscode({ COMPUTE_TOOLKIT_UNIT_FIRST: '1' }, false), false);
    assert.equal(testAll.unitBesideVscode({}, true), false, '--quick has no VS Code runs to go beside');
  });
});
