// Open Outputs in the real VS Code against the sandbox's SFTP volume: after a sync (Run on GPU's own
// syncer) and a "job" writing into the run folder on the volume, what the picker offers is what the job
// wrote or changed at any depth (outputs/model.txt, a rewritten input), not the inputs it was given.
import * as assert from 'node:assert/strict';
import { mkdir, mkdtemp, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeWithSandbox, extensionApi } from '../compute/computeTestApi';
import { sandboxUrl } from '../sandboxInfo';

async function activeVolume(): Promise<{ storageId: number; directory: string }> {
  const api = await extensionApi();
  const volumes = (await api.services.computeClient().send({ method: 'GET', path: '/api/storage/nas/v1/list', query: [['page', '1'], ['page_size', '10']] })) as { results: { storage_id: number; status: string }[] };
  const volume = volumes.results.find((candidate) => candidate.status === 'Active');
  assert.ok(volume, 'the sandbox has an Active NAS volume');
  const response = await fetch(`${sandboxUrl()}/__sandbox/nas/volume?storage_id=${volume.storage_id}`);
  return { storageId: volume.storage_id, directory: ((await response.json()) as { directory: string }).directory };
}

describe('nas: Open Outputs lists what the run wrote or changed', function () {
  this.timeout(180_000);

  it('offers outputs/model.txt and a rewritten input, never the unchanged synced inputs', async () => {
    await computeWithSandbox();
    const api = await extensionApi();
    const { storageId, directory } = await activeVolume();
    const local = await mkdtemp(join(tmpdir(), 'outputs-itest-'));
    await mkdir(join(local, 'data'));
    await writeFile(join(local, 'train.py'), 'print("train")\n');
    await writeFile(join(local, 'data', 'set.csv'), 'a,b\n1,2\n');
    await writeFile(join(local, 'config.json'), '{"lr":1}');
    // Inputs edited long ago: a rewrite by the job is newer whatever second it lands in.
    const past = new Date('2024-01-02T03:04:05Z');
    for (const file of ['train.py', 'data/set.csv', 'config.json']) await utimes(join(local, ...file.split('/')), past, past);
    const remoteDir = `/runs/outputs-${Date.now()}`;
    const synced = await api.nas.runHooks.syncer.sync({ storageId, localDir: local, remoteDir });
    assert.equal(synced.sent, 3);

    // The job: writes outputs/model.txt one level down and rewrites config.json (same size) in place.
    const onVolume = join(directory, ...remoteDir.split('/').filter(Boolean));
    await mkdir(join(onVolume, 'outputs'), { recursive: true });
    await writeFile(join(onVolume, 'outputs', 'model.txt'), 'weights\n');
    await writeFile(join(onVolume, 'config.json'), '{"lr":2}');

    const listing = await api.nas.runHooks.listOutputs(storageId, remoteDir);
    assert.deepEqual(listing.files.map((file) => file.relative).sort(), ['config.json', 'outputs/model.txt']);
    assert.equal(listing.files.find((file) => file.relative === 'outputs/model.txt')?.change, 'new');
    assert.equal(listing.files.find((file) => file.relative === 'config.json')?.change, 'changed');
    assert.equal(listing.truncated, false);
  });
});
