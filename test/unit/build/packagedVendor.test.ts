// The packaged extension (.vscodeignore is an allowlist) keeps every bundle esbuild.js writes, the vendor
// files in scoped folders too: without dist/vendor/@jupyterlab/services.js a notebook kernel cannot load in
// an installed extension ("Cannot find module"), which only a run from the VSIX shows.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const repoRoot = join(__dirname, '..', '..', '..', '..');

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { targets } = require(join(repoRoot, 'esbuild.js')) as { targets: { outfile?: string }[] };

/** A .vscodeignore glob as a whole-path expression: `**` any folders, `*` within one name. */
function globExpression(glob: string): RegExp {
  const body = glob.split(/(\*\*|\*)/).map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${body}$`);
}

describe('build: the packaged extension', () => {
  it('keeps every file esbuild.js writes (.vscodeignore allowlist), scoped vendor folders included', () => {
    const kept = readFileSync(join(repoRoot, '.vscodeignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.startsWith('!'))
      .map((line) => globExpression(line.slice(1)));
    const outfiles = targets.map((target) => target.outfile).filter((outfile): outfile is string => outfile !== undefined);
    assert.ok(outfiles.includes('dist/vendor/@jupyterlab/services.js'), 'the Jupyter client is a vendor file of its own');
    assert.deepEqual(outfiles.filter((outfile) => !kept.some((expression) => expression.test(outfile))), []);
  });
});
