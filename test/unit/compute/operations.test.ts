import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { OperationId } from '../../../src/core/compute/api';
import {
  effectOf,
  encodeQuery,
  encodeQueryComponent,
  OPERATIONS,
  operationSpec,
  planOperation,
  planRaw,
} from '../../../src/core/compute/operations';
import { ConfigError } from '../../../src/core/errors';

const resources = [{ mark: 'm', region_name: 'r', resource: { device_name: 'd', region: 'r', gpu_name: 'g', gpu_count: 1, gpu_memory: 1, memory: 1, cpu_cores: 1 } }];
const services = [{ service_name: 's', service_image: 'i', remote_ports: [{ service_port: 80 }] }];

describe('operations catalog', () => {
  it('holds the seventeen operations with the platform methods, paths and flags', () => {
    const table = Object.fromEntries(OPERATIONS.map((op) => [op.id, `${op.method} ${op.path} ${op.encryption} ${op.idempotent ? 'idempotent' : 'once'}`]));
    assert.deepEqual(table, {
      'resource.search': 'GET /api/deployment/resource/search never idempotent',
      'task.list': 'GET /api/deployment/task/search never idempotent',
      'task.create': 'POST /api/deployment/task/create optional once',
      'task.detail': 'POST /api/deployment/task/detail never idempotent',
      'task.pause': 'POST /api/deployment/task/pause never idempotent',
      'task.recover': 'POST /api/deployment/task/recover never idempotent',
      'task.stop': 'POST /api/deployment/task/stop never idempotent',
      'task.changePoints': 'POST /api/deployment/task/change_points never idempotent',
      'node.list': 'GET /api/deployment/task/points never idempotent',
      'node.log': 'GET /api/deployment/task/point_log never idempotent',
      'storage.list': 'GET /api/storage/get_storage never idempotent',
      'storage.encryptCheck': 'POST /api/storage/encrypt/check required idempotent',
      'task.update': 'POST /api/deployment/task/update never idempotent',
      'node.events': 'GET /api/deployment/task/pod_event never idempotent',
      'node.delete': 'POST /api/deployment/task/delete_pod never once',
      'billing.byTime': 'GET /api/billing/get_billing_record never idempotent',
      'billing.byTask': 'GET /api/billing/get_task_billing_record never idempotent',
      'job.create': 'POST /api/task/job/create never once',
      'job.detail': 'GET /api/task/job/detail never idempotent',
      'job.list': 'GET /api/task/job/search never idempotent',
      'job.stop': 'POST /api/task/job/stop never idempotent',
      'jobQueue.groups': 'GET /api/job/queue/group/search never idempotent',
      'jobQueue.group': 'GET /api/job/queue/group/detail never idempotent',
      'nas.summary': 'GET /api/storage/nas/v1/summary never idempotent',
      'nas.dictionaries': 'GET /api/storage/nas/v1/dictionaries never idempotent',
      'nas.preCreate': 'GET /api/storage/nas/v1/pre-create never idempotent',
      'nas.list': 'GET /api/storage/nas/v1/list never idempotent',
      'nas.create': 'POST /api/storage/nas/v1/create never once',
      'nas.expand': 'POST /api/storage/nas/v1/expand never idempotent',
      'nas.rename': 'POST /api/storage/nas/v1/rename never idempotent',
      'nas.delete': 'POST /api/storage/nas/v1/delete never idempotent',
      'nas.sftpObtain': 'POST /api/storage/nas/v1/sftp/obtain never idempotent',
      'nas.sftpDestroy': 'POST /api/storage/nas/v1/sftp/destroy never idempotent',
      'nas.transferList': 'GET /api/storage/nas/v1/s3/list never idempotent',
      'nas.transferDetail': 'GET /api/storage/nas/v1/s3/detail never idempotent',
      'nas.transferStop': 'POST /api/storage/nas/v1/s3/stop never idempotent',
      'nas.transferDelete': 'POST /api/storage/nas/v1/s3/delete never idempotent',
      'nas.transferCreate': 'POST /api/storage/nas/v1/encrypt/s3/create required once',
      'nas.transferRetry': 'POST /api/storage/nas/v1/encrypt/s3/retry required once',
      'nas.transferCheck': 'POST /api/storage/nas/v1/encrypt/s3/check required idempotent',
      'preheat.regions': 'GET /api/task/image_preheat/get_regions never idempotent',
      'preheat.create': 'POST /api/task/image_preheat/create never once',
      'preheat.detail': 'GET /api/task/image_preheat/detail never idempotent',
      'preheat.list': 'GET /api/task/image_preheat/search never idempotent',
      'preheat.stop': 'POST /api/task/image_preheat/stop never idempotent',
      'metal.catalogueSingle': 'POST /api/output/v2/device-output/page_list_product_single_v2 optional idempotent',
      'metal.catalogueGroups': 'POST /api/output/v2/device-output/page_list_product_network_v2 optional idempotent',
      'metal.buy': 'POST /api/output/v2/device_order/buy_v2 optional once',
      'metal.orders': 'POST /api/output/v2/device_order/get_order_list_v2 optional idempotent',
      'metal.rentedSingle': 'POST /api/output/v2/device-output/list_rent_device_single_v2 optional idempotent',
      'metal.rentedGroups': 'POST /api/output/v2/device-output/list_rent_device_network_v2 optional idempotent',
      'metal.detail': 'POST /api/output/v2/device_order/get_device_details_v2 optional idempotent',
      'metal.setAutoRenew': 'POST /api/output/v2/auto_renew_device_config/set_auto_renew_config optional idempotent',
      'metal.cancelAutoRenew': 'POST /api/output/v2/auto_renew_device_config/delete_auto_renew_config optional idempotent',
    } satisfies Record<OperationId, string>);
    assert.deepEqual(
      operationSpec('storage.encryptCheck').fields.filter((f) => f.secret).map((f) => f.name),
      ['access_key', 'secret_key'],
    );
  });

  it('declares what each operation does to the account: confirmations and Sign Request read it, not the name', () => {
    const effects = Object.fromEntries(OPERATIONS.map((op) => [op.id, op.effect]));
    assert.deepEqual(effects, {
      'resource.search': 'read',
      'task.list': 'read',
      'task.create': 'write',
      'task.detail': 'read',
      'task.pause': 'write',
      'task.recover': 'write',
      'task.stop': 'destructive',
      'task.changePoints': 'write',
      'node.list': 'read',
      'node.log': 'read',
      'storage.list': 'read',
      'storage.encryptCheck': 'read',
      'task.update': 'destructive',
      'node.events': 'read',
      'node.delete': 'destructive',
      'billing.byTime': 'read',
      'billing.byTask': 'read',
      'job.create': 'write',
      'job.detail': 'read',
      'job.list': 'read',
      'job.stop': 'destructive',
      'jobQueue.groups': 'read',
      'jobQueue.group': 'read',
      'nas.summary': 'read',
      'nas.dictionaries': 'read',
      'nas.preCreate': 'read',
      'nas.list': 'read',
      'nas.create': 'write',
      'nas.expand': 'write',
      'nas.rename': 'write',
      'nas.delete': 'destructive',
      'nas.sftpObtain': 'write',
      'nas.sftpDestroy': 'write',
      'nas.transferList': 'read',
      'nas.transferDetail': 'read',
      'nas.transferStop': 'write',
      'nas.transferDelete': 'destructive',
      'nas.transferCreate': 'write',
      'nas.transferRetry': 'write',
      'nas.transferCheck': 'read',
      'preheat.regions': 'read',
      'preheat.create': 'write',
      'preheat.detail': 'read',
      'preheat.list': 'read',
      'preheat.stop': 'destructive',
      'metal.catalogueSingle': 'read',
      'metal.catalogueGroups': 'read',
      'metal.buy': 'write',
      'metal.orders': 'read',
      'metal.rentedSingle': 'read',
      'metal.rentedGroups': 'read',
      'metal.detail': 'read',
      'metal.setAutoRenew': 'write',
      'metal.cancelAutoRenew': 'write',
    } satisfies Record<OperationId, string>);
    assert.equal(effectOf({ kind: 'operation', operation: 'task.stop' }), 'destructive');
    // A hand-written request: only a GET is a read; a POST to any path may change something.
    assert.equal(effectOf({ kind: 'raw', method: 'GET' }), 'read');
    assert.equal(effectOf({ kind: 'raw', method: 'POST' }), 'write');
  });
});

