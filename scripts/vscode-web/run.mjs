#!/usr/bin/env node
// Runs the extension's tests inside a real VS Code (code-server in headless Chromium, see browser.mjs):
//   1. integration: the in-host mocha suite (out/test/integration/index.js) with the repo loaded as a
//      development extension, through the workbench's test `payload` — what @vscode/test-electron does;
//   2. e2e: the browser-driven UI checks (out/test/e2e) against a fresh workbench with the packaged .vsix
//      installed, exactly as a user (and `npm start`) gets it.
// Each phase gets a fresh sandbox, code-server, user-data and extensions dirs, and browser profile.
//
// Usage: node scripts/vscode-web/run.mjs --vscode 1.139|1.104 [--only integration|integration-zh-cn|e2e|e2e-zh-cn]
//          (--only also takes a comma-separated list, run in the order given) [--update-screenshots] [--keep] [--vsix FILE] [--results-dir DIR (default test-results)]
// Needs: node esbuild.js && npm run compile-tests (scripts/test-all.mjs does both).
// Writes test-results/vscode-<ver>-integration.json and test-results/vscode-<ver>-e2e.json, each
// {"passed":N,"failed":N,"skipped":N,"failures":["title: message", ...],"seconds":N} (the in-host phases also
// "slowest": the 10 slowest tests with their seconds); exits 1 when anything failed.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { freePort, run, spawnGroup, stopGroup, waitForHttp, withTimeout } from '../lib/exec.mjs';
import { BROWSER_ARGS, chromiumExecutable } from './browser.mjs';
import { ensureInstalled } from './install.mjs';
import { cacheTmpDir, codeServerEntry, nodeDir, repoRoot, targetFor, toolEnv } from './versions.mjs';

const require = createRequire(import.meta.url);
// Hang guards, not budgets: both versions run side by side (scripts/test-all.mjs), and on a loaded 2-core
// machine the browser checks of one version alone took 15 min (they take under 4 on a quiet one), and the
// 1.139 in-host suite ran past 40 min while still passing (every test has its own mocha timeout for a hang).
const INTEGRATION_TIMEOUT_MS = 60 * 60_000;
const E2E_TIMEOUT_MS = 30 * 60_000;
const OVERALL_TIMEOUT_MS = 120 * 60_000;
// Starting Chromium and loading the workbench page: Playwright's default (30 s) is not enough on a busy 2-core machine.
const PAGE_LOAD_TIMEOUT_MS = 5 * 60_000;

// COMPUTE_TOOLKIT_OUT_DIR points at another tsc output folder (e.g. out-<name> while working side by side).
const outDir = path.resolve(repoRoot, process.env.COMPUTE_TOOLKIT_OUT_DIR || 'out');
const out = (...parts) => path.join(outDir, 'test', ...parts);
let resultsDir = path.join(repoRoot, 'test-results');

// integration-zh-cn: the in-host l10n suite again with the display language zh-cn (our own
// package.nls.zh-cn.json and l10n/bundle.l10n.zh-cn.json; no language pack needed for our strings).
const PHASES = ['integration', 'integration-zh-cn', 'e2e'];
// e2e-zh-cn: the browser checks marked bothLanguages again in zh-cn (screenshots "<name>-zh-cn"); only on request.
const OPTIONAL_PHASES = ['e2e-zh-cn'];
const ZH_CN = { locale: 'zh-cn', grep: 'l10n: display language' };

function parseArgs(argv) {
  const value = (name) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
  const vscode = value('--vscode');
  if (!vscode) throw new Error('usage: run.mjs --vscode 1.139|1.104 [--only integration|integration-zh-cn|e2e|e2e-zh-cn] [--update-screenshots] [--keep] [--vsix FILE] [--results-dir DIR]');
  const only = value('--only')?.split(',').map((phase) => phase.trim());
  const unknown = only?.filter((phase) => !PHASES.includes(phase) && !OPTIONAL_PHASES.includes(phase)) ?? [];
  if (unknown.length > 0 || (only && new Set(only).size !== only.length)) throw new Error(`--only takes ${[...PHASES, ...OPTIONAL_PHASES].join(', ')} (or several, comma-separated, each once), not ${only?.join(',')}`);
  return {
    vscode, only, vsix: value('--vsix'), resultsDir: value('--results-dir'),
    keep: argv.includes('--keep'), updateScreenshots: argv.includes('--update-screenshots'),
  };
}

