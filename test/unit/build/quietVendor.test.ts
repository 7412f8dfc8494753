// Jupyter's client (@jupyterlab/services) calls console.debug on every WebSocket start and kernel status
// change; its vendor file (esbuild.js, QUIET_VENDOR) drops those calls, so the shared extension host's
// console stays quiet, and keeps its warnings.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as esbuild from 'esbuild';

const repoRoot = join(__dirname, '..', '..', '..', '..');

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { targets } = require(join(repoRoot, 'esbuild.js')) as { targets: (esbuild.BuildOptions & { outfile: string })[] };

describe('vendor: Jupyter client without console.debug', () => {
  it('the library calls console.debug; its vendor file does not, and still warns', async () => {
    const source = readFileSync(join(repoRoot, 'node_modules', '@jupyterlab', 'services', 'lib', 'kernel', 'default.js'), 'utf8');
    assert.match(source, /console\.debug\(/, 'the library as published logs with console.debug');
    const target = targets.find((candidate) => candidate.outfile === 'dist/vendor/@jupyterlab/services.js');
    assert.ok(target);
    const result = await esbuild.build({ ...target, absWorkingDir: repoRoot, write: false, sourcemap: false, logLevel: 'silent' });
    const text = result.outputFiles?.map((file) => file.text).join('\n') ?? '';
    assert.doesNotMatch(text, /console\.debug\(/);
    assert.match(text, /console\.warn\(/);
  });
});
