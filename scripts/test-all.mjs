#!/usr/bin/env node
// THE test command (`npm test`; CI runs it through .ci/run). Runs every layer, in order, never letting
// one failure hide a later layer, then prints a per-layer table and, as its very last line,
// `N passed, N failed, N skipped` summed over all layers. Exit code 1 when anything failed.
//
// Layers: lint, typecheck, build, compile-tests, package (each one test; lint, typecheck and the build
// chain side by side), then unit + contract tests on plain Node (node:test) beside the real-VS-Code runs
// (scripts/vscode-web/run.mjs) on 1.139 and the minimum engine 1.104, the two side by side: the in-host
// mocha suite and the browser checks (COMPUTE_TOOLKIT_UNIT_FIRST=1: unit + contract first, alone). code-server and Chromium install into .cache/ in the background
// from the start. The table gives each layer's time (each VS Code phase its own), then the wall time by
// stage, the background installs' durations and npm ci's (timed by .ci/run).
//
// Usage: node scripts/test-all.mjs [--quick]    --quick: compile-tests + unit/contract only
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from './lib/exec.mjs';
import { repoRoot, targets } from './vscode-web/versions.mjs';

const quick = process.argv.includes('--quick');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const resultsDir = path.join(repoRoot, 'test-results');
// Made by main() (importing this file for its helpers creates nothing).
let vsixDir = '';
let vsixFile = '';

/** @type {{layer: string, passed: number, failed: number, skipped: number, seconds: number, failures: string[]}[]} */
const rows = [];
/** Wall time of each stage (stages run one after another; rows inside a stage may overlap). @type {{stage: string, seconds: number}[]} */
const stages = [];
/** Own duration of each background install (Chromium, code-server per version), in seconds. */
const installSeconds = {};

function banner(title) {
  console.log(`\n━━━━ ${title} ${'━'.repeat(Math.max(3, 70 - title.length))}`);
}

async function timed(layer, body, { quiet = false, into = rows } = {}) {
  if (!quiet) banner(layer);
  const started = Date.now();
  let result;
  try {
    result = await body();
  } catch (error) {
    result = { passed: 0, failed: 1, skipped: 0, failures: [`${layer}: ${error instanceof Error ? error.message : String(error)}`] };
  }
  into.push({ layer, seconds: (Date.now() - started) / 1000, ...result });
}

/**
 * A step that passes or fails as a whole (static checks, build, packaging). `beside`: it runs at the same
 * time as other steps, so its output is kept and printed as one block when it ends (never interleaved).
 */
function step(layer, command, args, { beside = false } = {}) {
  return timed(layer, async () => {
    const { code, output } = await run(command, args, { cwd: repoRoot, stdio: beside ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'] });
    if (beside) {
      banner(layer);
      if (output.trim()) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
    }
    return code === 0
      ? { passed: 1, failed: 0, skipped: 0, failures: [] }
      : { passed: 0, failed: 1, skipped: 0, failures: [`${layer}: \`${[command, ...args].join(' ')}\` exited with ${code}`] };
  }, { quiet: beside });
}

/**
 * code-server (with its Node) for every VS Code target and the browser, installed one after another in
 * the background from the start (on a cold cache these are minutes of npm fetches and native builds
 * that depend on nothing built here): each VS Code run awaits only its own. Resolves per version with
 * the install's exit code, output and duration.
 */
function installInBackground() {
  const installs = {};
  const chromiumStarted = Date.now();
  let chain = import('./vscode-web/browser.mjs')
    .then(({ chromiumExecutable }) => chromiumExecutable())
    .then(() => '', (error) => `Chromium: ${error instanceof Error ? error.message : String(error)}\n`)
    .finally(() => { installSeconds.Chromium = (Date.now() - chromiumStarted) / 1000; });
  for (const version of Object.keys(targets)) {
    chain = chain.then(async (earlier) => {
      const started = Date.now();
      const result = await run(process.execPath, [path.join(repoRoot, 'scripts', 'vscode-web', 'install.mjs'), '--vscode', version], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] })
        .catch((error) => ({ code: 1, output: `${error instanceof Error ? error.message : String(error)}\n` }));
      const seconds = (Date.now() - started) / 1000;
      installSeconds[`code-server for ${version}`] = seconds;
      return { ...result, output: `${earlier}${result.output}`, seconds };
    });
    installs[version] = chain;
    chain = chain.then(() => '');
  }
  return installs;
}