describe('query encoding', () => {
  it('encodes once, RFC 3986 strict, in the given order', () => {
    assert.equal(encodeQuery([['b', '2'], ['a', '1 2']]), 'b=2&a=1%202');
    assert.equal(encodeQueryComponent("a+b/c?d=e&f'g!h(i)j*k~l"), 'a%2Bb%2Fc%3Fd%3De%26f%27g%21h%28i%29j%2Ak~l');
    assert.equal(encodeQueryComponent('%41'), '%2541', 'a percent sign is data, not a pre-encoded escape');
  });

  it('survives WHATWG URL parsing unchanged (what undici sends is what we signed)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' })), { maxLength: 5 }), (pairs) => {
        const pathWithQuery = `/api/x${pairs.length ? `?${encodeQuery(pairs)}` : ''}`;
        const url = new URL(`https://h.example${pathWithQuery}`);
        assert.equal(`${url.pathname}${url.search}`, pathWithQuery);
        assert.deepEqual([...url.searchParams], pairs);
      }),
      { numRuns: 500 },
    );
  });
});

describe('planning a call', () => {
  it('GET: catalog order, undefined skipped, numbers as decimal text', () => {
    const plan = planOperation('task.list', { page_size: 10, status: 'Running,Pending', search_value: '训练 1', page: 2, type: 'Deployment' }, undefined);
    assert.equal(plan.method, 'GET');
    assert.equal(plan.pathWithQuery, '/api/deployment/task/search?type=Deployment&status=Running%2CPending&search_value=%E8%AE%AD%E7%BB%83%201&page=2&page_size=10');
    assert.equal(plan.jsonBody, undefined);
    assert.equal(
      planOperation('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' }, undefined).pathWithQuery,
      '/api/deployment/resource/search?task_type=Deployment&device_type=GpuDevice',
    );
  });

  it('POST: compact JSON body; encryption optional for create, required for the storage check', () => {
    const create = planOperation('task.create', { task_name: '任务', points: 1, resources, services }, true);
    assert.equal(create.encrypt, true);
    assert.equal(create.idempotent, false);
    assert.ok(create.jsonBody?.startsWith('{"task_name":"任务","points":1,"resources":[{'));
    assert.equal(planOperation('task.create', { task_name: 't', points: 1, resources, services }, undefined).encrypt, false);
    const check = planOperation(
      'storage.encryptCheck',
      { storage_name: 's', juicefs_region_id: 1, bucket: 'b', dir: '/', endpoint: 'e', access_key: 'AKIA1234567890', secret_key: 'sk-secret-value-1' },
      undefined,
    );
    assert.equal(check.encrypt, true);
    assert.deepEqual(check.secretValues, ['AKIA1234567890', 'sk-secret-value-1']);
  });

  it('task detail: POST JSON in the spec form, GET ?task_id= in the fallback form', () => {
    assert.deepEqual(
      [planOperation('task.detail', { task_id: 7 }, undefined)].map((p) => [p.method, p.pathWithQuery, p.jsonBody]),
      [['POST', '/api/deployment/task/detail', '{"task_id":7}']],
    );
    const fallback = planOperation('task.detail', { task_id: 7 }, undefined, 'GET');
    assert.deepEqual([fallback.method, fallback.pathWithQuery, fallback.jsonBody], ['GET', '/api/deployment/task/detail?task_id=7', undefined]);
  });

  it('rejects bad parameters with the field named', () => {
    const cases: [OperationId, unknown, boolean | undefined, RegExp][] = [
      ['task.detail', {}, undefined, /"task_id" is required/],
      ['task.detail', { task_id: '7' }, undefined, /"task_id" must be an integer \(got "7"\)/],
      ['task.detail', { task_id: 1.5 }, undefined, /must be an integer/],
      ['task.create', { task_name: '', points: 1, resources, services }, undefined, /"task_name" must not be empty/],
      ['task.create', { task_name: 't', points: 1, resources: [], services }, undefined, /"resources" must be a non-empty array/],
      ['task.list', { type: 'Deployment', status: 'End', pages: 1 }, undefined, /unknown parameter "pages"/],
      // What the platform's docs mark required is required before anything is sent.
      ['task.list', { type: 'Deployment' }, undefined, /"status" is required/],
      ['task.list', { status: 'Running' }, undefined, /"type" is required/],
      ['resource.search', { device_type: 'GpuDevice' }, undefined, /"task_type" is required/],
      ['resource.search', { task_type: 'Deployment' }, undefined, /"device_type" is required/],
      ['storage.list', { status: 'Activate' }, undefined, /"storage_type" is required/],
      ['storage.list', { storage_type: 'Juicefs', status: '' }, undefined, /"status" must not be empty/],
      ['task.pause', { task_id: 1 }, true, /does not take an encrypted body/],
      ['storage.encryptCheck', { storage_name: 's', juicefs_region_id: 1, bucket: 'b', dir: '/', endpoint: 'e', access_key: 'a', secret_key: 'b' }, false, /requires an encrypted body/],
    ];
    for (const [id, params, encrypt, message] of cases) {
      assert.throws(() => planOperation(id, params, encrypt), (e: unknown) => e instanceof ConfigError && message.test(e.message), `${id} ${JSON.stringify(params)}`);
    }
  });

  it('raw requests: query pairs encoded, body compact, only GET repeated', () => {
    const get = planRaw({ method: 'GET', path: '/api/billing/get_billing_record', query: [['range', 'day'], ['start_time', '2026-01-01T00:00:00+08:00']] }, undefined);
    assert.equal(get.pathWithQuery, '/api/billing/get_billing_record?range=day&start_time=2026-01-01T00%3A00%3A00%2B08%3A00');
    assert.equal(get.idempotent, true);
    const post = planRaw({ method: 'POST', path: '/api/deployment/task/delete_pod', body: { point_id: 3 } }, undefined);
    assert.equal(post.jsonBody, '{"point_id":3}');
    assert.equal(post.idempotent, false);
    assert.throws(() => planRaw({ method: 'GET', path: '/api/x?y=1' }, undefined), /not inside the path/);
    assert.throws(() => planRaw({ method: 'GET', path: '/api/x', body: {} }, undefined), /GET request carries no body/);
    assert.throws(() => planRaw({ method: 'POST', path: '/api/x', encrypt: true }, undefined), /needs a body/);
  });
});
