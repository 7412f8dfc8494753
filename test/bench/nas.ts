// NAS transfer and listing through the extension's path vs ssh2's raw calls, side by side on loopback
// against the sandbox's real SFTP server, which runs in a child process (sandboxProcess.ts), so this
// process holds only the client side (same server, same credentials):
//   upload / download: core/nas upload()/download() (session, policy stat, progress, temp+rename) vs
//     sftp.fastPut/fastGet directly; goal ≥ 0.8× the raw throughput; heap + peak RSS growth of this process
//     while the extension's path uploads and downloads (goal ≤ 64 MiB).
//   listing 10,000 entries: SftpConnection.readdir (what the Explorer uses) vs sftp.readdir; goal ≤ 2×.
//   a 1 GiB file and 2,000 small files against Debian's OpenSSH `sftp` client (nasOpenSsh.ts), printed.
// The size defaults to 128 MiB (pure-JS ssh2 crypto on both ends moves ~10–20 MiB/s here, so 1 GiB takes minutes per side);
// COMPUTE_TOOLKIT_NAS_BENCH_MIB=1024 runs the 1 GiB. The size used is printed.

import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, type SFTPWrapper } from 'ssh2';
import { createComputeClient } from '../../src/core/compute/client';
import { NasSessions, download, upload } from '../../src/core/nas';
import { VolumeService } from '../../src/core/nas/volumeService';
import { compareWithOpenSsh } from './nasOpenSsh';
import type { SftpLogin } from '../helpers/openSshSftp';
import type { BenchSandbox as NasBenchSandbox } from './sandboxProcess';

const MIB = 1024 * 1024;

async function rawSftp(info: { sftp_url: string | null; username: string | null; password: string | null }): Promise<{ sftp: SFTPWrapper; end: () => void }> {
  const [host, port] = (info.sftp_url ?? '').split(':');
  const client = new Client();
  return new Promise((resolve, reject) => {
    client.on('error', reject);
    client.on('ready', () => client.sftp((error, sftp) => (error ? reject(error) : resolve({ sftp, end: () => client.end() }))));
    client.connect({ host, port: Number(port), username: info.username ?? '', password: info.password ?? '' });
  });
}

function timed(run: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  return run().then(() => Number(process.hrtime.bigint() - started) / 1e6);
}

async function makeFile(path: string, bytes: number): Promise<void> {
  const handle = await open(path, 'w');
  const chunk = randomBytes(4 * MIB);
  for (let written = 0; written < bytes; written += chunk.length) await handle.write(chunk, 0, Math.min(chunk.length, bytes - written));
  await handle.close();
}

