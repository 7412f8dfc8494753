// One activation in a fresh Node process, under a minimal `vscode` stand-in: `require` of the bundle, then
// `activate()` with an ExtensionContext of the real shape. Prints one JSON line (ActivationProbeResult).
// Used by the activation benchmark (timings) and by test/unit/build/activationLoads.test.ts (what
// activation loads — counted, never timed).
//   node out/test/bench/activationProbe.js <extension root> [<bundle>] [--modules]
// <extension root> holds package.json (default bundle: <root>/dist/extension.js). --modules also reports
// which of the bundle's lazily initialised modules ran (V8 function coverage; slows the run, so the
// timings of such a run are not reported).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface ActivationProbeResult {
  requireMs: number;
  activateMs: number;
  /** CPU time (user + system) of require + activate: steadier than wall time on a shared machine. */
  cpuMs: number;
  /** Node built-ins loaded by require + activate. */
  loaded: string[];
  /** The dist/vendor libraries activation required (none is the goal: they load on first use). */
  vendor: string[];
  activateError: string | null;
  /** With --modules: the names of the bundle's wrapped modules (esbuild `__esm` / `__commonJS`) that ran. */
  initialised?: string[];
}

type Stub = Record<PropertyKey, unknown>;
const handler: ProxyHandler<Stub> = {
  get(target, prop) {
    if (prop === 'then') return undefined; // not a thenable
    if (prop === Symbol.iterator) return function* () {};
    if (prop === Symbol.toPrimitive) return () => '';
    if (prop === 'prototype') return target.prototype;
    if (prop === 'get') return (_key: string, fallback: unknown) => fallback;
    if (prop === 'subscriptions') return (target.subscriptions ??= []);
    if (!(prop in target)) target[prop] = stub();
    return target[prop];
  },
  set(target, prop, value) {
    Object.defineProperty(target, prop, { value, writable: true, configurable: true });
    return true;
  },
  apply: () => stub(),
  construct: () => stub(),
};

/** Any property, call or construction of the stand-in gives another stand-in. */
function stub(): Stub {
  return new Proxy(function () {} as unknown as Stub, handler);
}

interface CoverageSession {
  connect(): void;
  post(method: string, params?: object, callback?: (error: Error | null, result: unknown) => void): void;
}

function main(): void {
  const root = resolve(process.argv[2] ?? '.');
  const bundle = resolve(process.argv[3] && !process.argv[3].startsWith('--') ? process.argv[3] : join(root, 'dist', 'extension.js'));
  const modules = process.argv.includes('--modules');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Module = require('node:module') as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };

  // esbuild's __toESM copies only own property names, so pre-create every top-level export of the API.
  const vscode = stub();
  const dts = readFileSync(require.resolve('@types/vscode/index.d.ts'), 'utf8');
  for (const m of dts.matchAll(/^\t(?:export )?(?:class|namespace|enum|const|function|let) (\w+)/gm)) void vscode[m[1] as string];
  const vendor: string[] = [];
  const load = Module._load;
  Module._load = function (request, parent, isMain) {
    if (request === 'vscode') return vscode;
    const library = /^\.\/vendor\/([\w-]+)\.js$/.exec(request)?.[1];
    if (library && !vendor.includes(library)) vendor.push(library);
    return load.call(this, request, parent, isMain);
  };

  let session: CoverageSession | undefined;
  if (modules) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const inspector = require('node:inspector') as { Session: new () => CoverageSession };
    session = new inspector.Session();
    session.connect();
    session.post('Profiler.enable');
    session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  }

  const before = new Set((process as unknown as { moduleLoadList: string[] }).moduleLoadList);
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ext = require(bundle) as { activate(context: unknown): unknown };
  const t1 = process.hrtime.bigint();
  // A real ExtensionContext's shape (paths are strings, state is a Memento, secrets a SecretStorage): with a
  // bare stub, activate() threw on its first path and the figure measured a failure.
  const tmp = mkdtempSync(join(tmpdir(), 'activation-bench-'));
  const uri = (p: string): object => ({ scheme: 'file', fsPath: p, path: p, toString: () => `file://${p}`, with: () => uri(p) });
  const memento = () => {
    const m = new Map<string, unknown>();
    return { get: (k: string, d?: unknown) => (m.has(k) ? m.get(k) : d), update: async (k: string, v: unknown) => void m.set(k, v), keys: () => [...m.keys()], setKeysForSync() {} };
  };
  const event = () => () => ({ dispose() {} });
  const context = {
    subscriptions: [],
    extensionPath: root,
    extensionUri: uri(root),
    globalStorageUri: uri(join(tmp, 'global')),
    globalStoragePath: join(tmp, 'global'),
    storageUri: uri(join(tmp, 'workspace')),
    storagePath: join(tmp, 'workspace'),
    logUri: uri(join(tmp, 'log')),
    logPath: join(tmp, 'log'),
    extensionMode: 3,
    globalState: memento(),
    workspaceState: memento(),
    secrets: { get: async () => undefined, store: async () => {}, delete: async () => {}, keys: async () => [], onDidChange: event() },
    environmentVariableCollection: stub(),
    extension: { id: 'compute-toolkit.compute-toolkit', extensionPath: root, extensionUri: uri(root), packageJSON: JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as unknown },
    asAbsolutePath: (p: string) => join(root, p),
    languageModelAccessInformation: { onDidChange: event(), canSendRequest: () => undefined },
  };
  let activateError: string | null = null;
  try {
    ext.activate(context);
  } catch (error) {
    activateError = String((error as Error | undefined)?.stack ?? error);
  }
  const t2 = process.hrtime.bigint();
  const cpu = process.cpuUsage(cpu0);
  const loaded = (process as unknown as { moduleLoadList: string[] }).moduleLoadList
    .filter((m) => !before.has(m) && m.startsWith('NativeModule '))
    .map((m) => m.slice('NativeModule '.length));
  const result: ActivationProbeResult = { requireMs: Number(t1 - t0) / 1e6, activateMs: Number(t2 - t1) / 1e6, cpuMs: (cpu.user + cpu.system) / 1e3, loaded, vendor, activateError };
  if (session) {
    session.post('Profiler.takePreciseCoverage', {}, (error, coverage) => {
      if (error) throw error;
      const script = (coverage as { result: { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[] }).result
        .find((entry) => entry.url === bundle || entry.url === pathToFileURL(bundle).href);
      // A wrapped module's initialiser is a method named by its path (`"src/core/specs/validate.ts"() {…}`).
      result.initialised = (script?.functions ?? [])
        .filter((fn) => /^(src\/|node_modules\/|vendor:)/.test(fn.functionName) && (fn.ranges[0]?.count ?? 0) > 0)
        .map((fn) => fn.functionName);
    });
  }
  // activate() starts the watchers' timers, as in VS Code: leave once the figures are written.
  process.stdout.write(JSON.stringify(result), () => {
    rmSync(tmp, { recursive: true, force: true });
    process.exit(0);
  });
}

main();
