// Rented machines (issue 29, docs/machines.md) against the sandbox's SSH machine, which runs in a child
// process (sandboxProcess.ts), so this process holds only the client side:
//   connect to the first shell prompt: connectMachine (kept key, pinned host key) + a pty shell vs Debian's
//     OpenSSH `ssh -tt` with the same key and a known_hosts of the machine's host key (BatchMode); goal ≤ 1.5×.
//   a command's round trip over an open connection: SshConnection.exec vs `ssh` through a ControlMaster
//     socket (a process per command, as OpenSSH users run it); goal ≤ 1.2×.
//   Run on a machine again with 5,000 unchanged files: syncToMachine a second time vs the first, bytes the
//     client sent (counted by a loopback proxy in front of the machine) goal ≤ 1 %, time goal ≤ 0.2×.
// Ratios, not tests: printed, never asserted. Run: node out/test/bench/machines.js (or `npm run bench -- machines`).

import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createComputeClient } from '../../src/core/compute/client';
import { connectMachine, machineSftpSessions } from '../../src/core/machines';
import { syncToMachine } from '../../src/core/machines/machineRun';
import { waitUntil } from '../helpers/eventually';
import { sandboxChild } from './sandboxChild';
import { rentBenchMachine } from './sandboxMachine';

const DEVICE = 9001;
const CONNECT_ROUNDS = 5;
const EXEC_ROUNDS = 20;
const FILES = 5_000;
const PROMPT = '$ ';

