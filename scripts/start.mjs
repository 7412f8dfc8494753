#!/usr/bin/env node
// `npm start`, the README's try-it command: builds the extension, starts the local sandbox platform,
// and opens VS Code in the browser (code-server 4.139.1, installed into .cache/ on first use, with
// progress) with the freshly packaged extension installed and connected to the sandbox. No account needed.
//
// Nothing is lost between runs: the sample project, VS Code's user data (profiles, chat history) and the
// installed extension live in the git-ignored .start/ (see lib/startFolder.mjs). The sample project is
// seeded only when absent. If the sandbox stops, VS Code keeps running and Enter restarts the sandbox.
// Ctrl+C stops VS Code and the sandbox; it deletes only the current run's temporary files.
//
// Usage: node scripts/start.mjs [--port N] [--folder PATH]
//   COMPUTE_TOOLKIT_START_DIR: keep the state somewhere else than .start/
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { ensureJupyterDeps } from './lib/jupyterDeps.mjs';
import { freePort, run, spawnGroup, stopGroup, waitForHttp } from './lib/exec.mjs';
import { superviseSandbox } from './lib/sandboxSupervisor.mjs';
import { isStartRunning, pickPort, readState, removeRunFiles, rotateLog, seedOnce, startPaths, startRoot, writeIfAbsent, writeState } from './lib/startFolder.mjs';
import { ensureInstalled } from './vscode-web/install.mjs';
import { codeServerEntry, nodeDir, repoRoot, toolEnv } from './vscode-web/versions.mjs';

const VSCODE = '1.139';
const require = createRequire(import.meta.url);
const say = (message) => console.log(`[start] ${message}`);
const paths = startPaths(startRoot(repoRoot));
const children = new Set();
let ownsState = false;

