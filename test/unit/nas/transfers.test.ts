// S3 ↔ NAS transfers and NAS mounts without a network: the transfer list read (every page, up to the cap),
// TRANSFER_STATE's atRest/equal, the form checks, the body (keys only there), the progress the platform
// reports (totals of 0 stay unknown), key masking, and the mount rules (Active, same region, path).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NasVolume, TransferRecord } from '../../../src/core/nas/operations';
import { MAX_TRANSFER_PAGES, TRANSFER_PAGE_SIZE, TRANSFER_STATE, listTransfers } from '../../../src/core/nas/transferState';
import {
  bucketProblem,
  canRetryTransfer,
  canStopTransfer,
  endpointProblem,
  nasPathProblem,
  parseIgnorePatterns,
  planOf,
  prefixProblem,
  transferBody,
  transferProgressView,
} from '../../../src/core/nas/transferForm';
import { addMountToConfig, mountableVolumes, normalTargetDir, targetDirProblem } from '../../../src/core/nas/mounts';
import { maskKeys } from '../../../src/core/nas/volumes';
import { assertLinearTime } from '../../helpers/linearTime';

function record(id: number, status: TransferRecord['status'], extra: Partial<TransferRecord> = {}): TransferRecord {
  return {
    id,
    name: `t-${id}`,
    ready_files: 0,
    total_files: 0,
    transferred_bytes: 0,
    total_bytes: 0,
    bps: 0,
    remaining_seconds: 0,
    status,
    direction: 1,
    overwrite_policy: 2,
    create_time: '2026-07-05 10:00:00',
    last_update_time: '2026-07-05 10:00:00',
    end_time: null,
    storage_id: 1001,
    storage_name: 'vol',
    s3_supplier: 'minio',
    s3_endpoint: 's3.example',
    s3_bucket: 'b',
    s3_prefix: 'data/',
    nas_path: '/in',
    ignore_patterns: ['.tmp'],
    error_code: null,
    error_message: null,
    ...extra,
  };
}

function volume(id: number, status: NasVolume['status'], region: { tag: string; name: string }): NasVolume {
  return {
    storage_id: id,
    name: `v${id}`,
    region,
    storage_class: 'nfs-standard',
    storage_class_name: '标准型',
    unit_price: 120,
    display_unit_price: '0.36',
    total_size: 1024 ** 3,
    used_size: -1,
    status,
    namespace: 'ns',
    claim_name: `pvc-${id}`,
    instance_count: 0,
    instances: [],
    create_time: '',
    last_update_time: '',
    error_code: null,
    error_message: null,
  };
}

/** A fake list endpoint over `total` jobs, counting calls. */
function fakeApi(total: number) {
  const calls: Record<string, unknown>[] = [];
  const all = Array.from({ length: total }, (_, index) => record(total - index, index % 7 === 0 ? 'Running' : 'Completed'));
  return {
    calls,
    api: {
      call: (async (operation: string, params: { page: number; page_size: number }) => {
        assert.equal(operation, 'nas.transferList');
        calls.push(params);
        const start = (params.page - 1) * params.page_size;
        return { count: total, status_counts: { pending: 0, running: 1, stopped: 0, completed: 0, error: 0, exception: 0, queuing: 0 }, results: all.slice(start, start + params.page_size) };
      }) as never,
    },
  };
}

