// Two real processes of one user (two VS Code windows on one profile) fire 50 signed requests each
// at the same moment with the same RSA-mode token against the strict sandbox, which refuses a
// timestamp used twice. Before timestamps were partitioned across processes about half were refused.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
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

function runBurst(input: unknown): Promise<BurstResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(__dirname, 'helpers', 'timestampBurst.js')], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`burst process exited with ${String(code)}: ${err}`));
      else resolve(JSON.parse(out) as BurstResult);
    });
    child.stdin.end(JSON.stringify(input));
  });
}

describe('timestamps across processes', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0 });
  });
  after(() => sandbox.close());

  it('two processes firing 50 signed requests each at once: none refused, every timestamp distinct', async () => {
    const rsa = sandbox.credentials.rsaMode;
    const input = {
      baseUrl: sandbox.computeBaseUrl,
      credentials: { mode: 'rsa', token: rsa.token, privateKey: rsa.privateKeyPem, platformPublicKey: rsa.platformPublicKeyPem },
      startAt: Date.now() + 3_000,
      count: PER_PROCESS,
    };
    const results = await Promise.all([runBurst(input), runBurst(input)]);
    assert.deepEqual(results.map((result) => result.failed), [[], []], 'no request refused');
    assert.deepEqual(results.map((result) => result.ok), [PER_PROCESS, PER_PROCESS]);

    const burst = sandbox.requests.filter((request) => request.path.startsWith('/api/deployment/task/search') && request.headers.token === rsa.token);
    assert.equal(burst.length, 2 * PER_PROCESS);
    const timestamps = burst.map((request) => Number(request.headers.timestamp));
    assert.equal(new Set(timestamps).size, timestamps.length, 'every timestamp distinct');

    // Each process keeps to its own residue: two classes of 50, and the bursts overlap in time, so
    // without the partition they would have shared milliseconds.
    const byResidue = new Map<number, number[]>();
    for (const timestamp of timestamps) byResidue.set(timestamp % TIMESTAMP_SLOTS, [...(byResidue.get(timestamp % TIMESTAMP_SLOTS) ?? []), timestamp]);
    assert.deepEqual([...byResidue.values()].map((values) => values.length), [PER_PROCESS, PER_PROCESS]);
    const [first, second] = [...byResidue.values()].map((values) => [Math.min(...values), Math.max(...values)] as const);
    assert.ok(first && second && first[0] <= second[1] && second[0] <= first[1], `the bursts overlap in time: ${JSON.stringify([first, second])}`);
  });
});
