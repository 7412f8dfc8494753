// MCP server cold start: spawn `node dist/mcp.js` → `tools/list` answered, as a ratio to spawning
// `node -e 0` (process start and exit), measured interleaved in one process. Goal: ≤ 3×.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const RUNS = 9;
const GOAL_RATIO = 3;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** Milliseconds from spawn until the process exits. */
function nodeBaseline(): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve(performance.now() - start));
  });
}

/** Milliseconds from spawn until the answer to tools/list arrives (initialize handshake included). */
function mcpColdStart(bundle: string): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle], {
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { PATH: process.env['PATH'] ?? '', COMPUTE_TOOLKIT_TOKEN: 'bench-token', COMPUTE_TOOLKIT_BASE_URL: 'http://127.0.0.1:9' },
    });
    child.on('error', reject);
    let buffered = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      buffered += text;
      if (buffered.includes('"id":2')) {
        const elapsed = performance.now() - start;
        child.kill();
        resolve(elapsed);
      }
    });
    const send = (message: unknown): boolean => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  });
}

export async function runMcpBench(): Promise<void> {
  const bundle = join(root, 'dist', 'mcp.js');
  console.log('\n== MCP server cold start (spawn → tools/list answered) ==');
  if (!existsSync(bundle)) {
    console.log(`  dist/mcp.js is missing: run \`node esbuild.js --production\` first`);
    return;
  }
  const baseline: number[] = [];
  const server: number[] = [];
  await nodeBaseline(); // warm the file cache
  await mcpColdStart(bundle);
  for (let run = 0; run < RUNS; run++) {
    baseline.push(await nodeBaseline());
    server.push(await mcpColdStart(bundle));
  }
  const ratio = median(server) / median(baseline);
  console.log(`  node -e 0:          ${median(baseline).toFixed(1)} ms (median of ${RUNS})`);
  console.log(`  dist/mcp.js:        ${median(server).toFixed(1)} ms`);
  console.log(`  ratio ${ratio.toFixed(2)}× (goal ≤ ${GOAL_RATIO}×) ${ratio <= GOAL_RATIO ? 'ok' : 'OVER GOAL'}`);
}
