// Activation cost and bundle size of the built extension (dist/). Runs `require(dist/extension.js)` +
// `activate()` in fresh Node processes under a minimal `vscode` stand-in (activationProbe.ts; a benchmark
// harness, not a test: the real-VS-Code suites prove behaviour), and lists the Node built-ins and the
// dist/vendor libraries that activation pulled in — the HTTP stack (net/tls/http2/zlib) and the large
// libraries must not load until first use.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import type { ActivationProbeResult } from './activationProbe';

const root = join(__dirname, '..', '..', '..');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function fmt(values: number[]): string {
  return `${median(values).toFixed(1)} [${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}]`;
}

/** One activation of the checkout at `checkout` (its dist/extension.js) in a fresh process. */
function probe(checkout: string, extra: string[] = []): ActivationProbeResult {
  const child = spawnSync(process.execPath, [join(__dirname, 'activationProbe.js'), checkout, ...extra], { encoding: 'utf8', timeout: 60_000 });
  if (child.status !== 0) throw new Error(`activation child failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as ActivationProbeResult;
}

const total = (r: ActivationProbeResult): number => r.requireMs + r.activateMs;

/**
 * Runs activation `rounds` times (after one round that warms the disk cache). With a baseline checkout
 * (COMPUTE_TOOLKIT_BENCH_BASELINE: another checkout with its own `node esbuild.js --production` build) the
 * two alternate round by round, so a busy shared machine slows both alike, and the ratio is printed.
 */
export async function runActivationBench(rounds = 9, baseline = process.env.COMPUTE_TOOLKIT_BENCH_BASELINE): Promise<void> {
  const bundle = join(root, 'dist', 'extension.js');
  if (!existsSync(bundle)) {
    console.log('activation: dist/extension.js missing — run `npm run build` first');
    return;
  }
  if (baseline && !existsSync(join(baseline, 'dist', 'extension.js'))) {
    console.log(`activation: ${baseline}/dist/extension.js missing — build the baseline checkout first`);
    return;
  }
  const results: ActivationProbeResult[] = [];
  const baseResults: ActivationProbeResult[] = [];
  for (let round = 0; round < rounds + 1; round++) {
    const result = probe(root);
    const base = baseline ? probe(baseline) : undefined;
    if (round === 0) continue; // the first round warms the disk cache
    results.push(result);
    if (base) baseResults.push(base);
  }
  const failed = [...results, ...baseResults].find((r) => r.activateError);
  if (failed) {
    // A figure for an activation that threw measures the failure, not the extension: refuse to report it.
    console.log(`activate() threw under the stand-in context, so there is no activation figure:\n${failed.activateError}`);
    process.exitCode = 1;
    return;
  }
  console.log('\n## Activation and bundle size');
  console.log(`require(dist/extension.js): ${fmt(results.map((r) => r.requireMs))} ms   activate(): ${fmt(results.map((r) => r.activateMs))} ms  (median [min–max], ${rounds} fresh processes)`);
  console.log(`require + activate: ${fmt(results.map(total))} ms wall, ${fmt(results.map((r) => r.cpuMs))} ms CPU (goal ≤ 50 ms on a quiet machine)`);
  if (baseResults.length > 0) {
    console.log(`baseline ${baseline}: require + activate ${fmt(baseResults.map(total))} ms wall, ${fmt(baseResults.map((r) => r.cpuMs))} ms CPU; vendor files at activation: ${baseResults[0]?.vendor.join(', ') || 'none'}`);
    console.log(`this build / baseline (medians): ${(median(results.map(total)) / median(baseResults.map(total))).toFixed(2)} wall, ${(median(results.map((r) => r.cpuMs)) / median(baseResults.map((r) => r.cpuMs))).toFixed(2)} CPU`);
  }
  const heavy = ['net', 'tls', 'http2', 'zlib', 'http', 'https'];
  const loaded = results[0]?.loaded ?? [];
  const heavyLoaded = loaded.filter((name) => heavy.some((h) => name === h || name.startsWith(`internal/${h}`)));
  console.log(`built-ins loaded by require + activate: ${loaded.length} (${loaded.slice(0, 12).join(', ')}${loaded.length > 12 ? ', …' : ''})`);
  const vendor = results[0]?.vendor ?? [];
  console.log(`large libraries (dist/vendor) loaded at activation: ${vendor.length === 0 ? 'none' : vendor.join(', ')}`);
  console.log(`bundle modules evaluated by require + activate: ${await moduleReport()}`);
  console.log(`HTTP stack loaded at activation: ${heavyLoaded.length === 0 ? 'no (lazy until first use)' : `YES: ${heavyLoaded.join(', ')}`}`);
  for (const file of ['dist/extension.js', 'dist/vendor/undici.js', 'dist/vendor/ssh2.js', 'dist/vendor/yaml.js', 'dist/vendor/ajv.js', 'dist/webview/chat.js']) {
    const path = join(root, file);
    if (!existsSync(path)) continue;
    const size = statSync(path).size;
    const gz = gzipSync(readFileSync(path), { level: 9 }).length;
    console.log(`${file}: ${(size / 1024).toFixed(1)} KiB (gzip ${(gz / 1024).toFixed(1)} KiB)`);
  }
}

/**
 * How many of the bundle's modules activation evaluates, and their size: the extension target built
 * unminified (module names kept) into a temporary folder, one activation with --modules. A module is
 * evaluated when esbuild hoisted it (it runs as the bundle loads) or when its lazy initialiser ran.
 */
async function moduleReport(): Promise<string> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { targets } = require(join(root, 'esbuild.js')) as { targets: (esbuild.BuildOptions & { outfile: string })[] };
  const target = targets.find((candidate) => candidate.outfile === 'dist/extension.js');
  if (!target) return 'no dist/extension.js target in esbuild.js';
  const folder = mkdtempSync(join(tmpdir(), 'activation-modules-'));
  try {
    const outfile = join(folder, 'dist', 'extension.js');
    mkdirSync(join(folder, 'dist'));
    symlinkSync(join(root, 'dist', 'vendor'), join(folder, 'dist', 'vendor'));
    const built = await esbuild.build({ ...target, absWorkingDir: root, outfile, minify: false, sourcemap: false, metafile: true, logLevel: 'silent' });
    const text = readFileSync(outfile, 'utf8');
    const initialised = new Set(probe(root, [outfile, '--modules']).initialised ?? []);
    const inputs = Object.entries(Object.values(built.metafile.outputs)[0]?.inputs ?? {}).filter(([, input]) => input.bytesInOutput > 0);
    const evaluated = inputs.filter(([name]) => !text.includes(`${JSON.stringify(name)}(`) || initialised.has(name));
    const kib = (list: typeof inputs) => (list.reduce((sum, [, input]) => sum + input.bytesInOutput, 0) / 1024).toFixed(0);
    return `${evaluated.length} of ${inputs.length} modules (${kib(evaluated)} of ${kib(inputs)} KiB unminified)`;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

if (require.main === module) {
  runActivationBench().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
