// Run on GPU end to end against the sandbox (core level): a train.py in a new folder is synced to a
// NAS volume, runs as a job, its printed lines arrive while it runs, the file it writes is on the
// volume, a second run sends only what changed, a failing script shows its error and exit code, and a
// Spot job waiting in the queue says so. The folder goes over the sandbox's real SFTP server through
// the NAS area's syncFolder, as the editor's Run on GPU sends it.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createComputeClient } from '../../src/core/compute/client';
import { plainLogLine } from '../../src/core/terminalText';
import type { RunConfig } from '../../src/core/jobs/runConfig';
import { runOnGpu, runServices } from '../../src/core/jobs/runOnGpu';
import type { JobPhase } from '../../src/core/jobs/status';
import { NasSessions } from '../../src/core/nas/sessions';
import { VolumeService } from '../../src/core/nas/volumeService';
import { syncFolder } from '../../src/core/nas/sync';
import { requireMountableVolume } from '../../src/core/nas/volumes';
import { ConfigError } from '../../src/core/errors';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';

describe('Run on GPU against the sandbox', () => {
  let sandbox: Sandbox;
  let client: ReturnType<typeof createComputeClient>;
  let project: string;
  let storageId: number;
  let config: RunConfig;
  let sessions: NasSessions;

  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0, jobPendingMs: 20, nas: { creatingMs: 0 } });
    client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }) });
    const volumes = (await client.send({ method: 'GET', path: '/api/storage/nas/v1/list', query: [['page', '1'], ['page_size', '10']] })) as { results: { storage_id: number; status: string }[] };
    const volume = volumes.results.find((candidate) => candidate.status === 'Active');
    assert.ok(volume, 'the NAS sandbox seeds an Active volume');
    storageId = volume.storage_id;
    sessions = new NasSessions(new VolumeService(() => client), { pendingPollMs: 20 });
    project = mkdtempSync(join(tmpdir(), 'run-on-gpu-'));
    writeFileSync(join(project, 'train.py'), 'import sys\nfor epoch in range(3):\n    print(f"epoch {epoch} loss={1/(epoch+1):.3f}", flush=True)\nopen("model.txt", "w").write("weights\\n")\nprint("\\033[32mdone\\033[0m")\n');
    writeFileSync(join(project, 'data.csv'), 'x,y\n1,2\n');
    config = {
      version: 1,
      name: 'train',
      command: 'python3 train.py',
      image: 'pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime',
      folder: '',
      resource: { deviceName: 'RTX 4090 x 1', region: 'beijing-jxq-p1' },
      spot: true,
      estimatedSec: 60,
      timeoutSec: 120,
      completions: 1,
      parallelism: 1,
      indexed: false,
      retries: 0,
      env: [{ name: 'PYTHONUNBUFFERED', value: '1' }],
      volume: { storageId, targetDir: '/mnt/work', remoteDir: '/runs/train' },
    };
  });
  after(async () => {
    sessions.dispose();
    await sandbox.close();
    rmSync(project, { recursive: true, force: true });
  });

  const syncer = () => ({
    sync: (options: Parameters<typeof syncFolder>[1]) => syncFolder(sessions, options),
    checkMount: (id: number, regionName: string, signal?: AbortSignal) => requireMountableVolume(client, id, regionName, signal),
  });

  async function run(overrides: Partial<RunConfig> = {}) {
    const lines: string[] = [];
    const phases: JobPhase[] = [];
    const outcome = await runOnGpu(runServices(() => client), syncer(), { config: { ...config, ...overrides }, localDir: project, jobName: 'train-run', followIntervalMs: 20 }, {
      onLines: (batch) => lines.push(...batch.map((line) => plainLogLine(line.text))),
      onStatus: (view) => phases.push(view.phase),
    });
    return { outcome, lines, phases };
  }

  it('runs train.py: its lines arrive, the file it writes is on the volume; a second run sends only what changed', async () => {
    const first = await run();
    assert.equal(first.outcome.view.phase, 'succeeded');
    assert.equal(first.outcome.exitCode, 0);
    assert.deepEqual(first.lines, ['epoch 0 loss=1.000', 'epoch 1 loss=0.500', 'epoch 2 loss=0.333', 'done']);
    assert.equal(first.outcome.sync.sent, 2);
    const volume = sandbox.nas.volumeDirectory(storageId);
    assert.ok(volume);
    assert.equal(readFileSync(join(volume, 'runs', 'train', 'model.txt'), 'utf8'), 'weights\n');

    writeFileSync(join(project, 'data.csv'), 'x,y\n1,2\n3,4\n');
    const second = await run();
    assert.equal(second.outcome.view.phase, 'succeeded');
    assert.deepEqual({ sent: second.outcome.sync.sent, skipped: second.outcome.sync.skipped }, { sent: 1, skipped: 1 });
  });

  it('a failing script shows its error and exit code', async () => {
    writeFileSync(join(project, 'fail.py'), 'print("starting")\nraise SystemExit("CUDA out of memory (simulated)")\n');
    const failed = await run({ command: 'python3 fail.py' });
    assert.equal(failed.outcome.view.phase, 'failed');
    assert.equal(failed.outcome.exitCode, 1);
    assert.ok(failed.lines.includes('CUDA out of memory (simulated)'), failed.lines.join('\n'));
  });

  it('refuses a volume of another region before uploading or creating anything (docs/sandbox-rules.md)', async () => {
    const created = await client.call('nas.create', { name: 'shanghai', nas_config_id: 103, total_size: 1024 ** 3 });
    const seen = new Set(sandbox.requests);
    let synced = 0;
    const counting = { ...syncer(), sync: async () => ((synced += 1), { sent: 0, skipped: 0, bytes: 0 }) };
    const run = runOnGpu(runServices(() => client), counting, { config: { ...config, volume: { ...config.volume, storageId: created.storage_id } }, localDir: project, jobName: 'other-region' }, { onLines: () => undefined });
    await assert.rejects(run, (error: unknown) => error instanceof ConfigError && /上海一区/.test(error.message) && /北京一区/.test(error.message) && /region/.test(error.hint ?? ''));
    assert.equal(synced, 0, 'nothing was uploaded');
    assert.deepEqual(sandbox.requests.filter((request) => !seen.has(request) && request.path.startsWith('/api/task/job/create')), [], 'no job was created');
  });

  it('a Spot job waiting in the queue says so', async () => {
    sandbox.queueSpot(1, 300);
    const queued = await run();
    assert.ok(queued.phases.includes('queued'), queued.phases.join(','));
    assert.equal(queued.outcome.view.phase, 'succeeded');
  });
});
