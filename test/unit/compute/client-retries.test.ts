import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { ComputeApiError } from '../../../src/core/compute/errors';
import { AbortedError, HttpError, NetworkError, RateLimitError, TimeoutError } from '../../../src/core/errors';
import { json, type ReceivedRequest, type TestServer } from '../http/helpers/testServer';
import { capturingLogger, createBody, signatureValid, TOKEN, useClientServer } from './helpers/clientFixture';

describe('compute client: retries, refused state changes, secrets in errors, aborts', () => {
  const fixture = useClientServer();
  const client = fixture.client;
  let server: TestServer;
  beforeEach(() => {
    server = fixture.server();
  });

  it('429 with Retry-After is retried for reads, each attempt re-timestamped and re-signed', async () => {
    let calls = 0;
    server.handle((req, res) => {
      calls++;
      if (calls === 1) json(res, 429, { error: 'slow down' }, { 'retry-after': '0' });
      else json(res, 200, { code: signatureValid(req) ? '0000' : 'C002', message: 'success', data: { count: 0, results: [] } });
    });
    assert.deepEqual(await client().call('node.list', { task_id: 5 }), { count: 0, results: [] });
    const [first, second] = server.requests;
    assert.equal(server.requests.length, 2);
    assert.notEqual(first?.headers.timestamp, second?.headers.timestamp);
    assert.notEqual(first?.headers.sign_str, second?.headers.sign_str);
  });

  it('gives up after maxRetries with the right error, and does not wait longer than allowed', async () => {
    server.handle((_req, res) => json(res, 503, { error: 'busy' }));
    await assert.rejects(client({ maxRetries: 2 }).call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused,End' }), (e: unknown) => e instanceof HttpError && e.status === 503);
    assert.equal(server.requests.length, 3);

    server.requests.length = 0;
    server.handle((_req, res) => json(res, 429, { error: 'quota' }, { 'retry-after': '3600' }));
    await assert.rejects(client().call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused,End' }), (e: unknown) => e instanceof RateLimitError && e.retryAfterSeconds === 3600);
    assert.equal(server.requests.length, 1, 'a Retry-After beyond the cap is reported, not slept through');
  });

  it('never retries a create (503 or connection reset)', async () => {
    server.handle((_req, res) => json(res, 503, { error: 'busy' }));
    await assert.rejects(client().call('task.create', createBody), (e: unknown) => e instanceof HttpError && e.status === 503);
    assert.equal(server.requests.length, 1);

    server.requests.length = 0;
    server.handle((_req, _res, raw) => {
      raw.socket.destroy();
    });
    await assert.rejects(client().call('task.create', createBody), NetworkError);
    assert.equal(server.requests.length, 1);
  });

  it('retries a read after a connection reset', async () => {
    let calls = 0;
    server.handle((_req, res, raw) => {
      calls++;
      if (calls === 1) raw.socket.destroy();
      else json(res, 200, { code: '0000', message: 'success', data: { logs: 'line 1\n' } });
    });
    assert.deepEqual(await client().call('node.log', { task_id: 1, point_id: 2, service_id: 3 }), { logs: 'line 1\n', logsFrom: 0 });
    assert.equal(server.requests.length, 2);
  });

  it('a retried pause refused because the lost first attempt already paused the task succeeds, confirmed by task detail', async () => {
    let status = 'Running';
    const lines: string[] = [];
    server.handle((req, res, raw) => {
      if (req.url === '/api/deployment/task/pause') {
        if (status === 'Running') {
          status = 'Paused'; // the platform acted, but the answer is lost
          raw.socket.destroy();
        } else {
          json(res, 200, { code: 'C010', message: 'cannot pause task 9: it is Paused', data: null });
        }
      } else {
        json(res, 200, { code: '0000', message: 'success', data: { task_id: 9, status, points: 1 } });
      }
    });
    assert.equal(await client({ logger: capturingLogger(lines) }).call('task.pause', { task_id: 9 }), null);
    assert.deepEqual(server.requests.map((r) => `${r.method} ${r.url.split('?')[0] ?? ''}`), [
      'POST /api/deployment/task/pause',
      'POST /api/deployment/task/pause',
      'POST /api/deployment/task/detail',
    ]);
    assert.ok(lines.some((line) => /already has status Paused/.test(line)), lines.join('\n'));
  });

  it('a refused state change stays an error when nothing was lost, or when the task is not in the asked state', async () => {
    server.handle((req, res) => {
      if (req.url === '/api/deployment/task/recover') json(res, 200, { code: 'C010', message: 'cannot recover: it is Running', data: null });
      else json(res, 200, { code: '0000', message: 'success', data: { task_id: 9, status: 'Running', points: 1 } });
    });
    // First attempt answered: the refusal is the truth, no detail lookup.
    await assert.rejects(client().call('task.recover', { task_id: 9 }), (e: unknown) => e instanceof ComputeApiError && e.code === 'C010');
    assert.deepEqual(server.requests.map((r) => r.url), ['/api/deployment/task/recover']);

    // A lost first attempt, but detail shows another points count: the refusal is reported.
    server.requests.length = 0;
    let calls = 0;
    server.handle((req, res, raw) => {
      if (req.url === '/api/deployment/task/change_points') {
        calls++;
        if (calls === 1) raw.socket.destroy();
        else json(res, 200, { code: 'C010', message: 'cannot change points: it is End', data: null });
      } else {
        json(res, 200, { code: '0000', message: 'success', data: { task_id: 9, status: 'End', points: 2 } });
      }
    });
    await assert.rejects(client().call('task.changePoints', { task_id: 9, points: 3 }), (e: unknown) => e instanceof ComputeApiError && e.code === 'C010');
    assert.equal(server.requests.filter((r) => r.url.startsWith('/api/deployment/task/detail')).length, 1);
  });

  it('an auth failure envelope under a 5xx status is not retried: it goes to the signature diagnosis', async () => {
    server.handle((_req, res) => json(res, 503, { code: 'C001', message: 'unknown token', data: null }));
    await assert.rejects(client().call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused,End' }), (e: unknown) => e instanceof ComputeApiError && e.kind === 'auth' && e.httpStatus === 503);
    assert.equal(server.requests.length, 1);
  });

  it('a server that echoes the token or a secret body field back never puts it into an error', async () => {
    const secretKey = 'SK_abcdefghijklmnop_0123';
    const check = { storage_name: 's', juicefs_region_id: 3, bucket: 'b', dir: '/', endpoint: 'oss.example.com', access_key: 'AK_0123456789XYZ', secret_key: secretKey };
    const echoes: [string, (res: Parameters<Parameters<TestServer['handle']>[0]>[1], req: ReceivedRequest) => void][] = [
      ['envelope', (res, req) => json(res, 200, { code: 'C001', message: `token ${String(req.headers.token)} is revoked`, data: null })],
      ['html', (res, req) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        // The token sits across the 200-character excerpt boundary: masking must come before cutting.
        res.end(`<html><body>${'x'.repeat(190)} ${String(req.headers.token)} bad gateway</body></html>`);
      }],
      ['429', (res, req) => json(res, 429, { error: `quota for ${String(req.headers.token)}` }, { 'retry-after': '3600' })],
      ['plain', (res) => {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(`rejected secret_key=${secretKey}`);
      }],
    ];
    for (const [name, answer] of echoes) {
      server.handle((req, res) => answer(res, req));
      const error = await client({ maxRetries: 0 }).call('storage.encryptCheck', check).then(
        () => assert.fail(`${name}: expected a failure`),
        (e: unknown) => e,
      );
      assert.ok(error instanceof Error, name);
      const shown = `${error.message} ${JSON.stringify(error)}`;
      assert.ok(!shown.includes(TOKEN.slice(4, -4)), `${name}: the token leaked: ${shown}`);
      assert.ok(!shown.includes(secretKey.slice(4, -4)), `${name}: the secret key leaked: ${shown}`);
    }
  });

  it('aborts in flight and during backoff; times out without retrying', async () => {
    server.handle(() => undefined);
    const controller = new AbortController();
    const arrived = server.nextRequest();
    const pending = client().call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused,End' }, { signal: controller.signal });
    await arrived;
    controller.abort();
    await assert.rejects(pending, AbortedError);

    server.handle((_req, res) => json(res, 503, {}, { 'retry-after': '1' }));
    const duringBackoff = new AbortController();
    const firstAnswer = server.nextRequest();
    const backingOff = client().call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused,End' }, { signal: duringBackoff.signal });
    await firstAnswer;
    setImmediate(() => duringBackoff.abort());
    await assert.rejects(backingOff, AbortedError);

    server.requests.length = 0;
    server.handle(() => undefined);
    // Long enough for the request to reach the server on a busy machine (it is counted below).
    await assert.rejects(client({ timeoutMs: 2_000 }).call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused,End' }), (e: unknown) => e instanceof TimeoutError && e.timeoutMs === 2_000);
    assert.equal(server.requests.length, 1);
  });
});
