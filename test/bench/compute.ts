// Signing and encryption cost of the compute client, side by side in one process (docs/budgets.md).
// Cases run round-robin; each number is CPU time per operation, median [min–max] over the rounds, and
// each ratio is taken within a round (so machine noise hits both sides) and then summarised the same way.
// Goals (docs/budgets.md): a signed request's CPU ≤ 1.10× one raw crypto.sign with a cached KeyObject;
// a 64 KB body encryption ≤ 1.10× the raw publicEncrypt loop. The PEM-per-call case shows why we cache.
// Run: npm run compile-tests && node out/test/bench/compute.js   (or via the bench runner: runComputeBench()).

import * as crypto from 'node:crypto';
import type { TaskCreateBody } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import { encryptBody, encryptBodyAsync } from '../../src/core/compute/encryption';
import { stringToSign } from '../../src/core/compute/signing';
import { WHOLE_CLOCK } from '../../src/core/compute/timestampSlots';

const ROUNDS = 11;
const WARMUP_ROUNDS = 1;
const SIGN_BATCH = 120;
const PEM_BATCH = 40;
const ENCRYPT_BATCH = 8;
const SEGMENT = 244;
const GOAL = 1.1;

type Case = () => Promise<number>; // returns µs per operation

interface Summary {
  median: number;
  min: number;
  max: number;
}

function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  return { median: middle, min: sorted[0] ?? Number.NaN, max: sorted[sorted.length - 1] ?? Number.NaN };
}

/**
 * CPU time (user + system, µs) per operation. CPU rather than wall time: on a shared 2-vCPU machine
 * wall time mostly measures how often we were descheduled, which says nothing about our code.
 */
function cpuMicros(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

async function timePerOp(count: number, op: () => unknown): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) await op();
  return cpuMicros(start) / count;
}

function timePerOpSync(count: number, op: () => unknown): number {
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) op();
  return cpuMicros(start) / count;
}

