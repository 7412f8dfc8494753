// What ships inside a bundle is a production dependency: an audit of production dependencies
// (`npm audit --omit=dev`, `npm ls --omit=dev`) must see every package the release bundles contain.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as esbuild from 'esbuild';

const repoRoot = join(__dirname, '..', '..', '..', '..');

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { releaseTargets } = require(join(repoRoot, 'esbuild.js')) as { releaseTargets: () => esbuild.BuildOptions[] };

/** The package of a bundled input path (`node_modules/@scope/name/…` → `@scope/name`), if any. */
function packageOf(input: string): string | undefined {
  const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  return match?.[1];
}

describe('shipped dependencies', () => {
  it('every package inside a release bundle is a production dependency in the lockfile', async () => {
    const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const shipped = new Set<string>();
    for (const target of releaseTargets()) {
      const result = await esbuild.build({ ...target, absWorkingDir: repoRoot, write: false, metafile: true, logLevel: 'silent' });
      for (const input of Object.keys(result.metafile?.inputs ?? {})) {
        const name = packageOf(input);
        if (name !== undefined) shipped.add(name);
      }
    }
    assert.ok(shipped.has('markdown-it') && shipped.has('highlight.js'), `bundled packages: ${[...shipped].join(', ')}`);
    const devOnly = [...shipped].filter((name) => lock.packages[`node_modules/${name}`]?.dev === true);
    assert.deepEqual(devOnly, [], 'bundled but listed only as development dependencies');
  });
});
