#!/usr/bin/env node
// The in-host mocha suite on VS Code desktop through @vscode/test-electron, for developers on a desktop.
// NOT run in CI here: test-electron downloads VS Code from update.code.visualstudio.com, which these
// machines cannot reach; CI runs the same suite in code-server (scripts/vscode-web/run.mjs).
//
// Usage: node esbuild.js && npm run compile-tests && node scripts/test-electron.mjs [--vscode stable|1.104.0]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { freePort, spawnGroup, stopGroup, waitForHttp } from './lib/exec.mjs';
import { repoRoot } from './vscode-web/versions.mjs';

const require = createRequire(import.meta.url);
const { runTests } = require('@vscode/test-electron');

const versionIndex = process.argv.indexOf('--vscode');
const version = versionIndex >= 0 ? process.argv[versionIndex + 1] : 'stable';
const out = (...parts) => path.join(repoRoot, 'out', 'test', ...parts);

async function main() {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'compute-toolkit-electron-'));
  const port = await freePort();
  const sandbox = spawnGroup(process.execPath, [out('sandbox', 'main.js'), '--port', String(port), '--write-bootstrap', path.join(runDir, 'bootstrap.json')], { stdio: 'inherit' });
  try {
    const sandboxUrl = `http://127.0.0.1:${port}`;
    await waitForHttp(`${sandboxUrl}/__sandbox/bootstrap`, { timeoutMs: 20_000, child: sandbox });
    const { createSampleWorkspace } = require(out('e2e', 'sampleWorkspace.js'));
    const workspace = createSampleWorkspace(path.join(runDir, 'workspace'));
    const resultsFile = path.join(repoRoot, 'test-results', `electron-${version}-integration.json`);
    await runTests({
      version,
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: out('integration', 'index.js'),
      extensionTestsEnv: { COMPUTE_TOOLKIT_SANDBOX_URL: sandboxUrl, COMPUTE_TOOLKIT_TEST_RESULTS: resultsFile },
      launchArgs: [workspace, '--disable-extensions', '--user-data-dir', path.join(runDir, 'ud')],
    });
    console.log(`in-host suite passed on VS Code ${version} (results: ${path.relative(repoRoot, resultsFile)})`);
  } finally {
    await stopGroup(sandbox);
    fs.rmSync(runDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`test-electron: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