/** The row of a background install: the time the run waited for it (its own duration is printed). */
function awaitInstall(version, install, into) {
  const layer = `setup: code-server for VS Code ${version} (wait)`;
  return timed(layer, async () => {
    const { code, output, seconds } = await install;
    if (output.trim()) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
    console.log(`[install] took ${seconds.toFixed(0)} s in the background`);
    return code === 0
      ? { passed: 1, failed: 0, skipped: 0, failures: [] }
      : { passed: 0, failed: 1, skipped: 0, failures: [`${layer}: install.mjs --vscode ${version} exited with ${code}`] };
  }, { into });
}

function findTests(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return findTests(full);
    return entry.isFile() && entry.name.endsWith('.test.js') ? [full] : [];
  });
}

/** Reads the counts from the closing `ℹ pass N` … lines of node:test's spec reporter. */
export function parseNodeTestSummary(output) {
  const count = (name) => {
    const match = output.match(new RegExp(`^ℹ ${name} (\\d+)$`, 'm'));
    return match ? Number(match[1]) : undefined;
  };
  const pass = count('pass');
  const fail = count('fail');
  if (pass === undefined || fail === undefined) return undefined;
  const failingSection = output.split(/^✖ failing tests:$/m)[1] ?? '';
  const failures = [...failingSection.matchAll(/^\s*✖ (.+?) \(\d[\d.]*ms\)$/gm)].map((m) => m[1]);
  return {
    passed: pass,
    failed: fail + (count('cancelled') ?? 0),
    skipped: (count('skipped') ?? 0) + (count('todo') ?? 0),
    failures: [...new Set(failures)],
  };
}

/**
 * Test files run at once by node:test. Its default (cores − 1) runs one file at a time on a 2-core machine,
 * though most contract files wait on the sandbox's timers and processes: two per core. Every test waits
 * for events, never for a time (issue 31), so the count changes only the wall time. `beside`: the VS Code
 * runs share the machine, one per core then. COMPUTE_TOOLKIT_TEST_CONCURRENCY overrides it (1: one file at a time).
 */
export function nodeTestConcurrency(env = process.env, cores = os.availableParallelism(), { beside = false } = {}) {
  const set = Number(env.COMPUTE_TOOLKIT_TEST_CONCURRENCY);
  if (Number.isInteger(set) && set > 0) return set;
  return beside ? Math.max(1, cores) : Math.max(2, 2 * cores);
}

/**
 * Whether unit + contract run beside the VS Code runs instead of before them: the VS Code phases mostly
 * wait (workbench, sandbox timers, polls), so the node:test files fill that time on the same cores and
 * the run is shorter by most of their wall time. COMPUTE_TOOLKIT_UNIT_FIRST=1 runs them first, alone.
 */
export function unitBesideVscode(env = process.env, quick = false) {
  return !quick && env.COMPUTE_TOOLKIT_UNIT_FIRST !== '1';
}

/**
 * One plain-Node test's limit: a test that waits on something that never comes fails with its name
 * after this, instead of holding the whole run until CI's own limit (a lost kernel reply once did).
 */
export const NODE_TEST_TIMEOUT_MS = 10 * 60_000;

/** `beside`: the VS Code runs go on at the same time (output lines tagged "[unit]", one file per core). */
function nodeTests({ beside = false, into = rows } = {}) {
  const writer = beside ? taggedWriter('[unit]') : undefined;
  return timed('unit + contract (node:test)', async () => {
    const dirs = ['unit', 'contract'].map((name) => path.join(repoRoot, 'out', 'test', name));
    for (const dir of dirs) if (!fs.existsSync(dir)) console.log(`(no ${path.relative(repoRoot, dir)} folder)`);
    const files = dirs.flatMap(findTests).sort();
    if (files.length === 0) throw new Error('no *.test.js under out/test/unit or out/test/contract (did compile-tests run?)');
    const { code, output } = await run(process.execPath, ['--test', `--test-concurrency=${nodeTestConcurrency(process.env, os.availableParallelism(), { beside })}`, `--test-timeout=${NODE_TEST_TIMEOUT_MS}`, '--test-reporter=spec', ...files], {
      cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], onOutput: writer ? writer.write : (text) => process.stdout.write(text),
    });
    writer?.flush();
    const summary = parseNodeTestSummary(output);
    if (!summary) throw new Error(`node --test exited with ${code} and printed no summary`);
    if (code !== 0 && summary.failed === 0) {
      summary.failed = 1;
      summary.failures.push(`node --test exited with ${code} although no test failed`);
    }
    return summary;
  }, { into });
}

