// The sandbox's transfer hold (POST /__sandbox/nas/transfers/hold): a check that must see an S3 transfer
// Running with bytes holds it there instead of racing the job's running time on a busy machine, and a
// released job carries on to Completed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createComputeClient } from '../../src/core/compute/client';
import type { ComputeClient } from '../../src/core/compute/api';
import { createTransfer, transferBody } from '../../src/core/nas';
import { waitUntil } from '../helpers/eventually';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';

describe('sandbox: holding S3 transfers in Running', () => {
  let sandbox: Sandbox;
  let rsa: ComputeClient;
  let storageId: number;

  const hold = async (held: unknown): Promise<Response> =>
    fetch(`${sandbox.computeBaseUrl}/__sandbox/nas/transfers/hold`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ held }) });
  const create = async (): Promise<number> => {
    const b = sandbox.nas.bucket;
    const plan = { storageId, name: '', direction: 1 as const, supplier: b.supplier, endpoint: b.endpoint, bucket: b.bucket, prefix: 'datasets/', nasPath: '/held', overwritePolicy: 2 as const, ignorePatterns: [] };
    return (await createTransfer(rsa, transferBody(plan, { accessKey: b.accessKey, secretKey: b.secretKey }))).id;
  };
  const detail = (id: number) => rsa.call('nas.transferDetail', { id });

  before(async () => {
    // Jobs that would end 20 ms after they are created: only the hold keeps one Running.
    sandbox = await startSandbox({ pendingMs: 0, nas: { queuingMs: 0, pendingMs: 0, runningMs: 20 } });
    const r = sandbox.credentials.rsaMode;
    rsa = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'rsa', token: r.token, privateKey: r.privateKeyPem, platformPublicKey: r.platformPublicKeyPem }) });
    const volume = (await rsa.call('nas.list', { page: 1, page_size: 10 })).results.find((v) => v.status === 'Active');
    assert.ok(volume, 'the sandbox seeds an Active volume');
    storageId = volume.storage_id;
  });

  after(async () => {
    await sandbox.close();
  });

  it('refuses a hold that is not true or false', async () => {
    assert.equal((await hold('yes')).status, 400);
  });

  it('a held job stays Running with half its bytes long past its running time; released, it completes', async () => {
    assert.equal((await hold(true)).status, 200);
    let id: number;
    try {
      id = await create();
      const first = await detail(id);
      // Ten times its running time later (any wait longer than 20 ms shows it; longer changes nothing).
      await new Promise((resolve) => setTimeout(resolve, 200));
      const later = await detail(id);
      for (const seen of [first, later]) {
        assert.equal(seen.status, 'Running');
        assert.ok(seen.transferred_bytes > 0 && seen.transferred_bytes < seen.total_bytes, `bytes moved, not all: ${seen.transferred_bytes} / ${seen.total_bytes}`);
        assert.ok(seen.bps > 0 && seen.remaining_seconds > 0);
      }
      assert.equal(later.transferred_bytes, first.transferred_bytes, 'a held job does not move');
    } finally {
      assert.equal((await hold(false)).status, 200);
    }
    const done = await waitUntil('the released job to complete', async () => {
      const seen = await detail(id);
      return seen.status === 'Completed' ? seen : undefined;
    });
    assert.equal(done.transferred_bytes, done.total_bytes);
  });

  it('a job that ended before the hold stays ended', async () => {
    const id = await create();
    await waitUntil('the job to complete', async () => (await detail(id)).status === 'Completed');
    assert.equal((await hold(true)).status, 200);
    try {
      assert.equal((await detail(id)).status, 'Completed');
    } finally {
      await hold(false);
    }
  });
});
