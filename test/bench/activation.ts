// Activation cost and bundle size of the built extension (dist/). Runs `require(dist/extension.js)` +
// `activate()` in fresh Node processes under a minimal `vscode` stand-in (activationProbe.ts; a benchmark
// harness, not a test: the real-VS-Code suites prove behaviour), and lists the Node built-ins and the
// dist/vendor libraries that activation pulled in — the HTTP stack (net/tls/http2/zlib) and the large
// libraries must not load until first use.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ActivationProbeResult } from './activationProbe';
import { gzipSync } from 'node:zlib';

const root = join(__dirname, '..', '..', '..');

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
  const results: ActivationProbeResult[] = [];
  for (let round = 0; round < rounds + 1; round++) {
    const child = spawnSync(process.execPath, [join(__dirname, 'activationProbe.js'), root], { encoding: 'utf8', timeout: 60_000 });
    if (child.status !== 0) throw new Error(`activation child failed: ${child.stderr}`);
    if (round > 0) results.push(JSON.parse(child.stdout) as ActivationProbeResult); // first round warms the disk cache
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