/** Everything started here, stopped in reverse order on success, failure, timeout or Ctrl+C. */
const cleanups = [];
async function cleanUp() {
  while (cleanups.length > 0) {
    const step = cleanups.pop();
    try { await step(); } catch (error) { console.error(`[run] cleanup: ${error instanceof Error ? error.message : String(error)}`); }
  }
}

function logTail(file, lines = 25) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).map((l) => `    | ${l}`).join('\n');
  } catch {
    return '    | (no log)';
  }
}

function pipeToFile(child, file) {
  const stream = fs.createWriteStream(file);
  child.stdout?.pipe(stream);
  child.stderr?.pipe(stream);
}

async function startSandbox(dir) {
  const port = await freePort();
  const bootstrapFile = path.join(dir, 'sandbox-bootstrap.json');
  const logFile = path.join(dir, 'sandbox.log');
  const child = spawnGroup(process.execPath, [out('sandbox', 'main.js'), '--port', String(port), '--write-bootstrap', bootstrapFile], { cwd: repoRoot });
  pipeToFile(child, logFile);
  cleanups.push(() => stopGroup(child));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/__sandbox/bootstrap`, { timeoutMs: 120_000, child });
  } catch (error) {
    throw new Error(`the sandbox did not start: ${error instanceof Error ? error.message : String(error)}\n${logTail(logFile)}`);
  }
  const bootstrap = await (await fetch(`${url}/__sandbox/bootstrap`)).json();
  return { url, bootstrap };
}

function writeUserSettings(userDataDir) {
  const settings = {
    'workbench.startupEditor': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'telemetry.telemetryLevel': 'off',
    // The run folders live in .cache/ inside this repository: don't offer to open its git repository.
    'git.openRepositoryInParentFolders': 'never',
    'workbench.tips.enabled': false,
    // 1.139 opens its built-in Chat in the secondary side bar; keep the screenshots about this extension.
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    // The DOM renderer keeps terminal text readable to the browser checks (job logs in a terminal).
    'terminal.integrated.gpuAcceleration': 'off',
  };
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
}

/**
 * Makes `locale` a display language VS Code accepts without downloading its language pack: the server
 * takes a language only when languagepacks.json in the user data names a pack for it. This stub pack
 * translates nothing, so VS Code's own UI stays English, while the extension host runs in `locale`
 * and loads our package.nls.<locale>.json and l10n/bundle.l10n.<locale>.json — what the suite checks.
 */
function writeStubLanguagePack(userDataDir, locale) {
  const translations = path.join(userDataDir, 'stub-language-pack', 'main.i18n.json');
  fs.mkdirSync(path.dirname(translations), { recursive: true });
  fs.writeFileSync(translations, `${JSON.stringify({ contents: {} })}\n`);
  const extensions = [{ extensionIdentifier: { id: `compute-toolkit-tests.stub-language-pack-${locale}` }, version: '0.0.0' }];
  const packs = { [locale]: { hash: `stub-${locale}`, extensions, translations: { vscode: translations }, label: locale } };
  fs.writeFileSync(path.join(userDataDir, 'languagepacks.json'), `${JSON.stringify(packs, null, 2)}\n`);
}

function codeServerArgs(target, dir, port, locale) {
  return [codeServerEntry(target.codeServer), ...(locale ? ['--locale', locale] : []), '--config', '/dev/null', '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none',
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override',
    '--extensions-dir', path.join(dir, 'ext'), '--user-data-dir', path.join(dir, 'ud')];
}

/** Starts code-server with fresh user-data and extensions dirs under dir. */
async function startCodeServer(target, dir, { env, testDriver, vsix, locale }) {
  fs.mkdirSync(path.join(dir, 'ext'), { recursive: true }); // --install-extension needs it to exist
  writeUserSettings(path.join(dir, 'ud'));
  if (locale) writeStubLanguagePack(path.join(dir, 'ud'), locale);
  const nodeBin = path.join(nodeDir(target.node), 'bin', 'node');
  // Sockets and temp files of this instance stay in its own folder and go with it.
  fs.mkdirSync(path.join(dir, 'tmp'), { recursive: true });
  const processEnv = toolEnv(target, { TMPDIR: path.join(dir, 'tmp'), ...env });
  if (vsix) {
    const port = await freePort();
    const installed = await run(nodeBin, [...codeServerArgs(target, dir, port), '--install-extension', vsix], { env: processEnv, stdio: 'pipe' });
    if (installed.code !== 0 || !/successfully installed/i.test(installed.output)) {
      throw new Error(`code-server could not install ${path.basename(vsix)}:\n${installed.output.trim()}`);
    }
  }
  const port = await freePort();
  const args = codeServerArgs(target, dir, port, locale);
  if (testDriver && target.smokeTestDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  const logFile = path.join(dir, 'code-server.log');
  const child = spawnGroup(nodeBin, args, { env: processEnv, cwd: dir });
  pipeToFile(child, logFile);
  cleanups.push(() => stopGroup(child));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/healthz`, { timeoutMs: 120_000, child });
  } catch (error) {
    throw new Error(`code-server did not start: ${error instanceof Error ? error.message : String(error)}\n${logTail(logFile)}`);
  }
  return { url, port, logFile };
}

