// Activation registers contributions and nothing more: the large libraries in dist/vendor (undici, ssh2,
// yaml, ajv) load when code that uses them first runs, never at activation (docs/areas.md, "Activation").
// The extension is built as esbuild.js builds it, into a temporary folder, then required and activated
// in a fresh Node process under the activation benchmark's stand-in (test/bench/activationProbe.ts).
// The test counts which vendor files were required; it never times anything.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as esbuild from 'esbuild';
import type { ActivationProbeResult } from '../../bench/activationProbe';

const repoRoot = join(__dirname, '..', '..', '..', '..');
const probeScript = join(__dirname, '..', '..', 'bench', 'activationProbe.js');

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { targets } = require(join(repoRoot, 'esbuild.js')) as { targets: (esbuild.BuildOptions & { outfile: string })[] };

/** One activation of `bundle` (package.json from the repository) in a fresh process. */
function activate(bundle: string): ActivationProbeResult {
  const child = spawnSync(process.execPath, [probeScript, repoRoot, bundle], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(child.status, 0, `the activation probe failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as ActivationProbeResult;
}

describe('activation loads', () => {
  let folder: string;
  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'activation-loads-'));
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('the probe sees a dist/vendor file that a bundle requires as it loads', () => {
    // Proves the count below can fail: a bundle that reads yaml at load time is reported.
    const dist = join(folder, 'eager', 'dist');
    mkdirSync(join(dist, 'vendor'), { recursive: true });
    writeFileSync(join(dist, 'vendor', 'yaml.js'), 'module.exports = {};\n');
    writeFileSync(join(dist, 'extension.js'), "require('./vendor/yaml.js');\nexports.activate = () => {};\n");
    const result = activate(join(dist, 'extension.js'));
    assert.equal(result.activateError, null);
    assert.deepEqual(result.vendor, ['yaml']);
  });

  it('require + activate of the extension bundle loads no dist/vendor file', async () => {
    const dist = join(folder, 'release', 'dist');
    // The extension and the vendor files, each at its place in dist/ (the bundle requires ./vendor/<name>.js).
    const built = targets.filter((target) => target.outfile === 'dist/extension.js' || target.outfile.startsWith('dist/vendor/'));
    assert.ok(built.length >= 2, 'esbuild.js has the extension and vendor targets');
    await Promise.all(built.map((target) => esbuild.build({ ...target, absWorkingDir: repoRoot, outfile: join(dist, target.outfile.slice('dist/'.length)), minify: true, sourcemap: false, logLevel: 'silent' })));
    const result = activate(join(dist, 'extension.js'));
    assert.deepEqual(result.vendor, [], `activation loaded dist/vendor files: ${result.vendor.join(', ')}`);
    // An activation that threw would have stopped before it loaded everything it loads: it proves nothing.
    assert.equal(result.activateError, null, 'activate() threw under the stand-in');
  });
});
