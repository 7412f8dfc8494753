// ssh2 inside the shipped bundle: built with the extension target's esbuild options (its optional native
// parts `cpu-features` and `sshcrypto.node` external), written to a folder with no node_modules, so
// those requires fail as in the packaged extension; the bundle must still open an SFTP session to the
// sandbox's volume and list it (ssh2's pure-JS path).

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT } from '../helpers/mcpBundle';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';

interface Target {
  outfile: string;
  [option: string]: unknown;
}

describe('ssh2 in the extension bundle', () => {
  let sandbox: Sandbox;
  let dir: string;
  before(async () => {
    sandbox = await startSandbox({ nas: { sftpPendingMs: 0 } });
    dir = mkdtempSync(path.join(tmpdir(), 'compute-toolkit-nas-bundle-'));
  });
  after(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens an SFTP session through the bundled, pure-JS ssh2', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the build script is CommonJS
    const { targets } = require(path.join(REPO_ROOT, 'esbuild.js')) as { targets: Target[] };
    const target = targets.find((candidate) => candidate.outfile === 'dist/extension.js');
    assert.ok(target, 'esbuild.js has the extension target');
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- esbuild is a dev dependency
    const esbuild = require('esbuild') as { build(options: Record<string, unknown>): Promise<unknown> };
    const outfile = path.join(dir, 'nas.js');
    await esbuild.build({
      ...target,
      entryPoints: [path.join(REPO_ROOT, 'test', 'helpers', 'nasBundleEntry.ts')],
      plugins: [],
      absWorkingDir: REPO_ROOT,
      outfile,
      sourcemap: false,
      minify: true,
      logLevel: 'error',
    });
    const text = readFileSync(outfile, 'utf8');
    assert.match(text, /require\("cpu-features"\)/, 'cpu-features stays an (optional) external require');

    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle under test
    const bundle = require(outfile) as typeof import('../helpers/nasBundleEntry');
    const client = bundle.createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }) });
    const sessions = new bundle.NasSessions(new bundle.VolumeService(() => client), { pendingPollMs: 50 });
    try {
      const list = await client.call('nas.list', { statuses: 'Active' });
      const volume = list.results[0];
      assert.ok(volume);
      const names = await sessions.run(volume.storage_id, (connection) => connection.readdir('/'));
      assert.deepEqual(names.map((entry) => entry.name).sort(), ['README.md', 'data']);
    } finally {
      sessions.dispose();
    }
  });
});