async function openBrowser(profileDir) {
  const { chromium } = require('playwright-core');
  const executablePath = await chromiumExecutable({ say: (line) => console.log(`[run] ${line}`) });
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath, headless: true, args: BROWSER_ARGS, viewport: { width: 1440, height: 900 }, timeout: PAGE_LOAD_TIMEOUT_MS,
  });
  cleanups.push(() => context.close());
  const page = context.pages()[0] ?? (await context.newPage());
  return page;
}

function workspaceIn(dir) {
  const { createSampleWorkspace } = require(out('e2e', 'sampleWorkspace.js'));
  return createSampleWorkspace(path.join(dir, 'workspace'));
}

const harnessFailure = (message) => ({ passed: 0, failed: 1, skipped: 0, failures: [`harness: ${message}`] });

function normalise(results) {
  const count = (n) => (Number.isInteger(n) && n >= 0 ? n : 0);
  // The slowest tests (the in-host suite names them): where a phase's time goes.
  const slowest = Array.isArray(results.slowest)
    ? results.slowest.filter((t) => t && typeof t.seconds === 'number').map((t) => ({ title: String(t.title), seconds: t.seconds }))
    : undefined;
  return {
    passed: count(results.passed), failed: count(results.failed), skipped: count(results.skipped),
    failures: Array.isArray(results.failures) ? results.failures.map(String) : [],
    ...(slowest ? { slowest } : {}),
  };
}

async function integrationPhase(target, runDir, { locale, grep } = {}) {
  const dir = path.join(runDir, locale ? `integration-${locale}` : 'integration');
  fs.mkdirSync(dir, { recursive: true });
  const sandbox = await startSandbox(dir);
  const resultsFile = path.join(dir, 'mocha-results.json');
  const server = await startCodeServer(target, dir, {
    env: {
      COMPUTE_TOOLKIT_SANDBOX_URL: sandbox.url, COMPUTE_TOOLKIT_TEST_RESULTS: resultsFile,
      ...(locale ? { COMPUTE_TOOLKIT_TEST_LOCALE: locale, COMPUTE_TOOLKIT_TEST_GREP: grep } : {}),
      // A developer narrows a run: COMPUTE_TOOLKIT_TEST_GREP=nas node scripts/vscode-web/run.mjs …
      ...(!locale && process.env.COMPUTE_TOOLKIT_TEST_GREP ? { COMPUTE_TOOLKIT_TEST_GREP: process.env.COMPUTE_TOOLKIT_TEST_GREP } : {}),
    },
    testDriver: true,
    locale,
  });
  const page = await openBrowser(path.join(dir, 'browser'));
  const consoleLog = fs.createWriteStream(path.join(dir, 'browser-console.log'));
  page.on('console', (message) => consoleLog.write(`[${message.type()}] ${message.text()}\n`));
  let settle;
  const exited = new Promise((resolve) => { settle = resolve; });
  // The workbench calls these when the suite's run() promise settles (the smoke-test driver contract).
  await page.exposeFunction('codeAutomationExit', (code) => settle(Number(code)));
  await page.exposeFunction('codeAutomationLog', (line) => consoleLog.write(`[automation] ${String(line)}\n`));
  const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
  const payload = [
    ['extensionDevelopmentPath', remote(repoRoot)],
    ['extensionTestsPath', remote(out('integration', 'index.js'))],
    ['skipWelcome', 'true'],
  ];
  const workspace = workspaceIn(dir);
  const started = Date.now();
  await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`, { timeout: PAGE_LOAD_TIMEOUT_MS });
  let exitCode;
  try {
    exitCode = await withTimeout(exited, INTEGRATION_TIMEOUT_MS, 'the in-host suite');
  } catch (error) {
    return harnessFailure(`${error instanceof Error ? error.message : String(error)} (code-server log: ${server.logFile})`);
  }
  console.log(`[run] in-host suite finished with exit code ${exitCode} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (!fs.existsSync(resultsFile)) return harnessFailure(`the in-host suite exited with ${exitCode} but wrote no results (${resultsFile}); see ${path.join(dir, 'browser-console.log')}`);
  const results = normalise(JSON.parse(fs.readFileSync(resultsFile, 'utf8')));
  // The exit code and the counts come from different channels; if they disagree, trust neither.
  if ((exitCode !== 0) !== (results.failed > 0)) {
    results.failed += 1;
    results.failures.push(`harness: the suite exited with ${exitCode} but reported ${results.failed - 1} failure(s)`);
  }
  return results;
}