describe('S3 transfers: the list read and TRANSFER_STATE', () => {
  it('reads every page of 100 and stops at the last one', async () => {
    const { api, calls } = fakeApi(250);
    const listing = await listTransfers(api);
    assert.equal(listing.items.length, 250);
    assert.equal(listing.complete, true);
    assert.equal(listing.total, 250);
    assert.deepEqual(calls.map((c) => c['page']), [1, 2, 3]);
    assert.ok(calls.every((c) => c['page_size'] === TRANSFER_PAGE_SIZE));
  });

  it('stops at the page cap and says the listing is incomplete', async () => {
    const { api, calls } = fakeApi(TRANSFER_PAGE_SIZE * MAX_TRANSFER_PAGES + 3);
    const listing = await listTransfers(api);
    assert.equal(calls.length, MAX_TRANSFER_PAGES);
    assert.equal(listing.complete, false);
    assert.equal(listing.items.length, TRANSFER_PAGE_SIZE * MAX_TRANSFER_PAGES);
  });

  it('one page for an empty account', async () => {
    const { api, calls } = fakeApi(0);
    assert.deepEqual((await listTransfers(api)).items, []);
    assert.equal(calls.length, 1);
  });

  it('is at rest only when no job is Queuing, Pending or Running', () => {
    assert.equal(TRANSFER_STATE.atRest([record(1, 'Completed'), record(2, 'Stopped'), record(3, 'Error'), record(4, 'Exception')]), true);
    for (const moving of ['Queuing', 'Pending', 'Running'] as const) assert.equal(TRANSFER_STATE.atRest([record(1, 'Completed'), record(2, moving)]), false, moving);
    assert.equal(TRANSFER_STATE.key(record(7, 'Completed')), 7);
  });

  it('progress and status changes are news; the deprecated speed text is not', () => {
    const base = record(1, 'Running', { transferred_bytes: 10, total_bytes: 100, bps: 5, speed: '5B/s' } as Partial<TransferRecord>);
    assert.equal(TRANSFER_STATE.equal(base, { ...base }), true);
    assert.equal(TRANSFER_STATE.equal(base, { ...base, transferred_bytes: 20 }), false);
    assert.equal(TRANSFER_STATE.equal(base, { ...base, status: 'Completed' }), false);
    assert.equal(TRANSFER_STATE.equal(base, { ...base, remaining_seconds: 3 }), false);
  });
});

describe('S3 transfers: the form, the body and the progress', () => {
  it('checks endpoint, bucket, prefix and NAS path', () => {
    assert.equal(endpointProblem('cos.ap-guangzhou.myqcloud.com'), undefined);
    assert.equal(endpointProblem('https://minio.local:9000'), undefined);
    assert.equal(endpointProblem(' '), 'empty');
    assert.equal(endpointProblem('a b'), 'spaces');
    assert.equal(endpointProblem('evil.com/path?x=1'), 'characters');
    assert.equal(bucketProblem('ml-data'), undefined);
    assert.equal(bucketProblem('a/b'), 'characters');
    assert.equal(prefixProblem(''), undefined);
    assert.equal(prefixProblem('/data'), 'relative');
    assert.equal(nasPathProblem(''), undefined);
    assert.equal(nasPathProblem('/in/data'), undefined);
    assert.equal(nasPathProblem('in'), 'relative');
    assert.equal(nasPathProblem('/in/../etc'), 'dots');
    assert.deepEqual(parseIgnorePatterns(' .tmp, .log .tmp ,,'), ['.tmp', '.log']);
  });

  it('puts the keys only into the body, trims, defaults the NAS path to the root, leaves an empty name out', () => {
    const plan = { storageId: 9, name: ' ', direction: 2 as const, supplier: ' aws ', endpoint: ' s3.example ', bucket: ' b ', prefix: 'p/', nasPath: '', overwritePolicy: 3 as const, ignorePatterns: [] };
    const body = transferBody(plan, { accessKey: ' AK1 ', secretKey: ' secret with spaces ' });
    assert.deepEqual(body, {
      storage_id: 9,
      direction: 2,
      s3_supplier: 'aws',
      s3_endpoint: 's3.example',
      s3_access_key: 'AK1',
      s3_secret_key: ' secret with spaces ',
      s3_bucket: 'b',
      s3_prefix: 'p/',
      nas_path: '/',
      overwrite_policy: 3,
      ignore_patterns: null,
    });
    assert.ok(!JSON.stringify(plan).includes('secret'), 'the plan holds no key');
  });

  it('a retry starts from the failed job\'s own fields; only Error/Exception retry and only Running stops', () => {
    const failed = record(5, 'Error', { s3_bucket: 'nope', ignore_patterns: ['.log'] });
    const plan = planOf(failed);
    assert.equal(plan.bucket, 'nope');
    assert.deepEqual(plan.ignorePatterns, ['.log']);
    assert.equal(canRetryTransfer(failed), true);
    assert.equal(canRetryTransfer(record(1, 'Exception')), true);
    assert.equal(canRetryTransfer(record(1, 'Completed')), false);
    assert.equal(canStopTransfer(record(1, 'Running')), true);
    assert.equal(canStopTransfer(record(1, 'Queuing')), false);
  });

  it('shows totals only once counted, and rate and time left only while Running', () => {
    const counting = transferProgressView(record(1, 'Running', { ready_files: 0, total_files: 0, total_bytes: 0, bps: 0 }));
    assert.equal(counting.filesTotal, undefined);
    assert.equal(counting.bytesTotal, undefined);
    assert.equal(counting.bytesPerSecond, undefined);
    const running = transferProgressView(record(1, 'Running', { ready_files: 42, total_files: 100, transferred_bytes: 20, total_bytes: 100, bps: 2, remaining_seconds: 40 }));
    assert.deepEqual(running, { filesDone: 42, filesTotal: 100, bytesDone: 20, bytesTotal: 100, bytesPerSecond: 2, secondsLeft: 40 });
    const stopped = transferProgressView(record(1, 'Stopped', { bps: 2, remaining_seconds: 40 }));
    assert.equal(stopped.bytesPerSecond, undefined);
    assert.equal(stopped.secondsLeft, undefined);
    const garbage = transferProgressView(record(1, 'Running', { ready_files: -5, transferred_bytes: Number.NaN }));
    assert.equal(garbage.filesDone, 0);
    assert.equal(garbage.bytesDone, 0);
  });

  it('masks either key wherever a server message echoes it', () => {
    const body = { s3_access_key: 'AKIAEXAMPLE', s3_secret_key: 'sEcReT/123' };
    assert.equal(maskKeys('denied for AKIAEXAMPLE with sEcReT/123 (sEcReT/123)', body), 'denied for •••••• with •••••• (••••••)');
    assert.equal(maskKeys('nothing here', body), 'nothing here');
  });
});

