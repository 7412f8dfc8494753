// Builds the MCP server bundle for tests from the same esbuild target as dist/mcp.js, into a temporary
// folder, so `npm test -- --quick` (which skips the build step) still tests the current source.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

interface Target {
  outfile: string;
  [option: string]: unknown;
}

export async function buildMcpBundle(): Promise<string> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the build script is CommonJS
  const { targets } = require(path.join(REPO_ROOT, 'esbuild.js')) as { targets: Target[] };
  const target = targets.find((candidate) => candidate.outfile === 'dist/mcp.js');
  if (!target) throw new Error('esbuild.js has no dist/mcp.js target');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- esbuild is a dev dependency
  const esbuild = require('esbuild') as { build(options: Record<string, unknown>): Promise<unknown> };
  const outfile = path.join(mkdtempSync(path.join(tmpdir(), 'compute-toolkit-mcp-')), 'mcp.js');
  await esbuild.build({ ...target, plugins: [], absWorkingDir: REPO_ROOT, outfile, sourcemap: false, logLevel: 'error' });
  return outfile;
}
