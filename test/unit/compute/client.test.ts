import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { TaskCreateBody } from '../../../src/core/compute/api';
import { createComputeClient } from '../../../src/core/compute/client';
import { diagnose } from '../../../src/core/compute/diagnosis';
import { ComputeApiError } from '../../../src/core/compute/errors';
import { sign } from '../../../src/core/compute/signing';
import { ConfigError, HttpError } from '../../../src/core/errors';
import { json, type TestServer } from '../http/helpers/testServer';
import { capturingLogger, clientKeys, createBody, platformKeys, rsaCredentials, signatureValid, TOKEN, tokenCredentials, useClientServer } from './helpers/clientFixture';
import { decryptBlocks } from './helpers/keys';

describe('compute client against a local HTTP server', () => {
  const fixture = useClientServer();
  const client = fixture.client;
  let server: TestServer;
  beforeEach(() => {
    server = fixture.server();
  });

  it('RSA mode: signs the exact target and headers; returns data of a "0000" envelope', async () => {
    server.handle((req, res) => json(res, 200, { code: signatureValid(req) ? '0000' : 'C002', message: 'success', data: { count: 0, results: [] } }));
    const data = await client().call('task.list', { type: 'Deployment', status: 'Running', search_value: "it's (训练) 50%*", page: 1 });
    assert.deepEqual(data, { count: 0, results: [] });
    const [req] = server.requests;
    assert.ok(req);
    assert.equal(req.method, 'GET');
    assert.equal(req.url, '/api/deployment/task/search?type=Deployment&status=Running&search_value=it%27s%20%28%E8%AE%AD%E7%BB%83%29%2050%25%2A&page=1');
    assert.equal(req.headers.version, '1.0.0');
    assert.match(String(req.headers.timestamp), /^\d{13}$/);
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.body, '');
    assert.ok(signatureValid(req));
  });

  it('token mode: token, version and timestamp; no sign_str; Content-Type only with a body', async () => {
    server.handle((req, res) => json(res, 200, { code: 0, msg: 'ok', data: req.method === 'GET' ? { count: 0, results: [] } : null }));
    const c = client({ creds: tokenCredentials });
    await c.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
    await c.call('task.pause', { task_id: 42 });
    const [get, post] = server.requests;
    assert.equal(get?.url, '/api/deployment/resource/search?task_type=Deployment&device_type=GpuDevice');
    assert.equal(get?.headers.token, TOKEN);
    assert.equal(get?.headers.version, '1.0.0');
    assert.equal(get?.headers.sign_str, undefined);
    assert.equal(get?.headers['content-type'], undefined);
    assert.equal(post?.body, '{"task_id":42}');
    assert.equal(post?.headers['content-type'], 'application/json');
  });

  it('encrypted task create: Base64 of 256-byte blocks under the platform key, signed after encrypting', async () => {
    server.handle((req, res) => json(res, 200, { code: signatureValid(req) ? '0000' : 'C002', message: 'success', data: { task_id: 9 } }));
    const data = await client().call('task.create', createBody, { encrypt: true });
    assert.deepEqual(data, { task_id: 9 });
    const [req] = server.requests;
    assert.ok(req && signatureValid(req), 'signature covers the ciphertext as sent');
    assert.match(req.body, /^[A-Za-z0-9+/]+=*$/);
    assert.equal(Buffer.from(req.body, 'base64').length % 256, 0);
    assert.equal(decryptBlocks(req.body, platformKeys.privateKey).toString('utf8'), JSON.stringify(createBody));
    // The spec's type for an encrypted task create (docs/platform.md); only the NAS S3 calls send text/plain.
    assert.equal(req.headers['content-type'], 'application/json');
  });

  it('refuses before sending: token mode on an encrypted operation, own key as platform key, missing private key', async () => {
    const check = { storage_name: 's', juicefs_region_id: 1, bucket: 'b', dir: '/', endpoint: 'oss.example.com', access_key: 'AK_0123456789', secret_key: 'SK_abcdefghijkl' };
    await assert.rejects(client({ creds: tokenCredentials }).call('storage.encryptCheck', check), (e: unknown) => e instanceof ConfigError && /only RSA-mode keys/.test(e.message));
    await assert.rejects(
      client({ creds: { ...rsaCredentials, platformPublicKey: clientKeys.spkiPem } }).call('storage.encryptCheck', check),
      /platform public key slot holds your own public key/,
    );
    await assert.rejects(client({ creds: { mode: 'rsa', token: TOKEN } }).call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused,End' }), /RSA mode needs the client private key/);
    await assert.rejects(client({ creds: { mode: 'token', token: '  ' } }).call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused,End' }), /No API token/);
    assert.equal(server.requests.length, 0);
  });

  it('failure envelopes become ComputeApiError with code, message, kind and a local diagnosis', async () => {
    server.handle((_req, res) => json(res, 200, { code: 'C999', message: 'task_id: no such task', data: null }));
    await assert.rejects(client().call('task.detail', { task_id: 1 }), (e: unknown) => {
      assert.ok(e instanceof ComputeApiError);
      assert.equal(e.kind, 'api');
      assert.equal(e.code, 'C999');
      assert.equal(e.serverMessage, 'task_id: no such task');
      assert.equal(e.operation, 'task.detail');
      assert.equal(e.likelyCause.kind, 'unknown');
      assert.match(e.message, /^Task detail failed: C999 task_id: no such task$/);
      return true;
    });
    assert.equal(server.requests.length, 1, 'API failures are not retried');

    server.handle((_req, res) => json(res, 200, { code: 'C002', msg: 'sign error', data: null }));
    await assert.rejects(client().call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' }), (e: unknown) => {
      assert.ok(e instanceof ComputeApiError);
      assert.equal(e.kind, 'auth');
      assert.equal(e.likelyCause.kind, 'token-or-key-unregistered');
      return true;
    });
    await assert.rejects(client({ creds: tokenCredentials }).call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' }), (e: unknown) => e instanceof ComputeApiError && e.likelyCause.kind === 'token');
  });

  it('diagnoses clock skew from the failed response\'s own Date header, then corrects the next timestamps', async () => {
    const serverAhead = 10 * 60_000;
    server.handle((req, res) => {
      const serverNow = Date.now() + serverAhead;
      const fresh = Math.abs(Number(req.headers.timestamp) - serverNow) < 5 * 60_000;
      json(res, 200, { code: fresh ? '0000' : 'C004', message: fresh ? 'success' : 'timestamp expired', data: { count: 0, results: [] } }, { date: new Date(serverNow).toUTCString() });
    });
    const c = client();
    await assert.rejects(c.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' }), (e: unknown) => {
      assert.ok(e instanceof ComputeApiError);
      assert.equal(e.likelyCause.kind, 'clock-skew');
      assert.ok(e.likelyCause.kind === 'clock-skew' && Math.abs(e.likelyCause.offsetMs - serverAhead) < 2_000, JSON.stringify(e.likelyCause));
      assert.match(e.likelyCause.detail, /10\.0 min behind the server's/);
      return true;
    });
    assert.deepEqual(await c.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' }), { count: 0, results: [] });
    assert.equal(server.requests.length, 2, 'the timestamp failure itself was not retried');
  });

  it('diagnoses a 10-digit timestamp and a wrong version string', async () => {
    server.handle((_req, res) => json(res, 200, { code: 'C004', message: 'bad timestamp', data: null }));
    await assert.rejects(
      client({ now: () => Math.floor(Date.now() / 1000) }).call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' }),
      (e: unknown) => e instanceof ComputeApiError && e.likelyCause.kind === 'timestamp-format' && /10 digits means seconds/.test(e.likelyCause.detail),
    );
    await assert.rejects(
      client({ version: '0.0.1' }).call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' }),
      (e: unknown) => e instanceof ComputeApiError && e.likelyCause.kind === 'version-type' && /"0\.0\.1"/.test(e.likelyCause.detail),
    );
    assert.throws(() => client({ version: 1 as unknown as string }), (e: unknown) => e instanceof ConfigError && /must be the string "1\.0\.0"/.test(e.message));
  });

  it('an HTML error page becomes HttpError with a tag-free excerpt', async () => {
    server.handle((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<html><head><style>b{}</style></head><body><h1>500 Internal Server Error</h1><p>nginx</p></body></html>');
    });
    await assert.rejects(client().call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused,End' }), (e: unknown) => {
      assert.ok(e instanceof HttpError);
      assert.equal(e.status, 500);
      assert.equal(e.excerpt, '500 Internal Server Error nginx');
      assert.match(e.message, /expected the platform's JSON envelope but got an HTML page: 500 Internal Server Error nginx/);
      return true;
    });
    server.handle((_req, res) => {
      res.end('OK but not JSON');
    });
    await assert.rejects(client().call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused,End' }), (e: unknown) => e instanceof HttpError && e.status === 200 && e.excerpt === 'OK but not JSON');
  });

  it('task detail: POST first, GET ?task_id= after a 405, remembered by the client until reset', async () => {
    server.handle((req, res) => {
      if (req.method === 'POST') json(res, 405, { code: '405', message: 'Method Not Allowed', data: null }, { allow: 'GET' });
      else json(res, 200, { code: '0000', message: 'success', data: { task_id: 7, status: 'Running' } });
    });
    const c = client();
    // Lists the platform left out are read as empty where the result enters.
    assert.deepEqual(await c.call('task.detail', { task_id: 7 }), { task_id: 7, status: 'Running', resources: [], services: [] });
    assert.deepEqual(server.requests.map((r) => `${r.method} ${r.url} ${r.body}`), [
      'POST /api/deployment/task/detail {"task_id":7}',
      'GET /api/deployment/task/detail?task_id=7 ',
    ]);
    server.requests.length = 0;
    await c.call('task.detail', { task_id: 8 });
    assert.deepEqual(server.requests.map((r) => r.method), ['GET']);
    server.requests.length = 0;
    await client().call('task.detail', { task_id: 8 }); // another client (another profile) learns for itself
    assert.deepEqual(server.requests.map((r) => r.method), ['POST', 'GET']);
    assert.equal((await c.prepare('task.detail', { task_id: 8 })).method, 'GET');
    c.reset();
    assert.equal((await c.prepare('task.detail', { task_id: 8 })).method, 'POST');
  });

  it('prepare(): exactly what would be sent, every secret masked, self-verified', async () => {
    const c = client();
    const check = { storage_name: 'bucket-a', juicefs_region_id: 3, bucket: 'b', dir: '/data', endpoint: 'oss.example.com', access_key: 'AK_0123456789XYZ', secret_key: 'SK_abcdefghijklmnop' };
    const prepared = await c.prepare('storage.encryptCheck', check);
    assert.equal(server.requests.length, 0, 'prepare sends nothing');
    assert.equal(prepared.method, 'POST');
    assert.equal(prepared.url, `${server.url}/api/storage/encrypt/check`);
    assert.equal(prepared.encrypted, true);
    assert.equal(prepared.selfVerified, true);
    assert.equal(prepared.displayHeaders.token, 'tok_…cdef');
    assert.match(prepared.displayHeaders.sign_str ?? '', /^.{4}….{4}$/);
    assert.match(prepared.stringToSignForDisplay ?? '', new RegExp(`^/api/storage/encrypt/check\\n1\\.0\\.0\\n${prepared.timestamp}\\ntok_…cdef\\n[A-Za-z0-9+/]+=*$`));
    assert.match(prepared.stringToSignHexForDisplay ?? '', /^00000000 {2}2f 61 70 69/);
    assert.ok(prepared.stringToSignHexForDisplay?.includes('0a **'), 'token bytes masked after the LF');
    assert.match(prepared.plaintextBody ?? '', /"access_key":"AK_0…9XYZ","secret_key":"SK_a…mnop"/);
    assert.match(prepared.curl, /^curl --globoff -X POST '.*\/api\/storage\/encrypt\/check' -H "token: \$COMPUTE_TOKEN" -H 'version: 1\.0\.0'/);
    assert.match(prepared.curl, /-H "sign_str: \$SIGN_STR"/);
    const everything = JSON.stringify(prepared);
    for (const secret of [TOKEN, 'AK_0123456789XYZ', 'SK_abcdefghijklmnop', clientKeys.pkcs8Der.toString('base64').slice(10, 40)]) {
      assert.ok(!everything.includes(secret), `prepared output leaks ${secret.slice(0, 6)}…`);
    }
    const tokenHex = Buffer.from(TOKEN).toString('hex').match(/../g)?.join(' ') ?? '';
    assert.ok(!prepared.stringToSignHexForDisplay?.includes(tokenHex.slice(0, 20)));

    // The signature shown as self-verified is the one that would be sent: the server accepts it.
    const token = await c.prepare('task.list', { type: 'Deployment', status: 'End', page: 1 });
    assert.equal(token.pathWithQuery, '/api/deployment/task/search?type=Deployment&status=End&page=1');
    assert.equal(token.body, '');
    assert.ok(token.stringToSignForDisplay?.endsWith('\n'));
  });

  it('a plain body with secret fields is masked in the display but sent as is', async () => {
    const withPassword = { ...createBody, repository_username: 'me', repository_password: 'hunter2-very-secret' } as TaskCreateBody;
    const prepared = await client().prepare('task.create', withPassword);
    assert.ok(!JSON.stringify(prepared).includes('hunter2-very-secret'));
    assert.match(prepared.body, /"repository_password":"hunt…cret"/);
    assert.ok(prepared.stringToSignHexForDisplay?.includes('** ** **'));
  });

  it('measureClockSkew reads the Date header of one cheap GET', async () => {
    server.handle((_req, res) => json(res, 200, { code: '0000', message: 'success', data: {} }, { date: new Date(Date.now() - 7 * 60_000).toUTCString() }));
    const skew = await client().measureClockSkew();
    assert.ok(Math.abs(skew.offsetMs + 7 * 60_000) < 2_000, String(skew.offsetMs));
    assert.equal(skew.outsideWindow, true);
    assert.ok(skew.rttMs >= 0);
    // A request the platform accepts (its required parameters included), so the answer is a normal one.
    assert.equal(server.requests[0]?.url, '/api/deployment/resource/search?task_type=Deployment&device_type=GpuDevice');
    // Without usable credentials it still measures (unsigned).
    const unsigned = await client({ creds: { mode: 'rsa', token: TOKEN } }).measureClockSkew();
    assert.equal(unsigned.outsideWindow, true);
    assert.equal(server.requests[1]?.headers.token, undefined);
  });

  it('logs method, path, status, code and duration — never the token, signature or body', async () => {
    const lines: string[] = [];
    server.handle((req, res) => json(res, 200, { code: '0000', message: 'success', data: req.method === 'POST' ? { task_id: 1 } : { count: 0, results: [] } }));
    const c = client({ logger: capturingLogger(lines) });
    await c.call('task.create', createBody, { encrypt: true });
    await c.call('task.list', { type: 'Deployment', status: 'Running', search_value: 'x' });
    assert.match(lines.join('\n'), /compute POST \/api\/deployment\/task\/create → HTTP 200 code 0000 in \d+ ms/);
    assert.match(lines.join('\n'), /compute GET \/api\/deployment\/task\/search\?type=Deployment&status=Running&search_value=x → HTTP 200 code 0000 in \d+ ms/);
    const logged = lines.join('\n');
    assert.ok(server.requests.some((req) => req.body.length > 0), 'the encrypted create sent a body to look for');
    for (const req of server.requests) {
      assert.ok(!logged.includes(String(req.headers.sign_str)));
      if (req.body) assert.ok(!logged.includes(req.body.slice(0, 40)));
    }
    assert.ok(!logged.includes(TOKEN));
  });

  it('refuses plain http to a remote host and a base URL with a query', () => {
    assert.throws(() => createComputeClient({ baseUrl: 'http://openapi.suanli.cn', credentials: async () => tokenCredentials }), /Refusing plain http/);
    assert.throws(() => createComputeClient({ baseUrl: 'https://h.example/?x=1', credentials: async () => tokenCredentials }), /must not contain a query/);
  });

  it('send(): a generic signed request; the path keeps a base URL prefix in what is signed', async () => {
    server.handle((req, res) => json(res, 200, { code: signatureValid(req) ? '0000' : 'C002', message: 'ok', data: { path: req.url } }));
    const prefixed = createComputeClient({ baseUrl: `${server.url}/gateway/`, credentials: async () => rsaCredentials });
    const data = await prefixed.send({ method: 'GET', path: '/api/billing/get_billing_record', query: [['range', 'day']] });
    assert.deepEqual(data, { path: '/gateway/api/billing/get_billing_record?range=day' });
  });
});

describe('diagnose (local evidence only)', () => {
  const base = { mode: 'rsa' as const, version: '1.0.0', timestamp: '1718000000000', encrypted: false };
  it('blames the local key pair when our own signature does not verify', () => {
    const text = '/api/x\n1.0.0\n1718000000000\nt\n';
    const signature = sign(text, clientKeys.privateKey);
    const cause = diagnose('C002', { ...base, stringToSign: text, signature, ownPublicKey: platformKeys.publicKey });
    assert.equal(cause.kind, 'signature-mismatch-local');
    assert.equal(diagnose('C002', { ...base, stringToSign: text, signature, ownPublicKey: clientKeys.publicKey }).kind, 'token-or-key-unregistered');
  });
  it('with clean local evidence in RSA mode names both causes, the token before the key fingerprint', () => {
    const text = '/api/x\n1.0.0\n1718000000000\nt\n';
    const signature = sign(text, clientKeys.privateKey);
    const cause = diagnose('C002', { ...base, stringToSign: text, signature, ownPublicKey: clientKeys.publicKey });
    assert.equal(cause.kind, 'token-or-key-unregistered');
    const token = cause.detail.indexOf('API token');
    const fingerprint = cause.detail.indexOf('fingerprint');
    assert.ok(token !== -1 && fingerprint !== -1, cause.detail);
    assert.ok(token < fingerprint, 'the token (the commoner mistake) comes first');
    assert.doesNotMatch(cause.detail, /most likely holds a different public key/);
  });
  it('orders the checks: version, then timestamp format, then skew', () => {
    const skew = { offsetMs: 400_000, rttMs: 10, outsideWindow: true };
    assert.equal(diagnose('C004', { ...base, version: '1', timestamp: '171800000', skew }).kind, 'version-type');
    assert.equal(diagnose('C004', { ...base, timestamp: '171800000', skew }).kind, 'timestamp-format');
    assert.equal(diagnose('C004', { ...base, skew }).kind, 'clock-skew');
    assert.equal(diagnose('C004', { ...base, skew: { ...skew, offsetMs: 60_000, outsideWindow: false } }).kind, 'token-or-key-unregistered');
  });
});