function readResults(file) {
  if (!fs.existsSync(file)) throw new Error(`${path.relative(repoRoot, file)} was not written`);
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  const seconds = typeof parsed.seconds === 'number' ? { seconds: parsed.seconds } : {};
  return { passed: parsed.passed, failed: parsed.failed, skipped: parsed.skipped, failures: parsed.failures, ...seconds };
}

/** Writes a child's output line by line, each line headed by `tag` (two runs side by side stay readable). */
export function taggedWriter(tag, out = (text) => process.stdout.write(text)) {
  let pending = '';
  const write = (text) => {
    const lines = (pending + text).split('\n');
    pending = lines.pop() ?? '';
    if (lines.length > 0) out(lines.map((line) => `${tag} ${line}\n`).join(''));
  };
  return { write, flush: () => { if (pending) out(`${tag} ${pending}\n`); pending = ''; } };
}

const LAYERS = ['integration', 'integration-zh-cn', 'e2e'];
const LAYER_NAMES = { integration: 'in-host (mocha)', 'integration-zh-cn': 'in-host zh-cn (mocha)', e2e: 'browser (e2e)' };

/**
 * One VS Code version's phases (scripts/vscode-web/run.mjs) in `order`; returns its table rows (added by
 * the caller in a fixed order, so the table reads the same whether versions ran side by side or not).
 * `tag`: output lines are prefixed with it (the runs of both versions go on at the same time).
 */
