// Two real processes of one user (two VS Code windows on one profile) fire 50 signed requests each
// at the same moment with the same RSA-mode token against the strict sandbox, which refuses a
// timestamp used twice. Before timestamps were partitioned across processes about half were refused.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TIMESTAMP_SLOTS } from '../../src/core/compute/timestampSlots';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';

const PER_PROCESS = 50;

interface BurstResult {
  ok: number;
  failed: string[];
}

interface Burst {
  /** Resolves once the process has warmed up and waits for the start moment. */
  ready: Promise<void>;
  start(at: number): void;
  result: Promise<BurstResult>;
}

/** `env`: variables the child gets on top of this process's (a TMPDIR of its own). */
function runBurst(input: unknown, env: Record<string, string> = {}): Burst {
  const child = spawn(process.execPath, [join(__dirname, 'helpers', 'timestampBurst.js')], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    if (out.startsWith('ready\n')) markReady();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const result = new Promise<BurstResult>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`burst process exited with ${String(code)}: ${err}`));
      else resolve(JSON.parse(out.slice('ready\n'.length)) as BurstResult);
    });
  });
  child.stdin.write(`${JSON.stringify(input)}\n`);
  return { ready: Promise.race([ready, result.then(() => undefined)]), start: (at) => child.stdin.end(`${at}\n`), result };
}

describe('timestamps across processes', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0 });
  });
  after(() => sandbox.close());

  // The second case: an MCP client, a terminal or a test harness starts a process of the same user with a
  // TMPDIR of its own; the slot folder must not depend on it (the browser check that made this visible sent
  // a request from the test process while the extension host, under another TMPDIR, polled: both held slot 0).
  const cases: { title: string; env: (index: number) => Record<string, string> }[] = [
    { title: 'two processes firing 50 signed requests each at once: none refused, every timestamp distinct', env: () => ({}) },
    {
      title: 'the same with a different TMPDIR for each process: still one slot each, none refused',
      env: () => ({ TMPDIR: mkdtempSync(join(tmpdir(), 'ts-own-tmp-')) }),
    },
  ];
  for (const { title, env } of cases) it(title, async () => {
    const rsa = sandbox.credentials.rsaMode;
    const input = {
      baseUrl: sandbox.computeBaseUrl,
      credentials: { mode: 'rsa', token: rsa.token, privateKey: rsa.privateKeyPem, platformPublicKey: rsa.platformPublicKeyPem },
      count: PER_PROCESS,
    };
    const before = sandbox.requests.length;
    // Both processes warm up first, however long a busy machine takes; then they get one start moment.
    const bursts = [runBurst(input, env(0)), runBurst(input, env(1))];
    await Promise.all(bursts.map((burst) => burst.ready));
    const startAt = Date.now() + 200;
    for (const burst of bursts) burst.start(startAt);
    const results = await Promise.all(bursts.map((burst) => burst.result));
    assert.deepEqual(results.map((result) => result.failed), [[], []], 'no request refused');
    assert.deepEqual(results.map((result) => result.ok), [PER_PROCESS, PER_PROCESS]);

    const burst = sandbox.requests.slice(before).filter((request) => request.path.startsWith('/api/deployment/task/search') && request.headers.token === rsa.token);
    assert.equal(burst.length, 2 * PER_PROCESS);
    const timestamps = burst.map((request) => Number(request.headers.timestamp));
    assert.equal(new Set(timestamps).size, timestamps.length, 'every timestamp distinct');

    // Each process keeps to its own residue: two classes of 50. Both fire at one start moment; a process
    // whose slot's last holder ran ahead starts after that holder's values (timestampSlots.ts `.after`).
    const byResidue = new Map<number, number[]>();
    for (const timestamp of timestamps) byResidue.set(timestamp % TIMESTAMP_SLOTS, [...(byResidue.get(timestamp % TIMESTAMP_SLOTS) ?? []), timestamp]);
    assert.deepEqual([...byResidue.values()].map((values) => values.length), [PER_PROCESS, PER_PROCESS]);
  });
});
