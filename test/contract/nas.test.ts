// NAS volumes, SFTP file access, folder sync and S3 transfers: the extension's core against the strict
// sandbox, whose obtain starts a real SFTP server on 127.0.0.1. Includes the faults the issue names: a
// session that expires mid-upload, a dropped connection and a full volume. No password or S3 key may
// appear in any log line, error message or exchange record (checked at the end).

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, mkdir, readFile, rm, stat, utimes, writeFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ComputeClient, ComputeCredentials, ExchangeRecord } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import { ComputeApiError } from '../../src/core/compute/errors';
import type { Logger } from '../../src/core/log';
import {
  BYTES_PER_GIB,
  NasFileError,
  NasSessions,
  createTransfer,
  deleteBlock,
  download,
  getVolume,
  listVolumes,
  syncFolder,
  upload,
  type NasVolume,
} from '../../src/core/nas';
import { VolumeService } from '../../src/core/nas/volumeService';
import { startSandbox } from '../sandbox/server';
import { sendToken } from '../sandbox/handClient';
import type { Sandbox } from '../sandbox/types';
import { PATIENCE_MS } from '../helpers/eventually';
import { AbortedError } from '../../src/core/errors';

const MIB = 1024 * 1024;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, limitMs = PATIENCE_MS): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > limitMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
}