/** A task-create body of about `bytes` bytes of compact JSON (non-ASCII included). */
function createBody(bytes: number): TaskCreateBody {
  const body: TaskCreateBody = {
    task_name: '推理服务-bench',
    points: 1,
    resources: [
      {
        mark: 'm'.repeat(64),
        region_name: '河北一区',
        resource: { device_name: 'H20 x 8', region: 'hebeif-1', gpu_name: 'H20', gpu_count: 8, gpu_memory: 786432, memory: 1572864, cpu_cores: 192 },
      },
    ],
    services: [{ service_name: 'web', service_image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0', remote_ports: [{ service_port: 80 }], env: '' }],
  };
  const filler = Math.max(0, bytes - Buffer.byteLength(JSON.stringify(body)));
  const service = body.services[0];
  if (service) service.env = 'E'.repeat(filler);
  return body;
}

/** The minimal encryption: one publicEncrypt per 244-byte segment, concatenate, Base64. */
function rawEncryptLoop(plaintext: string, key: crypto.KeyObject): string {
  const bytes = Buffer.from(plaintext, 'utf8');
  const blocks: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += SEGMENT) {
    blocks.push(crypto.publicEncrypt({ key, padding: crypto.constants.RSA_PKCS1_PADDING }, bytes.subarray(offset, offset + SEGMENT)));
  }
  return Buffer.concat(blocks).toString('base64');
}

function format(summary: Summary, digits = 0): string {
  return `${summary.median.toFixed(digits)} [${summary.min.toFixed(digits)}–${summary.max.toFixed(digits)}]`;
}

export async function runComputeBench(): Promise<void> {
  const client = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const platform = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyPem = client.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const credentials = {
    mode: 'rsa' as const,
    token: 'tok_bench_0123456789abcdef',
    privateKey: privateKeyPem,
    platformPublicKey: platform.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
  const computeClient = createComputeClient({ baseUrl: 'https://openapi.suanli.cn', credentials: async () => credentials });
  // The same without the cross-process timestamp partition, to show what the partition costs per request.
  const wholeClockClient = createComputeClient({ baseUrl: 'https://openapi.suanli.cn', credentials: async () => credentials, timestampPartition: () => WHOLE_CLOCK });

  // ~1 KB string to sign, (1,063 B, as the baseline in docs/budgets.md).
  const signBody = createBody(1000);
  const sampleText = stringToSign({
    path: '/api/deployment/task/create',
    version: '1.0.0',
    timestamp: String(Date.now()),
    token: credentials.token,
    body: JSON.stringify(signBody),
  });
  const sampleBytes = Buffer.from(sampleText, 'utf8');
  const plaintext64k = JSON.stringify(createBody(64 * 1024));
  const platformKey = platform.publicKey;
  // Check the cases compute the same thing before timing them.
  const built = await computeClient.build('task.create', signBody);
  if (!crypto.verify('sha256', Buffer.from(built.stringToSign ?? '', 'utf8'), client.publicKey, Buffer.from(built.signature ?? '', 'base64'))) {
    throw new Error('bench: the client signature does not verify');
  }

  const signCases: Record<string, Case> = {
    'raw crypto.sign, cached KeyObject': async () => timePerOpSync(SIGN_BATCH, () => crypto.sign('sha256', sampleBytes, client.privateKey)),
    'client build+sign (the call path)': () => timePerOp(SIGN_BATCH, () => computeClient.build('task.create', signBody)),
    'client build+sign, no process partition': () => timePerOp(SIGN_BATCH, () => wholeClockClient.build('task.create', signBody)),
    'client prepare() (+ display, self-verify)': () => timePerOp(SIGN_BATCH, () => computeClient.prepare('task.create', signBody)),
    'naive: PEM string parsed per call': async () => timePerOpSync(PEM_BATCH, () => crypto.sign('sha256', sampleBytes, privateKeyPem)),
  };
  const encryptCases: Record<string, Case> = {
    'raw publicEncrypt loop': async () => timePerOpSync(ENCRYPT_BATCH, () => rawEncryptLoop(plaintext64k, platformKey)),
    'encryptBody (sync)': async () => timePerOpSync(ENCRYPT_BATCH, () => encryptBody(plaintext64k, platformKey)),
    'encryptBodyAsync (client path)': () => timePerOp(ENCRYPT_BATCH, () => encryptBodyAsync(plaintext64k, platformKey)),
  };

  const results = new Map<string, number[]>();
  const cases: [string, Case][] = [...Object.entries(signCases), ...Object.entries(encryptCases)];
  for (let round = -WARMUP_ROUNDS; round < ROUNDS; round++) {
    for (const [name, run] of cases) {
      const value = await run();
      if (round >= 0) results.set(name, [...(results.get(name) ?? []), value]);
    }
  }

  const ratios = (name: string, baseline: string): Summary => {
    const values = results.get(name) ?? [];
    const base = results.get(baseline) ?? [];
    return summarize(values.map((value, i) => value / (base[i] ?? Number.NaN)));
  };
  const table = (title: string, unit: string, scale: number, names: string[], baseline: string, goalFor: string): boolean => {
    console.log(`\n${title}`);
    console.log(`  ${'case'.padEnd(44)}${unit.padEnd(26)}× ${baseline}`);
    let met = true;
    for (const name of names) {
      const perOp = summarize((results.get(name) ?? []).map((v) => v / scale));
      const ratio = ratios(name, baseline);
      const goal = name === goalFor ? (ratio.median <= GOAL ? `  goal ≤ ${GOAL}× met` : `  goal ≤ ${GOAL}× MISSED`) : '';
      if (name === goalFor) met = ratio.median <= GOAL;
      console.log(`  ${name.padEnd(44)}${format(perOp, scale === 1 ? 0 : 2).padEnd(26)}${format(ratio, 3)}${goal}`);
    }
    return met;
  };

  console.log(`compute bench: Node ${process.version}, RSA-2048, ${ROUNDS} rounds after ${WARMUP_ROUNDS} warm-up, median [min–max]`);
  table('Signing a ~1 KB request (no network)', 'µs/op', 1, Object.keys(signCases), 'raw crypto.sign, cached KeyObject', 'client build+sign (the call path)');
  table('Encrypting a 64 KB body (269 segments)', 'ms/body', 1000, Object.keys(encryptCases), 'raw publicEncrypt loop', 'encryptBodyAsync (client path)');
}

if (require.main === module) {
  runComputeBench().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
