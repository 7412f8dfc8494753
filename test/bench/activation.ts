// Activation cost and bundle size of the built extension (dist/). Runs `require(dist/extension.js)` +
// `activate()` in a fresh Node process under a minimal `vscode` stand-in (a benchmark harness, not a test:
// the real-VS-Code suites prove behaviour), and lists the Node built-ins that activation pulled in — the
// HTTP stack (net/tls/http2/zlib) must not load until first use.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = join(__dirname, '..', '..', '..');

/** Source of the child process: stubs 'vscode', times require + activate, diffs process.moduleLoadList. */
const childSource = String.raw`
const Module = require('node:module');
const path = require('node:path');
const handler = {
  get(target, prop) {
    if (prop === 'then') return undefined; // not a thenable
    if (prop === Symbol.iterator) return function* () {};
    if (prop === Symbol.toPrimitive) return () => '';
    if (prop === 'prototype') return target.prototype;
    if (prop === 'get') return (_key, fallback) => fallback;
    if (prop === 'subscriptions') return target.subscriptions ??= [];
    if (!(prop in target)) target[prop] = stub();
    return target[prop];
  },
  set(target, prop, value) { Object.defineProperty(target, prop, { value, writable: true, configurable: true }); return true; },
  apply() { return stub(); },
  construct() { return stub(); },
};
function stub() { return new Proxy(function () {}, handler); }
// esbuild's __toESM copies only own property names, so pre-create every top-level export of the API.
const vscode = stub();
const dts = require('node:fs').readFileSync(require.resolve('@types/vscode/index.d.ts'), 'utf8');
for (const m of dts.matchAll(/^\t(?:export )?(?:class|namespace|enum|const|function|let) (\w+)/gm)) void vscode[m[1]];
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === 'vscode') return vscode;
  return load.call(this, request, parent, isMain);
};
const before = new Set(process.moduleLoadList);
const t0 = process.hrtime.bigint();
const ext = require(path.join(process.argv[1], 'dist', 'extension.js'));
const t1 = process.hrtime.bigint();
// A real ExtensionContext's shape (paths are strings, state is a Memento, secrets a SecretStorage): with a
// bare stub, activate() threw on its first path and the figure measured a failure.
const os = require('node:os');
const tmp = require('node:fs').mkdtempSync(path.join(os.tmpdir(), 'activation-bench-'));
const uri = (p) => ({ scheme: 'file', fsPath: p, path: p, toString: () => 'file://' + p, with: () => uri(p) });
const memento = () => { const m = new Map(); return { get: (k, d) => (m.has(k) ? m.get(k) : d), update: async (k, v) => void m.set(k, v), keys: () => [...m.keys()], setKeysForSync() {} }; };
const event = () => () => ({ dispose() {} });
const context = {
  subscriptions: [],
  extensionPath: process.argv[1],
  extensionUri: uri(process.argv[1]),
  globalStorageUri: uri(path.join(tmp, 'global')),
  globalStoragePath: path.join(tmp, 'global'),
  storageUri: uri(path.join(tmp, 'workspace')),
  storagePath: path.join(tmp, 'workspace'),
  logUri: uri(path.join(tmp, 'log')),
  logPath: path.join(tmp, 'log'),
  extensionMode: 3,
  globalState: memento(),
  workspaceState: memento(),
  secrets: { get: async () => undefined, store: async () => {}, delete: async () => {}, keys: async () => [], onDidChange: event() },
  environmentVariableCollection: stub(),
  extension: { id: 'compute-toolkit.compute-toolkit', extensionPath: process.argv[1], extensionUri: uri(process.argv[1]), packageJSON: require(path.join(process.argv[1], 'package.json')) },
  asAbsolutePath: (p) => path.join(process.argv[1], p),
  languageModelAccessInformation: { onDidChange: event(), canSendRequest: () => undefined },
};
let activateError = null;
try { ext.activate(context); } catch (error) { activateError = String(error && error.stack || error); }
const t2 = process.hrtime.bigint();
const loaded = process.moduleLoadList.filter((m) => !before.has(m) && m.startsWith('NativeModule ')).map((m) => m.slice(13));
const vendor = Object.keys(require.cache).filter((file) => file.includes(path.sep + 'vendor' + path.sep)).map((file) => path.basename(file, '.js'));
// activate() starts the watchers' timers, as in VS Code: leave once the figures are written.
process.stdout.write(JSON.stringify({ requireMs: Number(t1 - t0) / 1e6, activateMs: Number(t2 - t1) / 1e6, loaded, vendor, activateError }), () => process.exit(0));
`;

interface ChildResult {
  requireMs: number;
  activateMs: number;
  loaded: string[];
  /** The dist/vendor libraries activation pulled in (none is the goal: they load on first use). */
  vendor: string[];
  activateError: string | null;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function fmt(values: number[]): string {
  return `${median(values).toFixed(1)} [${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}]`;
}

export async function runActivationBench(rounds = 9): Promise<void> {
  const bundle = join(root, 'dist', 'extension.js');
  if (!existsSync(bundle)) {
    console.log('activation: dist/extension.js missing — run `npm run build` first');
    return;
  }
  const results: ChildResult[] = [];
  for (let round = 0; round < rounds + 1; round++) {
    const child = spawnSync(process.execPath, ['-e', childSource, root], { encoding: 'utf8', timeout: 60_000 });
    if (child.status !== 0) throw new Error(`activation child failed: ${child.stderr}`);
    if (round > 0) results.push(JSON.parse(child.stdout) as ChildResult); // first round warms the disk cache
  }
  const failed = results.find((r) => r.activateError);
  if (failed) {
    // A figure for an activation that threw measures the failure, not the extension: refuse to report it.
    console.log(`activate() threw under the stand-in context, so there is no activation figure:\n${failed.activateError}`);
    process.exitCode = 1;
    return;
  }
  const heavy = ['net', 'tls', 'http2', 'zlib', 'http', 'https'];
  const loaded = results[0]?.loaded ?? [];
  const heavyLoaded = loaded.filter((name) => heavy.some((h) => name === h || name.startsWith(`internal/${h}`)));
  console.log('\n## Activation and bundle size');
  console.log(`require(dist/extension.js): ${fmt(results.map((r) => r.requireMs))} ms   activate(): ${fmt(results.map((r) => r.activateMs))} ms  (median [min–max], ${rounds} fresh processes)`);
  console.log(`built-ins loaded by require + activate: ${loaded.length} (${loaded.slice(0, 12).join(', ')}${loaded.length > 12 ? ', …' : ''})`);
  const vendor = results[0]?.vendor ?? [];
  console.log(`large libraries (dist/vendor) loaded at activation: ${vendor.length === 0 ? 'none' : vendor.join(', ')}`);
  console.log(`HTTP stack loaded at activation: ${heavyLoaded.length === 0 ? 'no (lazy until first use)' : `YES: ${heavyLoaded.join(', ')}`}`);
  for (const file of ['dist/extension.js', 'dist/vendor/undici.js', 'dist/vendor/ssh2.js', 'dist/vendor/yaml.js', 'dist/vendor/ajv.js', 'dist/webview/chat.js']) {
    const path = join(root, file);
    if (!existsSync(path)) continue;
    const size = statSync(path).size;
    const gz = gzipSync(readFileSync(path), { level: 9 }).length;
    console.log(`${file}: ${(size / 1024).toFixed(1)} KiB (gzip ${(gz / 1024).toFixed(1)} KiB)`);
  }
}

if (require.main === module) {
  runActivationBench().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
