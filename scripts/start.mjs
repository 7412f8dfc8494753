#!/usr/bin/env node
// `npm start`, the README's try-it command: builds the extension, starts the local sandbox platform,
// and opens VS Code in the browser (code-server 4.139.1, installed into .cache/ on first use) with
// the freshly packaged extension installed and connected to the sandbox. No account needed.
// Prints the URL to open; Ctrl+C stops everything. Each start uses fresh VS Code user data, because
// the sandbox's keys and port are new each time.
//
// Usage: node scripts/start.mjs [--port N] [--folder PATH]
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { freePort, run, spawnGroup, stopGroup, waitForHttp } from './lib/exec.mjs';
import { ensureInstalled } from './vscode-web/install.mjs';
import { cacheTmpDir, codeServerEntry, nodeDir, repoRoot, toolEnv } from './vscode-web/versions.mjs';

const VSCODE = '1.139';
const require = createRequire(import.meta.url);
const say = (message) => console.log(`[start] ${message}`);
const children = [];
let runDir;

function option(name) {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

let stopping = false;
async function stopAll() {
  stopping = true;
  while (children.length > 0) await stopGroup(children.pop());
  if (runDir) fs.rmSync(runDir, { recursive: true, force: true });
}

async function mustRun(what, command, args, options = {}) {
  say(what);
  const { code } = await run(command, args, { cwd: repoRoot, ...options });
  if (code !== 0) throw new Error(`${what} failed (exit ${code})`);
}

function startLogged(command, args, env, logFile) {
  const child = spawnGroup(command, args, { env, cwd: repoRoot });
  const stream = fs.createWriteStream(logFile);
  child.stdout.pipe(stream);
  child.stderr.pipe(stream);
  children.push(child);
  return child;
}

async function main() {
  await mustRun('building the extension (node esbuild.js)', process.execPath, ['esbuild.js']);
  // tsc still emits when some file has a type error; the sandbox may well be fine then.
  const compiled = await run(process.execPath, [path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.test.json'], { cwd: repoRoot });
  const sandboxMain = path.join(repoRoot, 'out', 'test', 'sandbox', 'main.js');
  if (!fs.existsSync(sandboxMain)) throw new Error('compiling the sandbox failed (no out/test/sandbox/main.js)');
  if (compiled.code !== 0) say('warning: tsc reported type errors (above); starting anyway');

  const target = await ensureInstalled(VSCODE);
  fs.mkdirSync(cacheTmpDir, { recursive: true });
  runDir = fs.mkdtempSync(path.join(cacheTmpDir, 'start-'));

  const sandboxPort = await freePort();
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const sandbox = startLogged(process.execPath, [sandboxMain, '--port', String(sandboxPort), '--write-bootstrap', path.join(runDir, 'sandbox-bootstrap.json')], process.env, path.join(runDir, 'sandbox.log'));
  await waitForHttp(`${sandboxUrl}/__sandbox/bootstrap`, { timeoutMs: 20_000, child: sandbox });
  say(`sandbox platform: ${sandboxUrl}`);

  const vsix = path.join(runDir, 'compute-toolkit.vsix');
  await mustRun('packaging the extension (vsce package)', process.execPath, [path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--no-rewrite-relative-links', '-o', vsix], { stdio: ['ignore', 'ignore', 'inherit'] });

  const extensionsDir = path.join(runDir, 'ext');
  const userDataDir = path.join(runDir, 'ud');
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), `${JSON.stringify({
    'workbench.startupEditor': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'telemetry.telemetryLevel': 'off',
    // The run folders live in .cache/ inside this repository: don't offer to open its git repository.
    'git.openRepositoryInParentFolders': 'never',
  }, null, 2)}\n`);
  const port = Number(option('--port') ?? (await freePort()));
  fs.mkdirSync(path.join(runDir, 'tmp'));
  const env = toolEnv(target, { COMPUTE_TOOLKIT_SANDBOX_URL: sandboxUrl, TMPDIR: path.join(runDir, 'tmp') });
  const nodeBin = path.join(nodeDir(target.node), 'bin', 'node');
  const baseArgs = [codeServerEntry(target.codeServer), '--config', '/dev/null', '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none',
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override',
    '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir];
  await mustRun('installing it into a fresh VS Code profile', nodeBin, [...baseArgs, '--install-extension', vsix], { env, stdio: ['ignore', 'ignore', 'inherit'] });

  const folder = path.resolve(option('--folder') ?? require(path.join(repoRoot, 'out', 'test', 'e2e', 'sampleWorkspace.js')).createSampleWorkspace(path.join(runDir, 'sample-project')));
  const server = startLogged(nodeBin, baseArgs, env, path.join(runDir, 'code-server.log'));
  await waitForHttp(`http://127.0.0.1:${port}/healthz`, { timeoutMs: 30_000, child: server });

  console.log(`\n  VS Code ${VSCODE} with Compute Toolkit, connected to the local sandbox:\n\n    http://127.0.0.1:${port}/?folder=${encodeURI(folder)}\n`);
  say('open the "Compute" icon in the activity bar; Ctrl+C stops VS Code and the sandbox');
  // Runs until Ctrl+C (handled below), or until code-server or the sandbox dies on its own.
  await new Promise((resolve) => {
    server.on('exit', (code) => { if (!stopping) say(`code-server exited (${code}); log: ${path.join(runDir, 'code-server.log')}`); resolve(); });
    sandbox.on('exit', (code) => { if (!stopping) say(`the sandbox exited (${code})`); resolve(); });
  });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => { say('stopping…'); void stopAll().finally(() => process.exit(0)); });
}

main().then(
  async () => { await stopAll(); process.exitCode = 1; },
  async (error) => {
    console.error(`[start] FAILED: ${error instanceof Error ? error.message : String(error)}`);
    await stopAll();
    process.exitCode = 1;
  },
);