async function packageVsix(runDir) {
  const file = path.join(runDir, 'compute-toolkit.vsix');
  const packaged = await run(process.execPath, [path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--no-rewrite-relative-links', '-o', file], { cwd: repoRoot, stdio: 'pipe' });
  if (packaged.code !== 0) throw new Error(`vsce package failed:\n${packaged.output.trim().split('\n').slice(-15).join('\n')}`);
  return file;
}

async function e2ePhase(target, runDir, options) {
  const dir = path.join(runDir, options.locale ? `e2e-${options.locale}` : 'e2e');
  fs.mkdirSync(dir, { recursive: true });
  const vsix = options.vsix ? path.resolve(options.vsix) : await packageVsix(runDir);
  const sandbox = await startSandbox(dir);
  const server = await startCodeServer(target, dir, { env: { COMPUTE_TOOLKIT_SANDBOX_URL: sandbox.url, COMPUTE_TOOLKIT_LATENCY_PROBE: '1' }, testDriver: false, vsix, locale: options.locale });
  const page = await openBrowser(path.join(dir, 'browser'));
  const consoleLog = fs.createWriteStream(path.join(dir, 'browser-console.log'));
  page.on('console', (message) => consoleLog.write(`[${message.type()}] ${message.text()}\n`));
  const workspace = workspaceIn(dir);
  await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { timeout: PAGE_LOAD_TIMEOUT_MS });
  const { waitForWorkbench } = require(out('e2e', 'workbench.js'));
  await waitForWorkbench(page);
  const { runE2eChecks } = require(out('e2e', 'runChecks.js'));
  const screenshotDir = path.join(resultsDir, 'screenshots', options.locale ? `${target.vscode}-${options.locale}` : target.vscode);
  fs.rmSync(screenshotDir, { recursive: true, force: true });
  const results = await withTimeout(
    runE2eChecks({ page, sandbox: sandbox.bootstrap, screenshotDir, vscode: target.vscode, ...(options.locale ? { locale: options.locale } : {}), log: (line) => console.log(line) }),
    E2E_TIMEOUT_MS, 'the browser checks');
  if (options.updateScreenshots) {
    const media = path.join(repoRoot, 'media', 'screenshots');
    fs.mkdirSync(media, { recursive: true });
    for (const [name, file] of Object.entries(results.screenshots)) fs.copyFileSync(file, path.join(media, `${name}.png`));
    console.log(`[run] copied ${Object.keys(results.screenshots).length} screenshot(s) of passing checks to media/screenshots/`);
  }
  return normalise(results);
}

/**
 * Removes run folders of earlier runs. Other runs may be going on at the same time (several people or
 * scripts on one machine), so only folders older than any live run can be (the watchdog bound) go.
 */
function pruneOldRuns() {
  const cutoff = Date.now() - 2 * OVERALL_TIMEOUT_MS;
  for (const name of fs.readdirSync(cacheTmpDir)) {
    if (!name.startsWith('run-')) continue;
    const folder = path.join(cacheTmpDir, name);
    if (fs.statSync(folder).mtimeMs < cutoff) fs.rmSync(folder, { recursive: true, force: true });
  }
}

function writeResults(vscode, layer, results) {
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `vscode-${vscode}-${layer}.json`);
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  const line = `[run] VS Code ${vscode} ${layer}: ${results.passed} passed, ${results.failed} failed, ${results.skipped} skipped  (${file.startsWith(repoRoot) ? path.relative(repoRoot, file) : file})`;
  console.log(line);
  for (const failure of results.failures) console.log(`        ✘ ${failure}`);
  if (results.slowest?.length) {
    console.log(`[run] VS Code ${vscode} ${layer}: the slowest tests`);
    for (const { title, seconds } of results.slowest) console.log(`        ${seconds.toFixed(1).padStart(6)} s  ${title.slice(0, 140)}`);
  }
}

