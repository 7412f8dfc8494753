// S3 transfers, NAS mounts in tasks and the NAS agent tools against the strict sandbox (real SFTP on
// 127.0.0.1): the transfer list read (every page, TRANSFER_STATE at rest only when nothing moves), the
// direction NAS → object storage, task create/update refusing a mount the platform's rules refuse, and
// the tools listing, reading and uploading through a real session. No S3 key or SFTP password may
// appear in any tool result or error.

import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ComputeClient, ComputeCredentials, TaskCreateBody } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import { ComputeApiError } from '../../src/core/compute/errors';
import { BYTES_PER_GIB, NasSessions, createTransfer, getVolume, listTransfers, nasToolAccess, TRANSFER_STATE, transferBody, type NasVolume, type TransferPlan } from '../../src/core/nas';
import { VolumeService } from '../../src/core/nas/volumeService';
import { findTool, type ToolContext } from '../../src/core/tools/index';
import { confirmTool, runTool } from '../../src/core/tools/run';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, limitMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > limitMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
}

describe('S3 transfers, NAS mounts and NAS tools against the strict sandbox', () => {
  let sandbox: Sandbox;
  let token: ComputeClient;
  let rsa: ComputeClient;
  let sessions: NasSessions;
  let work: string;
  let volume: NasVolume;
  const passwords = new Set<string>();

  const plan = (overrides: Partial<TransferPlan> = {}): TransferPlan => ({
    storageId: volume.storage_id,
    name: '',
    direction: 1,
    supplier: sandbox.nas.bucket.supplier,
    endpoint: sandbox.nas.bucket.endpoint,
    bucket: sandbox.nas.bucket.bucket,
    prefix: 'datasets/',
    nasPath: '/in',
    overwritePolicy: 2,
    ignorePatterns: [],
    ...overrides,
  });
  const keys = () => ({ accessKey: sandbox.nas.bucket.accessKey, secretKey: sandbox.nas.bucket.secretKey });

  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0, nas: { creatingMs: 100, sftpPendingMs: 50, queuingMs: 100, pendingMs: 100, runningMs: 800 } });
    const r = sandbox.credentials.rsaMode;
    const credentials: Record<'token' | 'rsa', ComputeCredentials> = {
      token: { mode: 'token', token: sandbox.credentials.tokenMode.token },
      rsa: { mode: 'rsa', token: r.token, privateKey: r.privateKeyPem, platformPublicKey: r.platformPublicKeyPem },
    };
    token = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => credentials.token, retry: { baseDelayMs: 5, maxDelayMs: 50 } });
    rsa = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => credentials.rsa, retry: { baseDelayMs: 5, maxDelayMs: 50 } });
    const observed = {
      call: (async (op: never, params: never, options?: never) => {
        const result = (await token.call(op, params, options)) as { password?: unknown } | null;
        if (typeof result?.password === 'string') passwords.add(result.password);
        return result;
      }) as ComputeClient['call'],
    };
    sessions = new NasSessions(new VolumeService(() => observed as never), { pendingPollMs: 30 });
    work = await mkdtemp(join(tmpdir(), 'nas-transfers-'));
    const created = await token.call('nas.create', { name: 'xfer', nas_config_id: 101, total_size: BYTES_PER_GIB });
    volume = (await until(() => getVolume(token, created.storage_id), (v) => v?.status === 'Active', 'Active')) as NasVolume;
  });

  after(async () => {
    sessions.dispose();
    await sandbox.close();
    await rm(work, { recursive: true, force: true });
  });

  it('lists every job; the state is not at rest while one moves, and at rest once all ended', async () => {
    const first = await createTransfer(rsa, transferBody(plan({ name: 'in-1' }), keys()));
    const failing = await rsa.call('nas.transferCreate', transferBody(plan({ bucket: 'missing' }), keys()));
    const moving = await listTransfers(token);
    assert.ok(moving.complete);
    assert.deepEqual(new Set(moving.items.map((r) => r.id)), new Set([first.id, failing.id]));
    assert.equal(TRANSFER_STATE.atRest(moving.items), false);
    const ended = await until(() => listTransfers(token), (l) => TRANSFER_STATE.atRest(l.items), 'every job ended');
    assert.deepEqual(ended.items.filter((r) => r.id === first.id || r.id === failing.id).map((r) => r.status).sort(), ['Completed', 'Error']);
    assert.ok(ended.statusCounts && ended.statusCounts.completed >= 1 && ended.statusCounts.error >= 1);
    const done = ended.items.find((r) => r.id === first.id);
    assert.equal(done?.name, 'in-1');
    assert.equal(done?.transferred_bytes, done?.total_bytes);
  });

  it('NAS → object storage copies the volume folder into the bucket (read back by a transfer the other way)', async () => {
    const onDisk = sandbox.nas.volumeDirectory(volume.storage_id) as string;
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(onDisk, 'out', 'sub'), { recursive: true });
    await writeFile(join(onDisk, 'out', 'result.txt'), 'accuracy=0.93\n');
    await writeFile(join(onDisk, 'out', 'sub', 'skip.tmp'), 'scratch');
    const up = await createTransfer(rsa, transferBody(plan({ direction: 2, prefix: 'exports/', nasPath: '/out', ignorePatterns: ['.tmp'] }), keys()));
    const sent = await until(() => token.call('nas.transferDetail', { id: up.id }), (r) => r.status === 'Completed', 'the export to complete');
    assert.equal(sent.total_files, 1, 'the ignored suffix is not sent');
    const down = await createTransfer(rsa, transferBody(plan({ direction: 1, prefix: 'exports/', nasPath: '/back' }), keys()));
    await until(() => token.call('nas.transferDetail', { id: down.id }), (r) => r.status === 'Completed', 'the import to complete');
    assert.equal(await readFile(join(onDisk, 'back', 'result.txt'), 'utf8'), 'accuracy=0.93\n');
  });

  it('reads past the first page of 100 jobs', async () => {
    // Jobs against a missing bucket are cheap: they fail after the queue without copying anything.
    for (let index = 0; index < 100; index++) await rsa.call('nas.transferCreate', transferBody(plan({ bucket: 'missing', name: `bulk-${index}` }), keys()));
    const listing = await listTransfers(token);
    assert.ok(listing.complete);
    assert.equal(listing.items.length, listing.total);
    assert.ok(listing.items.length >= 102);
    assert.equal(new Set(listing.items.map((r) => r.id)).size, listing.items.length, 'no job twice across pages');
  });

  it('the check refuses wrong keys without creating anything, and its answer never carries a key', async () => {
    const before = (await listTransfers(token)).total;
    await assert.rejects(createTransfer(rsa, transferBody(plan(), { accessKey: sandbox.nas.bucket.accessKey, secretKey: 'wrong-secret' })), (e: unknown) => {
      assert.equal((e as { code?: unknown }).code, 's3-check-failed');
      assert.ok(!String(e).includes(sandbox.nas.bucket.secretKey) && !String(e).includes('wrong-secret'));
      return true;
    });
    assert.equal((await listTransfers(token)).total, before);
  });

  it('task create and update mount only an Active volume of the task\'s region, at an absolute path', async () => {
    const devices = await token.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
    const regions = devices.results.flatMap((device) => device.regions).filter((candidate) => candidate.inventory > 1);
    const beijing = regions.find((candidate) => candidate.region_name === volume.region.name);
    const other = regions.find((candidate) => candidate.region_name !== volume.region.name);
    assert.ok(beijing && other, 'the sandbox has regions in stock in and outside the volume\'s region');
    const body = (region: typeof beijing, mounts: unknown): TaskCreateBody =>
      ({
        task_type: 'Deployment',
        task_name: 'mount-check',
        points: 1,
        resources: [{ mark: region.mark.mark, resource: region.mark.resource, region_name: region.region_name }],
        services: [{ service_name: 'web', service_image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0', remote_ports: [{ service_port: 6688 }], nas_storage_config: mounts }],
      }) as unknown as TaskCreateBody;
    const refused = async (mounts: unknown, region: typeof beijing, pattern: RegExp) =>
      assert.rejects(token.call('task.create', body(region, mounts)), (e: unknown) => e instanceof ComputeApiError && pattern.test(e.serverMessage));
    await refused([{ storage_id: volume.storage_id, target_dir: '/mnt/nas' }], other, /nas_storage_config\[0\]\.storage_id.*is in/);
    await refused([{ storage_id: 999_999, target_dir: '/mnt/nas' }], beijing, /no NAS volume/);
    await refused([{ storage_id: volume.storage_id, target_dir: 'mnt' }], beijing, /target_dir/);
    await refused([{ storage_id: volume.storage_id, target_dir: '/' }], beijing, /target_dir/);
    const { task_id: taskId } = await token.call('task.create', body(beijing, [{ storage_id: volume.storage_id, target_dir: '/mnt/nas' }]));
    const detail = await token.call('task.detail', { task_id: taskId });
    assert.deepEqual(detail.services[0]?.nas_storage_config, [{ storage_id: volume.storage_id, target_dir: '/mnt/nas' }]);
    // An update is checked the same way (the volume stops being Active while it expands).
    const update = { ...detail, services: detail.services.map((service) => ({ ...service, nas_storage_config: [{ storage_id: volume.storage_id, target_dir: '/data' }] })) };
    sandbox.nas.holdVolumePhases(true);
    try {
      await token.call('nas.expand', { id: volume.storage_id, total_size: 2 * BYTES_PER_GIB });
      await assert.rejects(token.call('task.update', update as never), (e: unknown) => e instanceof ComputeApiError && /Expanding/.test(e.serverMessage));
    } finally {
      sandbox.nas.holdVolumePhases(false);
    }
    await until(() => getVolume(token, volume.storage_id), (v) => v?.status === 'Active', 'expanded');
    await token.call('task.update', update as never);
    assert.deepEqual((await token.call('task.detail', { task_id: taskId })).services[0]?.nas_storage_config, [{ storage_id: volume.storage_id, target_dir: '/data' }]);
    await token.call('task.stop', { task_id: taskId });
  });

  it('the NAS tools list, read and upload through a real SFTP session; nothing secret in their results', async () => {
    const context: ToolContext = { client: token, profile: { label: 'Sandbox', environment: 'sandbox' }, nasFiles: nasToolAccess(() => sessions, [work]) };
    const texts: string[] = [];
    const run = async (name: string, input: Record<string, unknown>) => {
      const tool = findTool(name);
      assert.ok(tool);
      const result = await runTool(tool, input, context);
      texts.push(result.text);
      return result;
    };
    assert.match((await run('compute_nas_list_volumes', {})).text, new RegExp(`storage_id ${volume.storage_id} "xfer": Active`));
    const listing = await run('compute_nas_list_directory', { storage_id: volume.storage_id, path: '/in' });
    assert.equal(listing.isError, false, listing.text);
    assert.match(listing.text, /part-001\.csv/, 'the completed transfer wrote its objects');
    const read = await run('compute_nas_read_file', { storage_id: volume.storage_id, path: '/in/README.md' });
    assert.match(read.text, /```\n# sample dataset\n```/);
    const tooBig = await run('compute_nas_read_file', { storage_id: volume.storage_id, path: '/in/part-001.csv', max_bytes: 100 });
    assert.equal(tooBig.isError, true);
    assert.match(tooBig.text, /larger than/);

    await writeFile(join(work, 'train.py'), 'print("hi")\n');
    const upload = findTool('compute_nas_upload_file');
    assert.ok(upload);
    const input = { storage_id: volume.storage_id, local_path: 'train.py', remote_path: '/code/' };
    const confirmation = await confirmTool(upload, input, context);
    assert.match(confirmation?.message ?? '', /Path: \/code\/train\.py/);
    assert.equal((await run('compute_nas_upload_file', input)).isError, false);
    const onDisk = sandbox.nas.volumeDirectory(volume.storage_id) as string;
    assert.equal(await readFile(join(onDisk, 'code', 'train.py'), 'utf8'), 'print("hi")\n');
    await writeFile(join(work, 'train.py'), 'print("changed")\n');
    assert.match((await run('compute_nas_upload_file', input)).text, /kept/);
    assert.equal(await readFile(join(onDisk, 'code', 'train.py'), 'utf8'), 'print("hi")\n', 'kept without overwrite');
    assert.equal((await run('compute_nas_upload_file', { ...input, local_path: '../outside.txt' })).isError, true, 'nothing outside the folder');

    assert.ok(passwords.size >= 1, 'a session was opened');
    for (const secret of [...passwords, sandbox.nas.bucket.secretKey, sandbox.nas.bucket.accessKey]) {
      for (const text of texts) assert.ok(!text.includes(secret), 'a secret reached a tool result');
    }
  });
});
