// The large libraries ship as dist/vendor files loaded on first use (esbuild.js, VENDORED): the
// extension and MCP bundles must only require them, never contain them, and each vendor file must hold
// its whole library, so one copy of each library (and of its classes) exists at run time.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as esbuild from 'esbuild';

const repoRoot = join(__dirname, '..', '..', '..', '..');

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { targets } = require(join(repoRoot, 'esbuild.js')) as { targets: (esbuild.BuildOptions & { outfile: string })[] };

const VENDORED = ['undici', 'ssh2', 'yaml', 'ajv', 'zod'];

function packagesIn(metafile: esbuild.Metafile): Set<string> {
  const names = new Set<string>();
  for (const input of Object.keys(metafile.inputs)) {
    const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match?.[1]) names.add(match[1]);
  }
  return names;
}

async function build(outfile: string): Promise<{ packages: Set<string>; text: string }> {
  const target = targets.find((candidate) => candidate.outfile === outfile);
  assert.ok(target, `esbuild.js has a ${outfile} target`);
  const result = await esbuild.build({ ...target, absWorkingDir: repoRoot, write: false, metafile: true, sourcemap: false, logLevel: 'silent' });
  const text = result.outputFiles?.map((file) => file.text).join('\n') ?? '';
  return { packages: packagesIn(result.metafile!), text };
}

describe('vendor split', () => {
  // The MCP SDK reaches into ajv and zod by subpath, so the MCP server keeps its own (esbuild.js).
  const expected: Record<string, string[]> = { 'dist/extension.js': VENDORED, 'dist/mcp.js': VENDORED.filter((name) => name !== 'ajv' && name !== 'zod') };
  for (const [outfile, vendored] of Object.entries(expected)) {
    it(`${outfile} requires the large libraries from dist/vendor instead of containing them`, async () => {
      const { packages, text } = await build(outfile);
      for (const name of vendored) {
        assert.ok(!packages.has(name), `${outfile} contains ${name}`);
      }
      // Both talk to the platform: the HTTP client is what each loads from dist/vendor on first use.
      assert.ok(text.includes('"./vendor/undici.js"'), `${outfile} does not load undici from dist/vendor`);
    });
  }

  it('each dist/vendor file holds its library', async () => {
    for (const name of VENDORED) {
      const { packages } = await build(`dist/vendor/${name}.js`);
      assert.ok(packages.has(name), `dist/vendor/${name}.js lacks ${name}`);
      for (const other of VENDORED.filter((candidate) => candidate !== name)) {
        assert.ok(!packages.has(other), `dist/vendor/${name}.js also contains ${other}`);
      }
    }
  });
});