/** Starts the sandbox in a child process; `stop` ends it. */
export async function sandboxProcess(): Promise<NasBenchSandbox & { stop: () => void }> {
  const child = fork(join(__dirname, 'sandboxProcess.js'), ['nas'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await new Promise<NasBenchSandbox>((resolve, reject) => {
    child.once('message', (message) => resolve(message as NasBenchSandbox));
    child.once('exit', (code) => reject(new Error(`the sandbox process exited (${code})`)));
  });
  return { ...ready, stop: () => child.disconnect() };
}

export async function volumeDirectory(sandboxUrl: string, storageId: number): Promise<string> {
  const response = await fetch(`${sandboxUrl}/__sandbox/nas/volume?storage_id=${storageId}`);
  return ((await response.json()) as { directory: string }).directory;
}

export async function runNasBench(): Promise<void> {
  const sizeMiB = Number(process.env.COMPUTE_TOOLKIT_NAS_BENCH_MIB ?? 128);
  const bytes = sizeMiB * MIB;
  const sandbox = await sandboxProcess();
  const work = await mkdtemp(join(tmpdir(), 'nas-bench-'));
  const client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.token }) });
  const sessions = new NasSessions(new VolumeService(() => client), { pendingPollMs: 20 });
  try {
    const created = await client.call('nas.create', { name: 'bench', nas_config_id: 101, total_size: 100 * 1024 * MIB });
    const id = created.storage_id;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const info = await client.call('nas.sftpObtain', { storage_id: id });
    if (!info) throw new Error('no session');
    const raw = await rawSftp(info);
    const local = join(work, 'big.bin');
    await makeFile(local, bytes);
    console.log(`\nNAS transfer (loopback SFTP, ${sizeMiB} MiB file; COMPUTE_TOOLKIT_NAS_BENCH_MIB to change)`);

    global.gc?.();
    const heapBefore = process.memoryUsage();
    let peakRss = heapBefore.rss;
    // Best of three rounds, ours and raw taking turns: the first transfer of a process pays for warming up
    // (JIT, the disk cache), which would otherwise count against whichever goes first.
    let oursUp = Infinity;
    let oursDown = Infinity;
    let rawUp = Infinity;
    let rawDown = Infinity;
    let after = heapBefore;
    for (let round = 0; round < 3; round++) {
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
      oursUp = Math.min(oursUp, await timed(() => upload(sessions, id, local, '/ours.bin', { policy: 'overwrite', onProgress: () => undefined })));
      oursDown = Math.min(oursDown, await timed(() => download(sessions, id, '/ours.bin', join(work, 'ours-back.bin'), { policy: 'overwrite', onProgress: () => undefined })));
      clearInterval(sampler);
      if (round === 0) after = process.memoryUsage();
      rawUp = Math.min(rawUp, await timed(() => new Promise<void>((resolve, reject) => raw.sftp.fastPut(local, '/raw.bin', (e) => (e ? reject(e) : resolve())))));
      rawDown = Math.min(rawDown, await timed(() => new Promise<void>((resolve, reject) => raw.sftp.fastGet('/raw.bin', join(work, 'raw-back.bin'), (e) => (e ? reject(e) : resolve())))));
    }
    const rate = (ms: number): string => `${((bytes / MIB) / (ms / 1000)).toFixed(0)} MiB/s`;
    console.log(`  upload   ours ${rate(oursUp)}  raw fastPut ${rate(rawUp)}  ratio ${(rawUp / oursUp).toFixed(2)}× of raw throughput (goal ≥ 0.8)`);
    console.log(`  download ours ${rate(oursDown)}  raw fastGet ${rate(rawDown)}  ratio ${(rawDown / oursDown).toFixed(2)}× of raw throughput (goal ≥ 0.8)`);
    console.log(`  memory growth of this process (the extension's path; the server runs in a child): heap ${((after.heapUsed - heapBefore.heapUsed) / MIB).toFixed(1)} MiB, peak RSS +${((peakRss - heapBefore.rss) / MIB).toFixed(1)} MiB (goal ≤ 64 MiB)`);

    const login = async (): Promise<SftpLogin> => {
      const session = await client.call('nas.sftpObtain', { storage_id: id });
      const [host, port] = (session?.sftp_url ?? '').split(':');
      return { host: host ?? '', port: Number(port), username: session?.username ?? '', password: session?.password ?? '' };
    };
    await compareWithOpenSsh({ login, sessions, storageId: id, work, makeFile, timed });

    // 10,000 entries in one folder, written straight into the volume's directory.
    const dir = join(await volumeDirectory(sandbox.url, id), 'many');
    await mkdir(dir);
    for (let i = 0; i < 10_000; i++) await writeFile(join(dir, `f${i}.txt`), '');
    const rounds = 5;
    let ours = Infinity;
    let rawList = Infinity;
    for (let round = 0; round < rounds; round++) {
      ours = Math.min(ours, await timed(() => sessions.run(id, (c) => c.readdir('/many'))));
      rawList = Math.min(rawList, await timed(() => new Promise((resolve, reject) => raw.sftp.readdir('/many', (e, list) => (e ? reject(e) : resolve(list))))));
    }
    console.log(`  list 10,000 entries: ours ${ours.toFixed(0)} ms, raw readdir ${rawList.toFixed(0)} ms, ratio ${(ours / rawList).toFixed(2)}× (goal ≤ 2), best of ${rounds}`);
    raw.end();
  } finally {
    sessions.dispose();
    sandbox.stop();
    await rm(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  runNasBench().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