function now(): number {
  return performance.now();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

function line(name: string, ours: number[], theirs: number[], goal: number, theirName: string): void {
  const [a, b] = [median(ours), median(theirs)];
  console.log(`  ${name}: ours ${a.toFixed(1)} ms, ${theirName} ${b.toFixed(1)} ms (medians of ${ours.length}; best ${Math.min(...ours).toFixed(1)} / ${Math.min(...theirs).toFixed(1)}), ratio ${(a / b).toFixed(2)}× (goal ≤ ${goal})`);
}

/** A loopback TCP proxy in front of the machine that counts the bytes each way. */
async function countingProxy(port: number): Promise<{ port: number; counts: { up: number; down: number }; close: () => Promise<void> }> {
  const counts = { up: 0, down: 0 };
  const server: Server = createServer((socket) => {
    const upstream = connect(port, '127.0.0.1');
    socket.on('data', (chunk: Buffer) => (counts.up += chunk.length));
    upstream.on('data', (chunk: Buffer) => (counts.down += chunk.length));
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
    socket.on('close', () => upstream.destroy());
    upstream.on('close', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, counts, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Resolves once `text` has appeared in what `stream` printed. */
function printed(stream: NodeJS.ReadableStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    stream.on('data', (chunk: Buffer) => {
      seen = (seen + chunk.toString('utf8')).slice(-4096);
      if (seen.includes(text)) resolve();
    });
    stream.on('end', () => reject(new Error(`the stream ended before ${JSON.stringify(text)}: ${seen.slice(-200)}`)));
  });
}

export async function runMachinesBench(): Promise<void> {
  const sandbox = await sandboxChild();
  const work = await mkdtemp(join(tmpdir(), 'machines-bench-'));
  const cleanups: (() => Promise<void> | void)[] = [];
  try {
    const client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.token }) });
    const { store, login, sshArgs } = await rentBenchMachine(client, DEVICE, work);
    const loginNoPassword = { ...login, password: null };

    console.log(`\nMachines (sandbox SSH machine in a child process; ${spawnSync('ssh', ['-V'], { encoding: 'utf8' }).stderr.trim()})`);

    // Connect to the first prompt, alternating ours and OpenSSH.
    const oursConnect: number[] = [];
    const theirConnect: number[] = [];
    for (let round = 0; round < CONNECT_ROUNDS; round++) {
      let started = now();
      const machine = await connectMachine({ deviceId: DEVICE, login: loginNoPassword, store, chooseKey: async () => ({ kind: 'generate' }) });
      const shell = await machine.connection.shell({ rows: 24, cols: 80 });
      await printed(shell, PROMPT);
      oursConnect.push(now() - started);
      machine.connection.close();

      started = now();
      const ssh = spawn('ssh', ['-tt', ...sshArgs, login.host], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stderr = '';
      ssh.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-1000)));
      try {
        await printed(ssh.stdout, PROMPT);
      } catch (error) {
        throw new Error(`OpenSSH did not reach a prompt: ${stderr.trim()}`, { cause: error });
      }
      theirConnect.push(now() - started);
      const exited = new Promise((resolve) => ssh.once('exit', resolve));
      ssh.kill();
      await exited;
    }
    line('connect to the first prompt', oursConnect, theirConnect, 1.5, 'OpenSSH ssh');

    // A command's round trip over an open connection.
    const control = join(work, 'cm');
    const master = spawn('ssh', ['-N', '-o', 'ControlMaster=yes', '-o', `ControlPath=${control}`, ...sshArgs, login.host], { stdio: 'ignore' });
    cleanups.push(async () => {
      const exited = new Promise((resolve) => master.once('exit', resolve));
      master.kill();
      await exited;
    });
    await waitUntil('the OpenSSH control master', () => spawnSync('ssh', ['-o', `ControlPath=${control}`, '-O', 'check', login.host], { stdio: 'ignore' }).status === 0);
    const open = await connectMachine({ deviceId: DEVICE, login: loginNoPassword, store, chooseKey: async () => ({ kind: 'generate' }) });
    cleanups.push(() => open.connection.close());
    const oursExec: number[] = [];
    const theirExec: number[] = [];
    for (let round = 0; round < EXEC_ROUNDS; round++) {
      let started = now();
      const result = await open.connection.exec('true');
      if (result.code !== 0) throw new Error(`ours: exit ${result.code}`);
      oursExec.push(now() - started);
      started = now();
      const code = await new Promise<number | null>((resolve) => spawn('ssh', ['-o', `ControlPath=${control}`, '-o', 'ControlMaster=no', ...sshArgs, login.host, 'true'], { stdio: 'ignore' }).once('exit', resolve));
      if (code !== 0) throw new Error(`OpenSSH: exit ${code}`);
      theirExec.push(now() - started);
    }
    line('a command\'s round trip (exec "true")', oursExec, theirExec, 1.2, 'OpenSSH ControlMaster');

    // Run on a machine again with 5,000 unchanged files.
    const local = join(work, 'project');
    for (let dir = 0; dir < FILES / 100; dir++) {
      await mkdir(join(local, `d${dir}`), { recursive: true });
      for (let file = 0; file < 100; file++) await writeFile(join(local, `d${dir}`, `f${file}.txt`), `file ${dir}/${file}\n`.repeat(40));
    }
    const proxy = await countingProxy(login.port);
    cleanups.push(() => proxy.close());
    const viaProxy = { login: async () => ({ ...login, port: proxy.port }), store: () => store };
    const runOnce = async (): Promise<{ ms: number; up: number; down: number; sent: number; skipped: number; bytes: number }> => {
      // A new connection each time, as a later Run would open.
      const sessions = machineSftpSessions(viaProxy);
      const [up, down] = [proxy.counts.up, proxy.counts.down];
      const started = now();
      try {
        const summary = await syncToMachine(sessions, DEVICE, local, 'bench/project');
        return { ms: now() - started, up: proxy.counts.up - up, down: proxy.counts.down - down, ...summary };
      } finally {
        sessions.dispose();
      }
    };
    const first = await runOnce();
    const again = await runOnce();
    const kib = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KiB`;
    console.log(`  Run on a machine, ${FILES.toLocaleString('en')} files: first ${(first.ms / 1000).toFixed(1)} s, ${first.sent} sent (${kib(first.bytes)} of files), ${kib(first.up)} up / ${kib(first.down)} down on the wire`);
    console.log(`  again, unchanged: ${(again.ms / 1000).toFixed(1)} s, ${again.sent} sent, ${again.skipped} skipped, ${kib(again.up)} up / ${kib(again.down)} down on the wire`);
    console.log(`    bytes sent on the wire ${((100 * again.up) / first.up).toFixed(2)} % of the first run, file bytes ${((100 * again.bytes) / first.bytes).toFixed(2)} % (goal ≤ 1 %); time ${(again.ms / first.ms).toFixed(2)}× the first run (goal ≤ 0.2×)`);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
    sandbox.stop();
    await rm(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  runMachinesBench().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
