// The compute client against the strict sandbox over loopback: every operation in both key modes,
// encryption, the task-detail fallback, concurrency, clock skew, a wrong registered key, and faults.

import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { ComputeClientOptions, ComputeCredentials, ExchangeRecord, Paged, StorageCheckBody, StorageItem, TaskCreateBody, TaskDetail, TaskNode, TaskSummary } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import { inStockTaskBody } from './helpers/inStockTaskBody';
import { ComputeApiError } from '../../src/core/compute/errors';
import { AbortedError, ConfigError, HttpError, NetworkError, RateLimitError, TimeoutError } from '../../src/core/errors';
import { startSandbox } from '../sandbox/server';
import type { RecordedRequest, Sandbox } from '../sandbox/types';
import { waitUntil } from '../helpers/eventually';

type Mode = 'token' | 'rsa';

/** Polls a condition (bounded) — for waiting on the sandbox, never as an assertion about time. */
async function waitFor(condition: () => boolean, what: string): Promise<void> {
  await waitUntil(what, condition, { everyMs: 10 });
}

describe('compute client against the strict sandbox', () => {
  let sandbox: Sandbox;
  let credentials: Record<Mode, ComputeCredentials>;

  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0 });
    const rsa = sandbox.credentials.rsaMode;
    credentials = {
      token: { mode: 'token', token: sandbox.credentials.tokenMode.token },
      rsa: { mode: 'rsa', token: rsa.token, privateKey: rsa.privateKeyPem, platformPublicKey: rsa.platformPublicKeyPem },
    };
  });
  after(() => sandbox.close());
  beforeEach(() => {
    sandbox.faults.clear();
    sandbox.setClockOffset(0);
  });

  const client = (mode: Mode, overrides: Partial<ComputeClientOptions> = {}) =>
    createComputeClient({
      baseUrl: sandbox.computeBaseUrl,
      credentials: async () => credentials[mode],
      retry: { baseDelayMs: 5, maxDelayMs: 3_000 },
      ...overrides,
    });

  /** Requests recorded after `snapshot` was taken, oldest first. */
  function since(snapshot: readonly RecordedRequest[]): RecordedRequest[] {
    const seen = new Set(snapshot);
    return sandbox.requests.filter((request) => !seen.has(request)).reverse();
  }

  /** A create body from a fresh resource search (marks are per device × region). */
  const createBodyFor = (mode: Mode, name: string): Promise<TaskCreateBody> =>
    inStockTaskBody(client(mode), name, { service_name: 'web', service_image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0', remote_ports: [{ service_port: 80 }] });


  for (const mode of ['token', 'rsa'] as const) {
    it(`${mode} mode: every operation, through a whole task lifecycle`, async () => {
      const c = client(mode);
      const devices = await c.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
      assert.ok(devices.count > 0 && devices.results.length > 0);

      const name = `contract-${mode}-训练`;
      const { task_id } = await c.call('task.create', await createBodyFor(mode, name));
      assert.ok(Number.isInteger(task_id));

      const listed: Paged<TaskSummary> = await c.call('task.list', { type: 'Deployment', status: 'Running,Pending', search_value: name, page: 1, page_size: 10 });
      assert.deepEqual(listed.results.map((task) => task.task_id), [task_id]);

      const detail: TaskDetail = await c.call('task.detail', { task_id });
      assert.equal(detail.task_name, name);
      assert.equal(detail.status, 'Running');

      const nodes: Paged<TaskNode> = await c.call('node.list', { task_id });
      const node = nodes.results[0];
      const service = detail.services[0];
      assert.ok(node && service);
      const log = await c.call('node.log', { task_id, point_id: node.point_id, service_id: service.service_id });
      assert.equal(typeof log.logs, 'string');

      assert.equal(await c.call('task.pause', { task_id }), null);
      assert.equal((await c.call('task.detail', { task_id })).status, 'Paused');
      await assert.rejects(c.call('task.pause', { task_id }), (e: unknown) => e instanceof ComputeApiError && e.code === 'C010' && e.kind === 'api');
      assert.equal(await c.call('task.recover', { task_id }), null);
      assert.equal(await c.call('task.changePoints', { task_id, points: 2 }), null);
      assert.equal((await c.call('task.detail', { task_id })).points, 2);
      assert.equal(await c.call('task.stop', { task_id }), null);
      assert.equal((await c.call('task.detail', { task_id })).status, 'End');

      const storage: Paged<StorageItem> = await c.call('storage.list', { storage_type: 'Juicefs', status: 'Activate' });
      assert.ok(storage.results.length > 0);
    });
  }

  it('RSA mode: encrypted task create and the storage check (encryption required)', async () => {
    const c = client('rsa');
    const body = await createBodyFor('rsa', '加密任务 🚀');
    const mark = sandbox.requests;
    const { task_id } = await c.call('task.create', body, { encrypt: true });
    const sent = since(mark).find((r) => r.path === '/api/deployment/task/create');
    assert.ok(sent);
    assert.match(sent.body, /^[A-Za-z0-9+/]+=*$/, 'the body on the wire is the Base64 ciphertext');
    assert.equal((await c.call('task.detail', { task_id })).task_name, '加密任务 🚀');

    const [item] = (await c.call('storage.list', { storage_type: 'Juicefs', status: 'Activate,Unactivated' })).results;
    assert.ok(item);
    const check: StorageCheckBody = {
      storage_name: item.storage_name,
      juicefs_region_id: item.juicefs_region_id,
      bucket: item.bucket,
      dir: item.dir,
      endpoint: item.endpoint,
      access_key: 'AKLT-contract-test',
      secret_key: 'c2VjcmV0LWNvbnRyYWN0',
    };
    const beforeCheck = sandbox.requests;
    assert.deepEqual(await c.call('storage.encryptCheck', check), { pass: true, message: null });
    const [checkRequest] = since(beforeCheck);
    assert.equal(checkRequest?.path, '/api/storage/encrypt/check');
    assert.ok(checkRequest && !checkRequest.body.includes('c2VjcmV0LWNvbnRyYWN0'), 'the secret never travels in clear');
  });

  it('token mode cannot reach the encrypted storage check: a clear ConfigError before sending', async () => {
    const before = sandbox.requests.length;
    await assert.rejects(
      client('token').call('storage.encryptCheck', { storage_name: 's', juicefs_region_id: 1, bucket: 'b', dir: '/', endpoint: 'e.example.com', access_key: 'a', secret_key: 'b' }),
      (e: unknown) => e instanceof ConfigError && /only RSA-mode keys/.test(e.message),
    );
    assert.equal(sandbox.requests.length, before);
  });

  it('task detail: the sandbox answers the spec POST with 405; the GET fallback is used and remembered', async () => {
    const c = client('rsa');
    c.reset();
    const { task_id } = await c.call('task.create', await createBodyFor('rsa', 'detail-fallback'));
    const mark = sandbox.requests;
    const detailRequests = (): string[] => since(mark).map((r) => `${r.method} ${r.path} ${r.outcome}`);
    await c.call('task.detail', { task_id });
    assert.deepEqual(detailRequests(), [
      'POST /api/deployment/task/detail 405',
      `GET /api/deployment/task/detail?task_id=${task_id} 0000`,
    ]);
    await c.call('task.detail', { task_id });
    assert.equal(detailRequests()[2], `GET /api/deployment/task/detail?task_id=${task_id} 0000`, 'the second call goes straight to GET');
    assert.equal(detailRequests().length, 3);
  });

  // Runs before the 100-request burst: a corrected timestamp is only accurate to the Date header's
  // ±0.5 s, and must not land on one of the burst's timestamps (the sandbox rightly rejects a reuse).
  it('a skewed local clock is rejected, diagnosed as clock skew, then corrected', async () => {
    const c = client('rsa', { now: () => Date.now() - 9 * 60_000 });
    await assert.rejects(c.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' }), (e: unknown) => {
      assert.ok(e instanceof ComputeApiError, String(e));
      assert.equal(e.kind, 'auth');
      assert.equal(e.likelyCause.kind, 'clock-skew');
      assert.ok(e.likelyCause.kind === 'clock-skew' && Math.abs(e.likelyCause.offsetMs - 9 * 60_000) < 3_000);
      return true;
    });
    const devices = await c.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
    assert.ok(devices.count > 0, 'the learned offset makes the next request pass');
  });

  it('a local clock far ahead: refused, diagnosed, and the next request uses the server time', async () => {
    const c = client('rsa', { now: () => Date.now() + 9 * 60_000 });
    await assert.rejects(c.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' }), (e: unknown) => e instanceof ComputeApiError && e.likelyCause.kind === 'clock-skew');
    const devices = await c.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
    assert.ok(devices.count > 0, 'the corrected timestamp does not continue from the refused one');
  });

  it('100 concurrent signed requests are all accepted (no timestamp reused)', async () => {
    const c = client('rsa');
    const mark = sandbox.requests;
    const results = await Promise.all(Array.from({ length: 100 }, () => c.call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused,End', page: 1, page_size: 1 })));
    assert.equal(results.length, 100);
    const recent = since(mark);
    assert.equal(recent.length, 100);
    assert.ok(recent.every((r) => r.outcome === '0000'));
    assert.equal(new Set(recent.map((r) => String(r.headers.timestamp))).size, 100);
  });

  it('measureClockSkew sees the sandbox clock moved by setClockOffset', async () => {
    sandbox.setClockOffset(8 * 60_000);
    const c = client('rsa');
    const skew = await c.measureClockSkew();
    assert.ok(Math.abs(skew.offsetMs - 8 * 60_000) < 3_000, String(skew.offsetMs));
    assert.equal(skew.outsideWindow, true);
    assert.ok((await c.call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused,End' })).count >= 0, 'timestamps follow the server clock after measuring');
    sandbox.setClockOffset(0);
    const near = await client('rsa').measureClockSkew();
    assert.ok(Math.abs(near.offsetMs) < 3_000 && !near.outsideWindow);
  });

  it('a key pair the platform does not hold → token-or-key-unregistered', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const c = createComputeClient({
      baseUrl: sandbox.computeBaseUrl,
      credentials: async () => ({ ...credentials.rsa, privateKey: other.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() }),
    });
    await assert.rejects(c.call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused,End' }), (e: unknown) => {
      assert.ok(e instanceof ComputeApiError);
      assert.equal(e.code, 'C002');
      assert.equal(e.likelyCause.kind, 'token-or-key-unregistered');
      return true;
    });
  });

  it('a 10-digit timestamp and a wrong version are diagnosed from local evidence', async () => {
    await assert.rejects(
      client('rsa', { now: () => Math.floor(Date.now() / 1000) }).call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused,End' }),
      (e: unknown) => e instanceof ComputeApiError && e.likelyCause.kind === 'timestamp-format',
    );
    await assert.rejects(
      client('rsa', { version: '1.0' }).call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused,End' }),
      (e: unknown) => e instanceof ComputeApiError && e.code === 'C005' && e.likelyCause.kind === 'version-type',
    );
  });

  describe('faults', () => {
    it('latency beyond the timeout → TimeoutError, not retried', async () => {
      sandbox.faults.inject({ target: 'compute', kind: 'latency', delayMs: 2_000, pathPrefix: '/api/deployment/task/search' });
      const mark = sandbox.requests;
      await assert.rejects(client('rsa', { timeoutMs: 300 }).call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused,End' }), (e: unknown) => e instanceof TimeoutError && e.phase === 'request');
      // The sandbox records the attempt when its connection closes; exactly one: timeouts are not retried.
      await waitFor(() => since(mark).length > 0, 'the timed-out request to be recorded');
      assert.deepEqual(since(mark).map((r) => r.outcome), ['client-closed']);
    });

    it('429 with Retry-After is retried and succeeds', async () => {
      sandbox.faults.inject({ target: 'compute', kind: 'status', status: 429, retryAfterSeconds: 1, pathPrefix: '/api/deployment/task/search' });
      const mark = sandbox.requests;
      const result = await client('rsa').call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused,End' });
      assert.ok(result.count >= 0);
      assert.deepEqual(since(mark).filter((r) => r.path.startsWith('/api/deployment/task/search')).map((r) => r.outcome), ['429', '0000']);
    });

    it('429 that outlasts the retries → RateLimitError', async () => {
      sandbox.faults.inject({ target: 'compute', kind: 'status', status: 429, retryAfterSeconds: 0, count: 3, pathPrefix: '/api/deployment/task/search' });
      await assert.rejects(client('rsa', { maxRetries: 2 }).call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused,End' }), RateLimitError);
    });

    it('503 is retried for reads', async () => {
      sandbox.faults.inject({ target: 'compute', kind: 'status', status: 503, count: 2, pathPrefix: '/api/storage/get_storage' });
      const mark = sandbox.requests;
      assert.ok((await client('token').call('storage.list', { storage_type: 'Juicefs', status: 'Activate,Unactivated' })).count >= 0);
      assert.deepEqual(since(mark).filter((r) => r.path.startsWith('/api/storage/get_storage')).map((r) => r.outcome), ['503', '503', '0000']);
    });

    it('an HTML error page → HttpError with a readable excerpt', async () => {
      sandbox.faults.inject({ target: 'compute', kind: 'html', status: 502, count: 3, pathPrefix: '/api/deployment/resource/search' });
      await assert.rejects(client('rsa', { maxRetries: 2 }).call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' }), (e: unknown) => {
        assert.ok(e instanceof HttpError);
        assert.equal(e.status, 502);
        assert.match(e.excerpt, /^502 Bad Gateway 502 Bad Gateway nginx$/);
        return true;
      });
    });

    it('a connection reset → retried for reads, NetworkError for a create (never retried)', async () => {
      sandbox.faults.inject({ target: 'compute', kind: 'reset', pathPrefix: '/api/deployment/task/points' });
      const c = client('rsa');
      const { task_id } = await c.call('task.create', await createBodyFor('rsa', 'reset-read'));
      assert.ok((await c.call('node.list', { task_id })).count >= 1);

      const body = await createBodyFor('rsa', 'reset-create');
      sandbox.faults.inject({ target: 'compute', kind: 'reset', pathPrefix: '/api/deployment/task/create' });
      const mark = sandbox.requests;
      await assert.rejects(c.call('task.create', body), NetworkError);
      assert.deepEqual(since(mark).map((r) => `${r.path} ${r.outcome}`), ['/api/deployment/task/create reset'], 'exactly one create attempt');
    });

    it('no retry for create on 503', async () => {
      const c = client('token');
      const body = await createBodyFor('token', 'no-retry');
      sandbox.faults.inject({ target: 'compute', kind: 'status', status: 503, count: 5, pathPrefix: '/api/deployment/task/create' });
      const mark = sandbox.requests;
      await assert.rejects(c.call('task.create', body), (e: unknown) => e instanceof HttpError && e.status === 503);
      assert.deepEqual(since(mark).map((r) => `${r.path} ${r.outcome}`), ['/api/deployment/task/create 503']);
    });

    it('abort while the sandbox is slow → AbortedError', async () => {
      sandbox.faults.inject({ target: 'compute', kind: 'latency', delayMs: 5_000, pathPrefix: '/api/deployment/task/search' });
      const controller = new AbortController();
      const mark = sandbox.requests;
      const pending = client('rsa').call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused,End' }, { signal: controller.signal });
      await waitFor(() => sandbox.faults.pending().length === 0, 'the request to reach the sandbox');
      controller.abort();
      await assert.rejects(pending, AbortedError);
      await waitFor(() => since(mark).length > 0, 'the aborted request to be recorded');
      assert.deepEqual(since(mark).map((r) => r.outcome), ['client-closed']);
    });

    it('the client-wide exchange observer sees every attempt (operation, status, envelope code) beside the call\'s own, never the token', async () => {
      sandbox.faults.inject({ target: 'compute', kind: 'status', status: 503, count: 1, pathPrefix: '/api/storage/get_storage' });
      const seen: ExchangeRecord[] = [];
      const ownSeen: ExchangeRecord[] = [];
      const c = client('token', {
        onExchange: (exchange) => {
          seen.push(exchange);
          throw new Error('an observer that throws must not break the call');
        },
      });
      assert.ok((await c.call('storage.list', { storage_type: 'Juicefs', status: 'Activate,Unactivated' }, { onExchange: (e) => ownSeen.push(e) })).count >= 0);
      sandbox.faults.inject({ target: 'compute', kind: 'envelope', code: 'Z001', message: 'system busy', pathPrefix: '/api/deployment/task/search' });
      await assert.rejects(c.call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused,End' }), ComputeApiError);
      const storage = seen.filter((e) => e.operation === 'storage.list');
      assert.deepEqual(storage.map((e) => [e.attempt, e.status, e.envelopeCode]), [[0, 503, '503'], [1, 200, '0000']]);
      assert.deepEqual(ownSeen.map((e) => e.attempt), [0, 1], 'the call\'s own observer still sees both attempts');
      const busy = seen.filter((e) => e.operation === 'task.list').at(-1);
      assert.equal(busy?.envelopeCode, 'Z001');
      assert.equal(busy?.request.method, 'GET');
      const token = credentials.token.token;
      assert.ok(!JSON.stringify(seen).includes(token), 'no record carries the token');
    });

    it('a business failure in an HTTP 200 envelope is not retried', async () => {
      sandbox.faults.inject({ target: 'compute', kind: 'envelope', code: 'Z001', message: 'system busy', pathPrefix: '/api/deployment/task/search' });
      const mark = sandbox.requests;
      await assert.rejects(client('rsa').call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused,End' }), (e: unknown) => e instanceof ComputeApiError && e.code === 'Z001' && e.serverMessage === 'system busy');
      assert.deepEqual(since(mark).map((r) => r.outcome), ['Z001']);
    });
  });
});