/** A path relative to the current folder when inside it (".start"), else absolute. */
function displayPath(file) {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

function option(name) {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

let stopping = false;
async function stopAll() {
  stopping = true;
  for (const child of [...children].reverse()) await stopGroup(child);
  children.clear();
  // Another `npm start` may own the folder (claimStartFolder refused to start): leave its files alone.
  if (!ownsState) return;
  removeRunFiles(paths);
  writeState(paths.state, { ...readState(paths.state), pid: undefined });
}

async function mustRun(what, command, args, options = {}) {
  say(what);
  const { code } = await run(command, args, { cwd: repoRoot, ...options });
  if (code !== 0) throw new Error(`${what} failed (exit ${code})`);
}

function startLogged(command, args, env, logFile) {
  const child = spawnGroup(command, args, { env, cwd: repoRoot });
  rotateLog(logFile);
  const stream = fs.createWriteStream(logFile, { flags: 'a' });
  stream.write(`\n---- ${new Date().toISOString()} ----\n`);
  child.stdout.pipe(stream);
  child.stderr.pipe(stream);
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'telemetry.telemetryLevel': 'off',
  // The workspace lives in .start/ inside this repository: don't offer to open its git repository.
  'git.openRepositoryInParentFolders': 'never',
  // 1.139 opens its built-in Chat in the secondary side bar; start with this extension's views in front.
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

/** Refuses to share the user data with another running `npm start`, then claims it. */
function claimStartFolder() {
  const previous = readState(paths.state);
  if (previous.pid !== process.pid && isStartRunning(previous.pid)) {
    const where = previous.codeServerPort ? ` at http://127.0.0.1:${previous.codeServerPort}/` : '';
    throw new Error(`npm start is already running (pid ${previous.pid})${where}; stop it with Ctrl+C first (both would write ${paths.userData})`);
  }
  writeState(paths.state, { ...previous, pid: process.pid });
  ownsState = true;
  return previous;
}

async function startSandbox(sandboxMain, port) {
  const child = startLogged(process.execPath, [sandboxMain, '--port', String(port), '--write-bootstrap', path.join(paths.run, 'sandbox-bootstrap.json')],
    process.env, path.join(paths.logs, 'sandbox.log'));
  await waitForHttp(`http://127.0.0.1:${port}/__sandbox/bootstrap`, { timeoutMs: 20_000, child });
  return child;
}

async function main() {
  const previous = claimStartFolder();
  await mustRun('building the extension (node esbuild.js)', process.execPath, ['esbuild.js']);
  // tsc still emits when some file has a type error; the sandbox may well be fine then.
  const compiled = await run(process.execPath, [path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.test.json'], { cwd: repoRoot });
  const sandboxMain = path.join(repoRoot, 'out', 'test', 'sandbox', 'main.js');
  if (!fs.existsSync(sandboxMain)) throw new Error('compiling the sandbox failed (no out/test/sandbox/main.js)');
  if (compiled.code !== 0) say('warning: tsc reported type errors (above); starting anyway');

  const target = await ensureInstalled(VSCODE);
  // Jupyter tasks in the sandbox run a real Jupyter server (apt, when missing and allowed).
  ensureJupyterDeps({ say: (line) => say(line) });
  removeRunFiles(paths);
  for (const dir of [paths.run, path.join(paths.run, 'tmp'), paths.logs, paths.extensions, path.join(paths.userData, 'User')]) fs.mkdirSync(dir, { recursive: true });

  // A new sandbox has new keys: give it another port than last time, so the extension sees a new address and reconnects.
  const sandboxPort = await pickPort({ avoid: previous.sandboxPort, freePort });
  const port = Number(option('--port') ?? (await pickPort({ preferred: previous.codeServerPort, freePort })));
  writeState(paths.state, { ...readState(paths.state), sandboxPort, codeServerPort: port });
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const sandbox = await startSandbox(sandboxMain, sandboxPort);
  say(`sandbox platform: ${sandboxUrl}`);

  const vsix = path.join(paths.run, 'compute-toolkit.vsix');
  await mustRun('packaging the extension (vsce package)', process.execPath, [path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--no-rewrite-relative-links', '-o', vsix], { stdio: ['ignore', 'ignore', 'inherit'] });

  if (writeIfAbsent(path.join(paths.userData, 'User', 'settings.json'), `${JSON.stringify(USER_SETTINGS, null, 2)}\n`)) say(`new VS Code user data in ${paths.userData}`);
  else say(`reusing VS Code user data in ${paths.userData} (profiles, chats and settings of earlier runs)`);
  const env = toolEnv(target, { COMPUTE_TOOLKIT_SANDBOX_URL: sandboxUrl, TMPDIR: path.join(paths.run, 'tmp') });
  const nodeBin = path.join(nodeDir(target.node), 'bin', 'node');
  const baseArgs = [codeServerEntry(target.codeServer), '--config', '/dev/null', '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none',
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override',
    '--extensions-dir', paths.extensions, '--user-data-dir', paths.userData];
  await mustRun('installing it into VS Code', nodeBin, [...baseArgs, '--install-extension', vsix, '--force'], { env, stdio: ['ignore', 'ignore', 'inherit'] });

  let folder = option('--folder');
  if (folder === undefined) {
    const { createSampleWorkspace } = require(path.join(repoRoot, 'out', 'test', 'e2e', 'sampleWorkspace.js'));
    if (seedOnce(paths.workspace, createSampleWorkspace)) say(`sample project created in ${paths.workspace}`);
    else say(`opening your sample project in ${paths.workspace} (kept from earlier runs)`);
    folder = paths.workspace;
  }
  folder = path.resolve(folder);
  const server = startLogged(nodeBin, baseArgs, env, path.join(paths.logs, 'code-server.log'));
  await waitForHttp(`http://127.0.0.1:${port}/healthz`, { timeoutMs: 30_000, child: server });

  console.log(`\n  VS Code ${VSCODE} with Compute Toolkit, connected to the local sandbox:\n\n    http://127.0.0.1:${port}/?folder=${encodeURI(folder)}\n`);
  say(`open the "Compute" icon in the activity bar; Ctrl+C stops VS Code and the sandbox (your files stay in ${displayPath(paths.root)})`);
  superviseSandbox({
    sandbox, restart: () => startSandbox(sandboxMain, sandboxPort), say, isStopping: () => stopping,
    logFile: path.join(paths.logs, 'sandbox.log'), interactive: process.stdin.isTTY === true, input: process.stdin,
  });
  // Runs until Ctrl+C (handled below) or until code-server exits on its own.
  await new Promise((resolve) => {
    server.on('exit', (code) => { if (!stopping) say(`code-server exited (${code}); log: ${path.join(paths.logs, 'code-server.log')}`); resolve(); });
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
