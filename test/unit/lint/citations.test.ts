// Comments cite files under docs/ (or nothing), never documents outside the repository: no "spec §…",
// "facts §…", "design §…", or the names of the team's reference files.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

const repoRoot = path.resolve(__dirname, '../../../..');
const SECTION = '\u00a7';
const OUTSIDE = new RegExp(
  [`(spec|facts|design|baselines)\\s*${SECTION}`, 'platform-facts', 'perf-baselines', 'design\\.md', 'spec \\d+\\.\\d+'].join('|'),
  'i',
);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(relative);
    return /\.(ts|mjs|js)$/.test(entry.name) ? [relative] : [];
  });
}

describe('citations', () => {
  it('no source file cites a document outside the repository', () => {
    const self = path.join('test', 'unit', 'lint', 'citations.test.ts'); // names the patterns it looks for
    const files = ['src', 'test', 'scripts'].flatMap(sourceFiles).filter((file) => file !== self);
    assert.ok(files.length > 100, `only ${files.length} files scanned`);
    const found = files.flatMap((file) =>
      fs
        .readFileSync(path.join(repoRoot, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => (OUTSIDE.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    assert.deepEqual(found, []);
  });

  it('the pattern catches a citation (the check can fail)', () => {
    assert.ok(OUTSIDE.test(`// as platform facts ${SECTION}3.2 says`));
    assert.ok(OUTSIDE.test('// see perf-baselines'));
    assert.ok(!OUTSIDE.test('// see docs/platform.md'));
  });
});