async function runPhase(name, options, phase) {
  const started = Date.now();
  console.log(`[run] VS Code ${options.vscode}: ${name} …`);
  let results;
  try {
    results = await phase();
  } catch (error) {
    results = harnessFailure(error instanceof Error ? error.message : String(error));
  } finally {
    await cleanUp();
  }
  const seconds = (Date.now() - started) / 1000;
  console.log(`[run] VS Code ${options.vscode}: ${name} took ${seconds.toFixed(1)} s`);
  writeResults(options.vscode, name, { ...results, seconds });
  return results;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options.resultsDir) resultsDir = path.resolve(options.resultsDir);
  const target = targetFor(options.vscode);
  const missing = [path.join(repoRoot, 'dist', 'extension.js'), out('integration', 'index.js'), out('sandbox', 'main.js'), out('e2e', 'runChecks.js')]
    .filter((file) => !fs.existsSync(file));
  const phases = options.only ?? PHASES;
  if (missing.length > 0) {
    const message = `not built: ${missing.map((f) => path.relative(repoRoot, f)).join(', ')} (run node esbuild.js && npm run compile-tests)`;
    for (const phase of phases) writeResults(options.vscode, phase, harnessFailure(message));
    return 1;
  }
  try {
    await ensureInstalled(options.vscode);
  } catch (error) {
    for (const phase of phases) writeResults(options.vscode, phase, harnessFailure(`install failed: ${error instanceof Error ? error.message : String(error)}`));
    return 1;
  }
  fs.mkdirSync(cacheTmpDir, { recursive: true });
  pruneOldRuns();
  const runDir = fs.mkdtempSync(path.join(cacheTmpDir, `run-${options.vscode}-`));
  console.log(`[run] VS Code ${options.vscode} (code-server ${target.codeServer} on Node ${target.node}); run folder ${runDir}`);
  let failed = 0;
  for (const phase of phases) {
    const results = await runPhase(phase, options, () => (phase === 'integration' ? integrationPhase(target, runDir)
      : phase === 'integration-zh-cn' ? integrationPhase(target, runDir, ZH_CN)
        : phase === 'e2e-zh-cn' ? e2ePhase(target, runDir, { ...options, locale: ZH_CN.locale }) : e2ePhase(target, runDir, options)));
    failed += results.failed;
  }
  if (options.keep || failed > 0) console.log(`[run] logs kept in ${runDir}`);
  else fs.rmSync(runDir, { recursive: true, force: true });
  return failed > 0 ? 1 : 0;
}

// A hung browser or server must not hang CI: stop everything and fail after the overall bound.
const watchdog = setTimeout(() => {
  console.error(`[run] FAILED: overall timeout of ${OVERALL_TIMEOUT_MS / 60_000} min`);
  void cleanUp().finally(() => process.exit(1));
}, OVERALL_TIMEOUT_MS);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => { void cleanUp().finally(() => process.exit(130)); });
}

main().then(
  (code) => { clearTimeout(watchdog); process.exitCode = code; },
  async (error) => {
    clearTimeout(watchdog);
    console.error(`[run] FAILED: ${error instanceof Error ? error.stack : String(error)}`);
    await cleanUp();
    process.exitCode = 1;
  },
);