async function vscodeRuns(version, install, { order = LAYERS, tag, chatLatency = true, waitRow = true } = {}) {
  /** @type {typeof rows} */
  const own = [];
  // Another lane of this version already shows the wait for its install (this lane starts after it).
  if (waitRow) await awaitInstall(version, install, own);
  else await install;
  // A private results folder: never count a previous run's files, nor those of a run someone else
  // started at the same time; copied into test-results/ afterwards.
  const privateResults = fs.mkdtempSync(path.join(os.tmpdir(), `compute-toolkit-results-${version}-`));
  const files = Object.fromEntries(order.map((layer) => [layer, path.join(resultsDir, `vscode-${version}-${layer}.json`)]));
  if (!tag) banner(`VS Code ${version}: in-host suite + browser checks`);
  const started = Date.now();
  const args = [path.join(repoRoot, 'scripts', 'vscode-web', 'run.mjs'), '--vscode', version, '--results-dir', privateResults, '--only', order.join(',')];
  if (fs.existsSync(vsixFile)) args.push('--vsix', vsixFile);
  const writer = tag ? taggedWriter(tag) : undefined;
  const env = chatLatency ? process.env : { ...process.env, COMPUTE_TOOLKIT_CHAT_LATENCY: 'off' };
  await run(process.execPath, args, writer
    ? { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'], onOutput: writer.write }
    : { cwd: repoRoot, env, stdio: ['ignore', 'inherit', 'inherit'] });
  writer?.flush();
  const seconds = (Date.now() - started) / 1000;
  fs.mkdirSync(resultsDir, { recursive: true });
  for (const file of Object.values(files)) fs.rmSync(file, { force: true });
  // Only the browser checks take screenshots: another lane of this version must not delete them.
  if (order.includes('e2e')) fs.rmSync(path.join(resultsDir, 'screenshots', version), { recursive: true, force: true });
  fs.cpSync(privateResults, resultsDir, { recursive: true });
  fs.rmSync(privateResults, { recursive: true, force: true });
  let phaseSeconds = 0;
  for (const [index, layer] of LAYERS.filter((candidate) => order.includes(candidate)).entries()) {
    let result;
    try {
      result = readResults(files[layer]);
    } catch (error) {
      result = { passed: 0, failed: 1, skipped: 0, failures: [`${error instanceof Error ? error.message : String(error)}`] };
    }
    phaseSeconds += result.seconds ?? 0;
    own.push({ layer: `VS Code ${version} ${LAYER_NAMES[layer]}`, ...result, seconds: result.seconds ?? (index === 0 ? seconds : 0) });
  }
  // What the phases do not account for: run.mjs's own start (install check, run folder).
  const lane = order.length === LAYERS.length ? '' : order.includes('e2e') ? ' (browser lane)' : ' (in-host lane)';
  if (phaseSeconds > 0) own.push({ layer: `VS Code ${version} harness outside the phases${lane}`, passed: 0, failed: 0, skipped: 0, failures: [], seconds: Math.max(0, seconds - phaseSeconds) });
  return own;
}

/** The in-host layers of a version (one lane each) and the browser checks (one lane for every version). */
const IN_HOST = LAYERS.filter((layer) => layer !== 'e2e');

/**
 * The lanes of a run side by side: one per version for its in-host suites, and one that runs `first`
 * (unit + contract) and then every version's browser checks one after the other — the browser phases are
 * the most CPU-bound, so never two at once. Returns the rows per version, in-host before browser.
 */
export function laneLayout(versions) {
  return {
    inHost: versions.map((version) => ({ version, order: [...IN_HOST] })),
    browser: versions.map((version, index) => ({ version, order: ['e2e'], chatLatency: benchmarkedHere(index, versions.length) })),
  };
}

/**
 * Whether the browser checks of the index-th of `count` versions run the chat latency benchmark (20 sends,
 * printed, never judged; test/e2e/chatLatency.ts): on the last version only. Its figures are printed once
 * per run, and the first version's phases, the longest, do not carry it (`npm run bench:browser` measures 1.139).
 */
export function benchmarkedHere(index, count) {
  return index === count - 1;
}

/**
 * The VS Code runs in lanes side by side (laneLayout): each version's in-host suites in a lane of its
 * own, and the browser checks of every version, one after the other, in a third lane that first runs
 * `first` (unit + contract, when they go beside). The in-host phases mostly wait (sandbox timers, the
 * workbench, polls), so three lanes on 2 cores take about as long as the longest. The table keeps one
 * order per version (in-host, zh-cn, browser) whichever lane ends first.
 * COMPUTE_TOOLKIT_VSCODE_SERIAL=1 runs each version whole, one after the other, after `first`.
 */
async function allVscodeRuns(installs, { first } = {}) {
  const versions = Object.keys(targets);
  const alsoUnit = first ? ' and unit + contract' : '';
  const started = Date.now();
  if (process.env.COMPUTE_TOOLKIT_VSCODE_SERIAL === '1') {
    await first?.();
    for (const [index, version] of versions.entries()) rows.push(...(await vscodeRuns(version, installs[version], { chatLatency: benchmarkedHere(index, versions.length) })));
    stages.push({ stage: `VS Code ${versions.join(' + ')} (one after the other)${alsoUnit}`, seconds: (Date.now() - started) / 1000 });
    return;
  }
  banner(`VS Code ${versions.join(' and ')}: in-host suites side by side, browser checks in a lane after unit + contract (lines tagged)`);
  const layout = laneLayout(versions);
  const browserRows = {};
  const [inHostRows] = await Promise.all([
    Promise.all(layout.inHost.map(({ version, order }) => vscodeRuns(version, installs[version], { tag: `[${version}]`, order }))),
    (async () => {
      await first?.();
      for (const { version, order, chatLatency } of layout.browser) {
        browserRows[version] = await vscodeRuns(version, installs[version], { tag: `[${version} e2e]`, order, chatLatency, waitRow: false });
      }
    })(),
  ]);
  for (const [index, { version }] of layout.inHost.entries()) rows.push(...inHostRows[index], ...(browserRows[version] ?? []));
  stages.push({ stage: `VS Code ${versions.join(' + ')}${alsoUnit} (in lanes side by side)`, seconds: (Date.now() - started) / 1000 });
}

function printTable() {
  const width = Math.max(...rows.map((r) => r.layer.length), 5);
  const line = (layer, p, f, s, t) => `${layer.padEnd(width)}  ${String(p).padStart(6)}  ${String(f).padStart(6)}  ${String(s).padStart(7)}  ${String(t).padStart(7)}`;
  banner('summary');
  console.log(line('layer', 'passed', 'failed', 'skipped', 'time'));
  for (const r of rows) console.log(line(r.layer, r.passed, r.failed, r.skipped, r.seconds ? `${r.seconds.toFixed(0)} s` : ''));
  const failures = rows.flatMap((r) => r.failures.map((f) => `  ✘ [${r.layer}] ${f}`));
  if (failures.length > 0) console.log(`\nfailures:\n${failures.join('\n')}`);
  console.log('');
}

/**
 * Where the wall time went, stage by stage (the rows above overlap inside a stage), with the cold-start
 * costs outside them: `npm ci` (timed by .ci/run, passed in COMPUTE_TOOLKIT_NPM_CI_SECONDS) and the
 * background installs of Chromium and code-server (their own durations; the run waited only the
 * "setup … (wait)" rows for them).
 */
function printStages(wallSeconds) {
  const npmCi = Number(process.env.COMPUTE_TOOLKIT_NPM_CI_SECONDS);
  console.log('wall time by stage:');
  for (const { stage, seconds } of stages) console.log(`  ${stage.padEnd(46)} ${seconds.toFixed(0).padStart(6)} s`);
  const background = Object.entries(installSeconds).map(([name, seconds]) => `${name} ${seconds.toFixed(0)} s`);
  if (background.length > 0) console.log(`  (background installs: ${background.join(', ')})`);
  if (Number.isFinite(npmCi) && npmCi > 0) console.log(`  (before this script: npm ci ${npmCi.toFixed(0)} s)`);
  console.log(`wall time: ${wallSeconds.toFixed(0)} s${Number.isFinite(npmCi) && npmCi > 0 ? `; with npm ci ${(wallSeconds + npmCi).toFixed(0)} s` : ''}\n`);
}

async function main() {
  const started = Date.now();
  vsixDir = fs.mkdtempSync(path.join(os.tmpdir(), 'compute-toolkit-vsix-'));
  vsixFile = path.join(vsixDir, 'compute-toolkit.vsix');
  const installs = quick ? {} : installInBackground();
  const stage = async (name, body) => {
    const begun = Date.now();
    await body();
    stages.push({ stage: name, seconds: (Date.now() - begun) / 1000 });
  };
  if (quick) {
    await stage('compile-tests', () => step('compile-tests', npm, ['run', '--silent', 'compile-tests']));
  } else {
    // Lint, typecheck and the build chain depend on nothing of each other: side by side, each printed when done.
    const beside = { beside: true };
    await stage('static checks + build (side by side)', () => Promise.all([
      step('lint', npm, ['run', '--silent', 'lint'], beside),
      step('typecheck', npm, ['run', '--silent', 'typecheck'], beside),
      (async () => {
        await step('build (esbuild)', process.execPath, ['esbuild.js'], beside);
        await step('compile-tests', npm, ['run', '--silent', 'compile-tests'], beside);
        await step('package (vsce)', process.execPath, [path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--no-rewrite-relative-links', '-o', vsixFile], beside);
      })(),
    ]));
    console.log(`\n(static checks and build: ${((Date.now() - started) / 1000).toFixed(0)} s side by side)`);
  }
  if (unitBesideVscode(process.env, quick)) {
    // The table keeps its order (unit + contract above the VS Code rows) whichever ends first.
    const unitRows = [];
    const at = rows.length;
    await allVscodeRuns(installs, { first: () => nodeTests({ beside: true, into: unitRows }) });
    rows.splice(at, 0, ...unitRows);
  } else {
    await stage('unit + contract', () => nodeTests());
    if (!quick) await allVscodeRuns(installs);
  }
  fs.rmSync(vsixDir, { recursive: true, force: true });
  fs.mkdirSync(resultsDir, { recursive: true });
  fs.writeFileSync(path.join(resultsDir, 'summary.json'), `${JSON.stringify(rows, null, 2)}\n`);
  printTable();
  const total = (key) => rows.reduce((sum, r) => sum + r[key], 0);
  printStages((Date.now() - started) / 1000);
  const failed = total('failed');
  console.log(`${total('passed')} passed, ${failed} failed, ${total('skipped')} skipped`);
  process.exitCode = failed > 0 ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main().catch((error) => {
  // Even a bug in this script must end with the summary line CI looks for.
  console.error(`test-all crashed: ${error instanceof Error ? error.stack : String(error)}`);
  const total = (key) => rows.reduce((sum, r) => sum + r[key], 0);
  console.log(`${total('passed')} passed, ${total('failed') + 1} failed, ${total('skipped')} skipped`);
  process.exitCode = 1;
});
