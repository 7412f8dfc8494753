// Batch jobs, two ratios (goals from issue 20):
// 1. Run on GPU of an unchanged 5,000-file project after a first run: bytes sent ≤ 1% of the first run
//    and time ≤ 0.2× the first run (sync + create + follow to the end, against the sandbox; the command
//    is a trivial `cat` so the job's own run time does not hide the extension's part). The folder goes
//    over the sandbox's real SFTP server through the NAS area's syncFolder, as Run on GPU sends it.
// 2. Log following: the extension side's CPU per line (blob diff + escape handling) for a job printing
//    10,000 vs 100,000 lines, fed the blobs the platform serves (the sandbox's bounded log tail, read
//    every 500 new lines). Goal: ratio ≤ 1.5.
// Run: npm run compile-tests && node out/test/bench/jobs.js   (or `npm run bench -- jobs`).

import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createComputeClient } from '../../src/core/compute/client';
import { terminalLogLine } from '../../src/core/terminalText';
import { LogFollower } from '../../src/core/jobs/logFollower';
import type { RunConfig } from '../../src/core/jobs/runConfig';
import { runOnGpu, runServices } from '../../src/core/jobs/runOnGpu';
import { NasSessions } from '../../src/core/nas/sessions';
import { VolumeService } from '../../src/core/nas/volumeService';
import { syncFolder } from '../../src/core/nas/sync';
import { requireMountableVolume } from '../../src/core/nas/volumes';
import { LogTail } from '../sandbox/jobs/podProcess';
import { startSandbox } from '../sandbox/server';

async function runAgainBench(): Promise<void> {
  const sandbox = await startSandbox({ pendingMs: 0, jobPendingMs: 10 });
  const project = mkdtempSync(join(tmpdir(), 'bench-run-'));
  let cleanup = (): void => undefined;
  try {
    const client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }) });
    const volumes = (await client.send({ method: 'GET', path: '/api/storage/nas/v1/list', query: [['page', '1'], ['page_size', '10']] })) as { results: { storage_id: number; status: string }[] };
    const storageId = volumes.results.find((volume) => volume.status === 'Active')?.storage_id;
    if (storageId === undefined) throw new Error('no Active volume in the sandbox');
    for (let dir = 0; dir < 50; dir++) {
      mkdirSync(join(project, `pkg${dir}`));
      for (let file = 0; file < 100; file++) writeFileSync(join(project, `pkg${dir}`, `m${file}.py`), `# module ${dir}/${file}\n${'x = 1\n'.repeat(40 + (file % 20))}`);
    }
    writeFileSync(join(project, 'train.py'), 'print("trained")\n');
    const config: RunConfig = {
      version: 1, name: 'bench', command: 'cat train.py', image: 'img', folder: '', resource: { deviceName: 'RTX 4090 x 1', region: 'beijing-jxq-p1' },
      spot: false, estimatedSec: 30, timeoutSec: 60, completions: 1, parallelism: 1, indexed: false, retries: 0, env: [], volume: { storageId, targetDir: '/mnt/work', remoteDir: '/bench' },
    };
    const sessions = new NasSessions(new VolumeService(() => client), { pendingPollMs: 20 });
    cleanup = () => sessions.dispose();
    const syncer = {
      sync: (options: Parameters<typeof syncFolder>[1]) => syncFolder(sessions, options),
      checkMount: (id: number, regionName: string, signal?: AbortSignal) => requireMountableVolume(client, id, regionName, signal),
    };
    const once = async () => {
      const started = performance.now();
      let synced = 0;
      const outcome = await runOnGpu(runServices(() => client), syncer, { config, localDir: project, jobName: 'bench', followIntervalMs: 20 }, { onLines: () => undefined, onSynced: () => (synced = performance.now() - started) });
      return { ms: performance.now() - started, syncMs: synced, bytes: outcome.sync.bytes, sent: outcome.sync.sent, phase: outcome.view.phase };
    };
    const first = await once();
    const second = await once();
    const bytesRatio = second.bytes / first.bytes;
    const timeRatio = second.ms / first.ms;
    console.log(`jobs · Run on GPU, 5,001 files: first ${first.sent} files ${first.bytes} B in ${first.ms.toFixed(0)} ms (${first.phase}); again ${second.sent} files ${second.bytes} B in ${second.ms.toFixed(0)} ms (${second.phase})`);
    console.log(`  sync phase: first ${first.syncMs.toFixed(0)} ms, again ${second.syncMs.toFixed(0)} ms (${(second.syncMs / first.syncMs).toFixed(2)}×); the rest is the job (the same command both times)`);
    console.log(`  bytes again/first = ${(bytesRatio * 100).toFixed(2)}% (goal ≤ 1%) ${bytesRatio <= 0.01 ? 'ok' : 'MISSED'}; time again/first = ${timeRatio.toFixed(2)}× (goal ≤ 0.2×) ${timeRatio <= 0.2 ? 'ok' : 'MISSED'}`);
  } finally {
    cleanup();
    await sandbox.close();
    rmSync(project, { recursive: true, force: true });
  }
}

/** CPU µs per line the follower spends on a job printing `total` lines, read every `perPoll` new lines. */
function followCpuPerLine(total: number, perPoll: number): number {
  const tail = new LogTail();
  const follower = new LogFollower();
  let cpu = 0;
  let lines = 0;
  let sink = 0;
  for (let printed = 0; printed < total; ) {
    const batch: string[] = [];
    for (let i = 0; i < perPoll && printed < total; i++, printed++) batch.push(`\x1b[32mstep ${printed}\x1b[0m loss=${(1 / (printed + 1)).toFixed(6)} lr=3e-4\n`);
    tail.append(batch.join(''));
    const blob = tail.text(); // what one node-log read returns
    const started = process.cpuUsage();
    const update = follower.update(blob);
    for (const line of update.lines) sink += terminalLogLine(line).length;
    const used = process.cpuUsage(started);
    cpu += used.user + used.system;
    lines += update.lines.length;
  }
  if (sink === 0 || lines !== total) throw new Error(`followed ${lines} of ${total} lines`);
  return cpu / lines;
}

function logBench(): void {
  followCpuPerLine(10_000, 500); // warm-up
  const best = (total: number) => Math.min(...[0, 1, 2].map(() => followCpuPerLine(total, 500)));
  const small = best(10_000);
  const large = best(100_000);
  const ratio = large / small;
  console.log(`jobs · log following: ${small.toFixed(2)} µs/line at 10,000 lines, ${large.toFixed(2)} µs/line at 100,000; ratio ${ratio.toFixed(2)} (goal ≤ 1.5) ${ratio <= 1.5 ? 'ok' : 'MISSED'}`);
}

export async function runJobsBench(): Promise<void> {
  logBench();
  await runAgainBench();
}

if (require.main === module) {
  runJobsBench().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