describe('NAS against the strict sandbox', () => {
  let sandbox: Sandbox;
  let token: ComputeClient;
  let rsa: ComputeClient;
  let sessions: NasSessions;
  let work: string;
  const logLines: string[] = [];
  const errorTexts: string[] = [];
  const exchanges: ExchangeRecord[] = [];
  const logger: Logger = {
    trace: (m) => logLines.push(m),
    debug: (m) => logLines.push(m),
    info: (m) => logLines.push(m),
    warn: (m) => logLines.push(m),
    error: (m) => logLines.push(m),
  };
  const seenPasswords = new Set<string>();

  const createVolume = async (name: string, bytes: number): Promise<NasVolume> => {
    const answer = await token.call('nas.create', { name, nas_config_id: 101, total_size: bytes });
    assert.equal(answer.status, 'Creating');
    return until(() => getVolume(token, answer.storage_id), (v) => v?.status === 'Active', 'Active') as Promise<NasVolume>;
  };

  before(async () => {
    sandbox = await startSandbox({ nas: { creatingMs: 150, expandingMs: 150, deletingMs: 150, sftpPendingMs: 100, queuingMs: 50, pendingMs: 50, runningMs: 600 } });
    const r = sandbox.credentials.rsaMode;
    const credentials: Record<'token' | 'rsa', ComputeCredentials> = {
      token: { mode: 'token', token: sandbox.credentials.tokenMode.token },
      rsa: { mode: 'rsa', token: r.token, privateKey: r.privateKeyPem, platformPublicKey: r.platformPublicKeyPem },
    };
    token = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => credentials.token, logger, retry: { baseDelayMs: 5, maxDelayMs: 50 } });
    rsa = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => credentials.rsa, logger, retry: { baseDelayMs: 5, maxDelayMs: 50 } });
    // Every obtain answer is recorded (the password masked) and its password remembered for the final scan.
    const observed: ComputeClient['call'] = (async (op: never, params: never, options?: { signal?: AbortSignal }) => {
      const result = (await token.call(op, params, { ...(options ?? {}), onExchange: (e) => exchanges.push(e) })) as unknown;
      const password = (result as { password?: unknown } | null)?.password;
      if (typeof password === 'string') seenPasswords.add(password);
      return result;
    }) as ComputeClient['call'];
    sessions = new NasSessions(new VolumeService(() => ({ call: observed }) as never), { pendingPollMs: 50, renewMarginMs: 0, logger });
    work = await mkdtemp(join(tmpdir(), 'nas-contract-'));
  });

  after(async () => {
    sessions.dispose();
    await sandbox.close();
    await rm(work, { recursive: true, force: true });
  });

  it('reads the summary, dictionaries and creatable configs in the documented units', async () => {
    const summary = await token.call('nas.summary', {});
    assert.equal(summary.volume_count, 1);
    assert.equal(summary.total_size, 50 * BYTES_PER_GIB);
    assert.equal(summary.coin_sum_slice, 50 * 120);
    const dictionaries = await token.call('nas.dictionaries', {});
    assert.deepEqual(dictionaries.regions.map((r) => r.tag), ['bj-001', 'sh-001']);
    const { configs } = await token.call('nas.preCreate', {});
    assert.ok(configs.some((c) => c.status === 'Unavailable'));
    assert.match(configs[0]?.display_unit_price ?? '', /^\d+\.\d+$/);
  });

  it('creates a volume that goes Creating → Active, lists with filters and pages, refuses bad input', async () => {
    const volume = await createVolume('proj-a', 2 * BYTES_PER_GIB);
    assert.equal(volume.used_size, 0);
    const bj = await token.call('nas.list', { regions: 'bj-001', statuses: 'Active', page: 1, page_size: 1 });
    assert.equal(bj.results.length, 1);
    assert.ok(bj.count >= 2);
    await assert.rejects(token.call('nas.list', { page_size: 101 }), (e: unknown) => e instanceof ComputeApiError && e.code === 'C999');
    await assert.rejects(token.call('nas.list', { statuses: 'Sleeping' }), (e: unknown) => e instanceof ComputeApiError && /statuses/.test(e.serverMessage));
    await assert.rejects(token.call('nas.create', { name: ' '.repeat(3), nas_config_id: 101, total_size: 1 }), (e: unknown) => e instanceof ComputeApiError && /name/.test(e.serverMessage));
    await assert.rejects(token.call('nas.create', { name: 'x', nas_config_id: 104, total_size: 1 }), (e: unknown) => e instanceof ComputeApiError && /Unavailable/.test(e.serverMessage));
  });

  it('expands only Active volumes and only upwards; renames; deletes with the pre-checks', async () => {
    const volume = await createVolume('proj-b', BYTES_PER_GIB);
    await assert.rejects(token.call('nas.expand', { id: volume.storage_id, total_size: BYTES_PER_GIB }), (e: unknown) => e instanceof ComputeApiError && /larger/.test(e.serverMessage));
    // Held in Expanding while the second expand is refused: a busy machine may take longer than the phase.
    sandbox.nas.holdVolumePhases(true);
    try {
      const expanding = await token.call('nas.expand', { id: volume.storage_id, total_size: 3 * BYTES_PER_GIB });
      assert.equal(expanding.status, 'Expanding');
      await assert.rejects(token.call('nas.expand', { id: volume.storage_id, total_size: 4 * BYTES_PER_GIB }), (e: unknown) => e instanceof ComputeApiError && e.code === 'C010');
    } finally {
      sandbox.nas.holdVolumePhases(false);
    }
    const grown = await until(() => getVolume(token, volume.storage_id), (v) => v?.status === 'Active', 'expanded');
    assert.equal(grown?.total_size, 3 * BYTES_PER_GIB);
    assert.equal((await token.call('nas.rename', { id: volume.storage_id, name: '  训练数据  ' })).status, 'Active');
    assert.equal((await getVolume(token, volume.storage_id))?.name, '训练数据');

    // The seeded volume is mounted by a task: refused without force, with the reason.
    const seeded = (await listVolumes(token)).find((v) => v.name === 'datasets') as NasVolume;
    assert.deepEqual(await deleteBlock(token, seeded), { reason: 'mounted', instances: ['llm-finetune'] });
    await assert.rejects(token.call('nas.delete', { id: seeded.storage_id }), (e: unknown) => e instanceof ComputeApiError && /mounted/.test(e.serverMessage));

    assert.equal(await deleteBlock(token, grown as NasVolume), undefined);
    assert.equal((await token.call('nas.delete', { id: volume.storage_id })).status, 'Deleting');
    await until(() => getVolume(token, volume.storage_id), (v) => v === undefined, 'gone');
    assert.equal(sandbox.nas.volumeDirectory(volume.storage_id), undefined);
  });

  it('uploads and downloads a folder over real SFTP with progress, and honours skip / only-newer / overwrite', async () => {
    const volume = await createVolume('files', BYTES_PER_GIB);
    const local = join(work, 'project');
    await mkdir(join(local, 'src'), { recursive: true });
    const big = randomBytes(3 * MIB);
    await writeFile(join(local, 'weights.bin'), big);
    await writeFile(join(local, 'src', 'train.py'), 'print("hi")\n');
    const progress: number[] = [];
    const sent = await upload(sessions, volume.storage_id, local, '/project', { onProgress: (p) => progress.push(p.bytes) });
    assert.deepEqual(sent, { sent: 2, skipped: 0, bytes: big.length + 12 });
    assert.ok(progress.length >= 2 && progress.at(-1) === big.length + 12, 'progress reaches the total');
    const onDisk = sandbox.nas.volumeDirectory(volume.storage_id) as string;
    assert.deepEqual(await readFile(join(onDisk, 'project', 'weights.bin')), big);

    assert.deepEqual(await upload(sessions, volume.storage_id, local, '/project', { policy: 'skip' }), { sent: 0, skipped: 2, bytes: 0 });
    assert.equal((await upload(sessions, volume.storage_id, local, '/project', { policy: 'newer' })).sent, 0, 'same mtime: not newer');
    const later = new Date(Date.now() + 60_000);
    await utimes(join(local, 'src', 'train.py'), later, later);
    assert.deepEqual(await upload(sessions, volume.storage_id, local, '/project', { policy: 'newer' }), { sent: 1, skipped: 1, bytes: 12 });
    assert.equal((await upload(sessions, volume.storage_id, local, '/project', { policy: 'overwrite' })).sent, 2);

    const back = join(work, 'back');
    const got = await download(sessions, volume.storage_id, '/project', back);
    assert.equal(got.sent, 2);
    assert.deepEqual(await readFile(join(back, 'weights.bin')), big);
    assert.equal((await download(sessions, volume.storage_id, '/project', back, { policy: 'skip' })).skipped, 2);
    assert.deepEqual(
      (await readdir(back)).filter((n) => n.endsWith('-part')),
      [],
      'no partial files left',
    );
  });

  it('carries on when the session expires mid-upload, and when the connection drops', async () => {
    const volume = await createVolume('expiring', BYTES_PER_GIB);
    const file = join(work, 'expire.bin');
    const data = randomBytes(4 * MIB);
    await writeFile(file, data);
    const renewalsBefore = sessions.renewals;
    const refusedBefore = sandbox.nas.refusedLogins;
    sandbox.nas.injectSftpFault({ kind: 'expire', storageId: volume.storage_id, afterBytes: MIB });
    const result = await upload(sessions, volume.storage_id, file, '/expire.bin');
    assert.equal(result.sent, 1);
    assert.ok(sessions.renewals > renewalsBefore, 'the session was renewed');
    const onDisk = sandbox.nas.volumeDirectory(volume.storage_id) as string;
    assert.deepEqual(await readFile(join(onDisk, 'expire.bin')), data);
    assert.equal(sandbox.nas.refusedLogins, refusedBefore, 'renewal obtained new credentials instead of retrying the dead ones');

    sandbox.nas.injectSftpFault({ kind: 'drop', storageId: volume.storage_id, afterBytes: MIB });
    const dropped = await upload(sessions, volume.storage_id, file, '/dropped.bin');
    assert.equal(dropped.sent, 1);
    assert.deepEqual(await readFile(join(onDisk, 'dropped.bin')), data);
  });

  it('many small files side by side: a drop mid-way sends each unfinished file again, every file lands whole, no partial left', async () => {
    const volume = await createVolume('many-small', BYTES_PER_GIB);
    const folder = join(work, 'many-small');
    const contents = new Map<string, Buffer>();
    for (let index = 0; index < 48; index++) {
      const name = `${index % 4}/f${index}.bin`;
      contents.set(name, randomBytes(64 * 1024));
      await mkdir(join(folder, String(index % 4)), { recursive: true });
      await writeFile(join(folder, name), contents.get(name) as Buffer);
    }
    sandbox.nas.injectSftpFault({ kind: 'drop', storageId: volume.storage_id, afterBytes: MIB });
    const renewalsBefore = sessions.renewals;
    const result = await upload(sessions, volume.storage_id, folder, '/many');
    assert.equal(result.sent, 48);
    assert.ok(sessions.renewals > renewalsBefore, 'the connection was dropped and renewed');
    const onDisk = join(sandbox.nas.volumeDirectory(volume.storage_id) as string, 'many');
    for (const [name, data] of contents) assert.deepEqual(await readFile(join(onDisk, name)), data, name);
    for (const sub of ['0', '1', '2', '3']) assert.deepEqual((await readdir(join(onDisk, sub))).filter((name) => name.endsWith('.computenas-part')), [], `partial files in ${sub}`);

    const back = join(work, 'many-back');
    const received = await download(sessions, volume.storage_id, '/many', back);
    assert.equal(received.sent, 48);
    for (const [name, data] of contents) assert.deepEqual(await readFile(join(back, name)), data, name);
  });

  it('renews credentials that expire between calls (short lifetime)', async () => {
    const volume = await createVolume('short', BYTES_PER_GIB);
    sandbox.nas.setSessionLifetime(1000);
    try {
      await sessions.run(volume.storage_id, (c) => c.writeFile('/a.txt', Buffer.from('one')));
      const firstExpiry = sessions.expiresAt(volume.storage_id) as number;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, firstExpiry - Date.now()) + 100));
      const text = await sessions.run(volume.storage_id, (c) => c.readFile('/a.txt'));
      assert.equal(text.toString(), 'one');
      assert.ok((sessions.expiresAt(volume.storage_id) as number) > firstExpiry, 'new credentials with a later expiry');
    } finally {
      sandbox.nas.setSessionLifetime(30 * 60_000);
    }
  });

  it('stops at a full volume with a clear error and removes the partial file', async () => {
    const volume = await createVolume('tiny', 2 * MIB);
    const file = join(work, 'too-big.bin');
    await writeFile(file, randomBytes(3 * MIB));
    await assert.rejects(upload(sessions, volume.storage_id, file, '/too-big.bin'), (e: unknown) => e instanceof NasFileError && e.code === 'volume-full' && /full/.test(e.message));
    const onDisk = sandbox.nas.volumeDirectory(volume.storage_id) as string;
    await assert.rejects(stat(join(onDisk, 'too-big.bin')), /ENOENT/);
    await assert.rejects(stat(join(onDisk, 'too-big.bin.computenas-part')), /ENOENT/);
    // The injected fault gives the same answer on a roomy volume.
    const roomy = await createVolume('roomy', BYTES_PER_GIB);
    sandbox.nas.injectSftpFault({ kind: 'full', storageId: roomy.storage_id, afterBytes: 0 });
    await assert.rejects(upload(sessions, roomy.storage_id, file, '/x.bin'), (e: unknown) => e instanceof NasFileError && e.code === 'volume-full');
  });

  it('a cancelled upload settles at once, keeps the copy it was replacing and leaves no partial file', { timeout: PATIENCE_MS }, async () => {
    const volume = await createVolume('cancel', BYTES_PER_GIB);
    const onDisk = sandbox.nas.volumeDirectory(volume.storage_id) as string;
    await sessions.run(volume.storage_id, (c) => c.writeFile('/big.bin', Buffer.from('the old copy')));
    const file = join(work, 'cancel.bin');
    await writeFile(file, randomBytes(16 * MIB));
    sandbox.nas.throttleUploads(MIB); // sixteen seconds unless cancelled
    try {
      const controller = new AbortController();
      let sentBytes = 0;
      const uploading = upload(sessions, volume.storage_id, file, '/big.bin', {
        policy: 'overwrite',
        signal: controller.signal,
        onProgress: (p) => {
          sentBytes = p.bytes;
          if (p.bytes > 0) controller.abort();
        },
      });
      await assert.rejects(uploading, (e: unknown) => e instanceof AbortedError);
      assert.ok(sentBytes > 0 && sentBytes < 16 * MIB, `cancelled part-way (${sentBytes} bytes)`);
    } finally {
      sandbox.nas.throttleUploads(0);
    }
    assert.equal(await readFile(join(onDisk, 'big.bin'), 'utf8'), 'the old copy');
    await until(() => readdir(onDisk), (names) => names.length === 1, 'the partial file to be removed');
    assert.deepEqual(await readdir(onDisk), ['big.bin']);
  });

  it('syncs a folder: ignore files honoured, only changed files sent, manifest kept on the volume', async () => {
    const volume = await createVolume('sync', BYTES_PER_GIB);
    const local = join(work, 'sync-src');
    await mkdir(join(local, 'data', 'cache'), { recursive: true });
    await mkdir(join(local, '.git'), { recursive: true });
    await writeFile(join(local, '.gitignore'), '*.log\n');
    await writeFile(join(local, '.computeignore'), 'data/raw.bin\n');
    await writeFile(join(local, 'data', '.gitignore'), 'cache/\n');
    await writeFile(join(local, 'train.py'), 'print(1)\n');
    await writeFile(join(local, 'run.log'), 'noise');
    await writeFile(join(local, 'data', 'raw.bin'), 'big');
    await writeFile(join(local, 'data', 'keep.csv'), 'a,b\n');
    await writeFile(join(local, 'data', 'cache', 'x.tmp'), 'c');
    await writeFile(join(local, '.git', 'HEAD'), 'ref');
    const first = await syncFolder(sessions, { storageId: volume.storage_id, localDir: local, remoteDir: '/proj' });
    // sent: .gitignore, .computeignore, data/.gitignore, train.py, data/keep.csv; left out: run.log, data/raw.bin, data/cache/, .git/
    assert.deepEqual({ sent: first.sent, skipped: first.skipped, ignored: first.ignored }, { sent: 5, skipped: 0, ignored: 4 });
    const onDisk = sandbox.nas.volumeDirectory(volume.storage_id) as string;
    await assert.rejects(stat(join(onDisk, 'proj', 'run.log')), /ENOENT/);
    await stat(join(onDisk, 'proj', '.compute', 'upload-manifest.json'));

    const record = join(onDisk, 'proj', '.compute', 'upload-manifest.json');
    const long = new Date(Date.now() - 3_600_000);
    await utimes(record, long, long);
    const second = await syncFolder(sessions, { storageId: volume.storage_id, localDir: local, remoteDir: '/proj' });
    assert.deepEqual({ sent: second.sent, skipped: second.skipped, bytes: second.bytes }, { sent: 0, skipped: 5, bytes: 0 });
    assert.ok(Math.abs((await stat(record)).mtimeMs - long.getTime()) < 1000, 'nothing changed: the record is not written again');
    const later = new Date(Date.now() + 120_000);
    await utimes(join(local, 'train.py'), later, later);
    assert.equal((await syncFolder(sessions, { storageId: volume.storage_id, localDir: local, remoteDir: '/proj' })).sent, 0, 'touched but unchanged: the hash decides');
    assert.ok((await stat(record)).mtimeMs - long.getTime() > 60_000, 'a new modification time is recorded (no hash next time)');
    await writeFile(join(local, 'train.py'), 'print(2)\n');
    await rm(join(onDisk, 'proj', 'data', 'keep.csv'));
    const third = await syncFolder(sessions, { storageId: volume.storage_id, localDir: local, remoteDir: '/proj' });
    assert.equal(third.sent, 2, 'the changed file and the one removed from the volume');
    assert.equal(await readFile(join(onDisk, 'proj', 'train.py'), 'utf8'), 'print(2)\n');
  });

  it('S3 transfers: RSA-only with an encrypted text/plain body, check first, progress, stop, delete, retry', async () => {
    const volume = await createVolume('s3', BYTES_PER_GIB);
    const b = sandbox.nas.bucket;
    const body = {
      storage_id: volume.storage_id,
      direction: 1 as const,
      s3_supplier: b.supplier,
      s3_endpoint: b.endpoint,
      s3_access_key: b.accessKey,
      s3_secret_key: b.secretKey,
      s3_bucket: b.bucket,
      s3_prefix: 'datasets/',
      nas_path: '/in',
    };
    await assert.rejects(createTransfer(token, body), (e: unknown) => {
      errorTexts.push(String(e));
      return e instanceof Error && /RSA-mode/.test(e.message);
    });
    // The sandbox refuses what a hand-written client would get wrong: plain JSON, or application/json.
    const plain = await sendToken(sandbox.computeBaseUrl, sandbox.credentials.tokenMode.token, { path: '/api/storage/nas/v1/encrypt/s3/check', body: '{}' });
    assert.match(plain.text, /"code":"C00[67]"/);

    await assert.rejects(createTransfer(rsa, { ...body, s3_secret_key: 'wrong' }), (e: unknown) => {
      errorTexts.push(String(e));
      return e instanceof Error && /check failed/.test(e.message);
    });
    const created = await createTransfer(rsa, body);
    assert.equal(created.status, 'Queuing');
    const running = await until(() => token.call('nas.transferDetail', { id: created.id }), (r) => r.status === 'Running' && r.transferred_bytes > 0, 'Running');
    assert.ok(running.total_files > 0 && running.bps > 0);
    const done = await until(() => token.call('nas.transferDetail', { id: created.id }), (r) => r.status === 'Completed', 'Completed');
    assert.equal(done.transferred_bytes, done.total_bytes);
    const onDisk = sandbox.nas.volumeDirectory(volume.storage_id) as string;
    assert.ok((await readdir(join(onDisk, 'in'))).includes('part-001.csv'), 'the objects landed in the volume');

    // Still Running when it is stopped, however long the machine takes to get there.
    sandbox.nas.setTransferRunningMs(PATIENCE_MS);
    const second = await createTransfer(rsa, body);
    sandbox.nas.setTransferRunningMs(600);
    await until(() => token.call('nas.transferDetail', { id: second.id }), (r) => r.status === 'Running', 'Running');
    assert.equal((await token.call('nas.transferStop', { id: second.id })).status, 'Stopped');
    await assert.rejects(token.call('nas.transferStop', { id: second.id }), (e: unknown) => e instanceof ComputeApiError && e.code === 'C010');
    assert.equal((await token.call('nas.transferDelete', { id: second.id })).status, 'Deleted');
    assert.equal((await token.call('nas.transferDelete', { id: second.id })).status, 'Deleted', 'repeatable');

    // A job against a missing bucket fails (S410); retry creates a new job and deletes the old one.
    const failing = await rsa.call('nas.transferCreate', { ...body, s3_bucket: 'nope', s3_prefix: '', nas_path: '' });
    const failed = await until(() => token.call('nas.transferDetail', { id: failing.id }), (r) => r.status === 'Error', 'Error');
    assert.equal(failed.error_code, 'S410');
    const retried = await createTransfer(rsa, body, { retryOf: failing.id });
    assert.notEqual(retried.id, failing.id);
    const list = await token.call('nas.transferList', { storage_id: volume.storage_id });
    assert.ok(!list.results.some((r) => r.id === failing.id), 'the retried job is Deleted');
    await assert.rejects(token.call('nas.transferList', { statuses: 'Nope' }), (e: unknown) => e instanceof ComputeApiError && e.code === 'S002');
  });

  it('never puts an SFTP password or an S3 key into a log line, an error or an exchange record', () => {
    const secrets = [...seenPasswords, sandbox.nas.bucket.secretKey, sandbox.nas.bucket.accessKey];
    assert.ok(seenPasswords.size >= 3, 'several sessions were issued');
    const texts = [...logLines, ...errorTexts, ...exchanges.map((e) => JSON.stringify(e))];
    assert.ok(exchanges.some((e) => e.responseBody.includes('"password":"••••••"')), 'the obtain answers were recorded, masked');
    for (const secret of secrets) {
      for (const text of texts) assert.ok(!text.includes(secret), 'a secret leaked into a log, an error or an exchange record');
    }
  });
});