describe('NAS mounts in tasks', () => {
  const bj = { tag: 'bj-001', name: '北京一区' };
  const sh = { tag: 'sh-001', name: '上海一区' };

  it('offers only Active volumes of the task\'s region (display name or tag)', () => {
    const volumes = [volume(1, 'Active', bj), volume(2, 'Creating', bj), volume(3, 'Active', sh), volume(4, 'Active', bj)];
    assert.deepEqual(mountableVolumes(volumes, '北京一区').map((v) => v.storage_id), [1, 4]);
    assert.deepEqual(mountableVolumes(volumes, 'sh-001').map((v) => v.storage_id), [3]);
    assert.deepEqual(mountableVolumes(volumes, ''), []);
  });

  it('takes an absolute target directory below the root', () => {
    assert.equal(targetDirProblem('/mnt/nas'), undefined);
    assert.equal(targetDirProblem('mnt/nas'), 'relative');
    assert.equal(targetDirProblem('/'), 'root');
    assert.equal(targetDirProblem('/mnt/../etc'), 'dots');
    assert.equal(targetDirProblem('/mnt/my data'), 'characters');
    assert.equal(targetDirProblem(`/${'a'.repeat(300)}`), 'too-long');
    assert.equal(normalTargetDir('/mnt//nas/'), '/mnt/nas');
  });

  it('adds a mount to the configuration being edited, keeping the rest of the text, and replaces one of the same volume', () => {
    const text = '{\n  "task_id": 7,\n  // the user\'s note\n  "services": [\n    { "service_name": "web", "nas_storage_config": null }\n  ]\n}\n';
    const once = addMountToConfig(text, { storage_id: 1001, target_dir: '/mnt/nas/' });
    assert.match(once, /\/\/ the user's note/);
    const parsed = JSON.parse(once.replace(/\/\/.*\n/, '')) as { services: { nas_storage_config: unknown }[] };
    assert.deepEqual(parsed.services[0]!.nas_storage_config, [{ storage_id: 1001, target_dir: '/mnt/nas' }]);
    const twice = addMountToConfig(once, { storage_id: 1001, target_dir: '/data' });
    const again = JSON.parse(twice.replace(/\/\/.*\n/, '')) as { services: { nas_storage_config: unknown }[] };
    assert.deepEqual(again.services[0]!.nas_storage_config, [{ storage_id: 1001, target_dir: '/data' }]);
    assert.throws(() => addMountToConfig('{"services": []}', { storage_id: 1, target_dir: '/x' }));
    assert.throws(() => addMountToConfig('not json', { storage_id: 1, target_dir: '/x' }));
  });

  it('checks a long adversarial path in linear time', () => {
    assertLinearTime('targetDirProblem', (n) => `/${'a/'.repeat(n)}..`, (dir) => targetDirProblem(dir.slice(0, 250)) ?? nasPathProblem(dir), { n: 400 });
  });
});
