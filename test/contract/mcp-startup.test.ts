// The built MCP server (the dist/mcp.js esbuild target) started with each kind of bad configuration, as
// an MCP client starts it: every startup failure is one line on stderr naming the variable, never its
// value, with exit code 2 and no stack trace or source dump (issue 18: a base URL with a query string
// used to pass validation and crash with exit 1 and 25 KB of minified source).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { buildMcpBundle } from '../helpers/mcpBundle';

interface Ended {
  code: number | null;
  stderr: string;
  stdout: string;
}

function start(bundle: string, env: Record<string, string>): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle], { env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stderr, stdout }));
    // A server that did start waits for its client: closing stdin ends it (with code 0, which fails below).
    child.stdin.end();
  });
}

const TOKEN = `tok-${Math.random().toString(36).slice(2)}-startup`;
const LOOPBACK = 'http://127.0.0.1:9';

describe('MCP server startup with a bad configuration (built bundle, spawned)', () => {
  let bundle: string;
  let dir: string;
  before(async () => {
    bundle = await buildMcpBundle();
    dir = mkdtempSync(path.join(tmpdir(), 'mcp-startup-'));
  });

  /** [what, environment, variable the line must name, values it must not contain] */
  const cases: () => [string, Record<string, string>, string, string[]][] = () => {
    const bigFile = path.join(dir, 'big.pem');
    writeFileSync(bigFile, 'A'.repeat(200 * 1024));
    return [
      ['base URL with a query string', { COMPUTE_TOOLKIT_TOKEN: TOKEN, COMPUTE_TOOLKIT_BASE_URL: `${LOOPBACK}/?sig=q1secretq1` }, 'COMPUTE_TOOLKIT_BASE_URL', ['q1secretq1']],
      ['base URL with a fragment', { COMPUTE_TOOLKIT_TOKEN: TOKEN, COMPUTE_TOOLKIT_BASE_URL: `${LOOPBACK}/#f2secretf2` }, 'COMPUTE_TOOLKIT_BASE_URL', ['f2secretf2']],
      ['base URL with credentials', { COMPUTE_TOOLKIT_TOKEN: TOKEN, COMPUTE_TOOLKIT_BASE_URL: 'https://u3name3u:p3secretp3@127.0.0.1/' }, 'COMPUTE_TOOLKIT_BASE_URL', ['p3secretp3', 'u3name3u']],
      ['base URL that is not a URL', { COMPUTE_TOOLKIT_TOKEN: TOKEN, COMPUTE_TOOLKIT_BASE_URL: 'not a url x4secretx4' }, 'COMPUTE_TOOLKIT_BASE_URL', ['x4secretx4']],
      ['base URL with another scheme', { COMPUTE_TOOLKIT_TOKEN: TOKEN, COMPUTE_TOOLKIT_BASE_URL: 'ftp://127.0.0.1/s5secrets5' }, 'COMPUTE_TOOLKIT_BASE_URL', ['s5secrets5']],
      ['plain http to another machine', { COMPUTE_TOOLKIT_TOKEN: TOKEN, COMPUTE_TOOLKIT_BASE_URL: 'http://h6secreth6.invalid/' }, 'COMPUTE_TOOLKIT_BASE_URL', ['h6secreth6']],
      ['model base URL with a query string', { COMPUTE_TOOLKIT_TOKEN: TOKEN, COMPUTE_TOOLKIT_BASE_URL: LOOPBACK, COMPUTE_TOOLKIT_MODEL_BASE_URL: `${LOOPBACK}/v1?k=m7secretm7` }, 'COMPUTE_TOOLKIT_MODEL_BASE_URL', ['m7secretm7']],
      ['unknown mode', { COMPUTE_TOOLKIT_TOKEN: TOKEN, COMPUTE_TOOLKIT_BASE_URL: LOOPBACK, COMPUTE_TOOLKIT_MODE: 'hmac8secret8' }, 'COMPUTE_TOOLKIT_MODE', ['hmac8secret8']],
      ['no token', { COMPUTE_TOOLKIT_BASE_URL: LOOPBACK }, 'COMPUTE_TOOLKIT_TOKEN', []],
      ['token with CR/LF', { COMPUTE_TOOLKIT_TOKEN: `${TOKEN}\r\nX-Injected: 1`, COMPUTE_TOOLKIT_BASE_URL: LOOPBACK }, 'COMPUTE_TOOLKIT_TOKEN', [TOKEN, 'Injected']],
      ['token not ASCII', { COMPUTE_TOOLKIT_TOKEN: `${TOKEN}令牌`, COMPUTE_TOOLKIT_BASE_URL: LOOPBACK }, 'COMPUTE_TOOLKIT_TOKEN', [TOKEN]],
      ['model API key with LF', { COMPUTE_TOOLKIT_TOKEN: TOKEN, COMPUTE_TOOLKIT_BASE_URL: LOOPBACK, COMPUTE_TOOLKIT_MODEL_API_KEY: 'sk-k9secretk9\nx' }, 'COMPUTE_TOOLKIT_MODEL_API_KEY', ['k9secretk9', TOKEN]],
      ['a 120 kB private key', { COMPUTE_TOOLKIT_TOKEN: TOKEN, COMPUTE_TOOLKIT_BASE_URL: LOOPBACK, COMPUTE_TOOLKIT_MODE: 'rsa', COMPUTE_TOOLKIT_PRIVATE_KEY: `${'abcdefgh'.repeat(15 * 1024)} x` }, 'COMPUTE_TOOLKIT_PRIVATE_KEY', ['abcdefghabcdefgh', TOKEN]],
      ['a private key file too large to be a key', { COMPUTE_TOOLKIT_TOKEN: TOKEN, COMPUTE_TOOLKIT_BASE_URL: LOOPBACK, COMPUTE_TOOLKIT_MODE: 'rsa', COMPUTE_TOOLKIT_PRIVATE_KEY_FILE: bigFile }, 'COMPUTE_TOOLKIT_PRIVATE_KEY_FILE', ['AAAAAAAA', TOKEN]],
      ['a private key file that is a folder', { COMPUTE_TOOLKIT_TOKEN: TOKEN, COMPUTE_TOOLKIT_BASE_URL: LOOPBACK, COMPUTE_TOOLKIT_MODE: 'rsa', COMPUTE_TOOLKIT_PRIVATE_KEY_FILE: dir }, 'COMPUTE_TOOLKIT_PRIVATE_KEY_FILE', [TOKEN]],
      ['allow-writes not 0 or 1', { COMPUTE_TOOLKIT_TOKEN: TOKEN, COMPUTE_TOOLKIT_BASE_URL: LOOPBACK, COMPUTE_TOOLKIT_ALLOW_WRITES: 'yes-w0secretw0' }, 'COMPUTE_TOOLKIT_ALLOW_WRITES', ['w0secretw0']],
    ];
  };

  it('each bad configuration: exit code 2, one line naming the variable, never its value, no stack', { timeout: 300_000 }, async () => {
    for (const [what, env, variable, hidden] of cases()) {
      const ended = await start(bundle, env);
      assert.equal(ended.code, 2, `${what}: exit code ${String(ended.code)}; stderr: ${ended.stderr.slice(0, 300)}`);
      assert.equal(ended.stdout, '', `${what}: nothing on stdout (the protocol channel)`);
      const lines = ended.stderr.split('\n');
      assert.equal(lines.length, 2, `${what}: one line and its newline: ${JSON.stringify(ended.stderr.slice(0, 600))}`);
      assert.equal(lines[1], '');
      const line = lines[0] ?? '';
      assert.match(line, /^Compute Toolkit MCP server: invalid configuration: /, what);
      assert.ok(line.includes(variable), `${what}: names ${variable}: ${line}`);
      for (const value of hidden) assert.ok(!line.includes(value), `${what}: the line repeats a value: ${line}`);
      assert.ok(!/\n\s+at |node:internal|\.js:\d+/.test(ended.stderr), `${what}: no stack: ${line}`);
      assert.ok(line.length < 600, `${what}: a short line (${line.length} characters)`);
    }
  });
});
