// The sandbox is only useful if it rejects what the platform rejects. These requests are built by
// hand with node:crypto (test/sandbox/handClient.ts), independent of the extension's client, and
// each malformed kind must come back with its own code.

import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { encryptJson, freshTimestamp, sendRaw, sendRsa, sendToken, signText, stringToSign, VERSION, type RsaRequest } from '../sandbox/handClient';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';
import { waitUntil } from '../helpers/eventually';

const SEARCH = '/api/deployment/resource/search?task_type=Deployment&device_type=GpuDevice';
const CHECK = '/api/storage/encrypt/check';
const CREATE = '/api/deployment/task/create';
const TASK_LIST = '/api/deployment/task/search?type=Deployment&status=Running,Pending,Paused,End';

const goodStorageCheck = {
  storage_name: 'datasets',
  juicefs_region_id: 7,
  bucket: 'ml-datasets',
  dir: '/imagenet',
  endpoint: 'tos-s3-cn-beijing.volces.com',
  access_key: 'AKLTtest',
  secret_key: 'c2VjcmV0',
};

describe('sandbox strictness (interface A)', () => {
  let sandbox: Sandbox;
  let rsa: Sandbox['credentials']['rsaMode'];
  let token: string;

  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0 });
    rsa = sandbox.credentials.rsaMode;
    token = sandbox.credentials.tokenMode.token;
  });
  after(() => sandbox.close());

  const rsaGet = (path: string, extra: Partial<RsaRequest> = {}) => sendRsa(sandbox.url, rsa, { ...extra, path });

  async function firstMark(): Promise<{ mark: string; resource: unknown; region_name: string }> {
    const search = await sendToken(sandbox.url, token, { path: SEARCH });
    assert.equal(search.code, '0000');
    const devices = (search.data as { results: { regions: { region_name: string; inventory: number; mark: { mark: string; resource: unknown } }[] }[] }).results;
    const region = devices.flatMap((device) => device.regions).find((candidate) => candidate.inventory > 0);
    assert.ok(region, 'the catalogue offers a region with inventory');
    return { mark: region.mark.mark, resource: region.mark.resource, region_name: region.region_name };
  }

  async function createBody(name = 'strict-test'): Promise<string> {
    return JSON.stringify({
      task_name: name,
      points: 1,
      resources: [await firstMark()],
      services: [{ service_name: 'web', service_image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0', remote_ports: [{ service_port: 80 }] }],
    });
  }

  describe('accepts correct requests', () => {
    it('RSA-mode GET with the query in the signed path and an empty body', async () => {
      const response = await rsaGet(SEARCH);
      assert.equal(response.status, 200);
      assert.equal(response.code, '0000');
      assert.equal(response.message, 'success');
      assert.ok((response.data as { count: number }).count > 0);
    });

    it('token-mode requests with token, version and timestamp', async () => {
      assert.equal((await sendToken(sandbox.url, token, { path: SEARCH })).code, '0000');
    });

    it('RSA-mode POST with an encrypted body (application/json and text/plain)', async () => {
      for (const contentType of ['application/json', 'text/plain']) {
        const body = encryptJson(rsa.platformPublicKeyPem, JSON.parse(await createBody('加密任务')) as unknown);
        const response = await sendRsa(sandbox.url, rsa, { path: CREATE, body, contentType });
        assert.equal(response.code, '0000', `${contentType}: ${String(response.message)}`);
        assert.equal(typeof (response.data as { task_id: unknown }).task_id, 'number');
      }
    });

    it('RSA-mode POST with plain JSON to an operation where encryption is optional', async () => {
      const response = await sendRsa(sandbox.url, rsa, { path: CREATE, body: await createBody() });
      assert.equal(response.code, '0000', String(response.message));
    });

    it('100 concurrent signed requests, each with its own timestamp', async () => {
      const responses = await Promise.all(Array.from({ length: 100 }, () => rsaGet(SEARCH)));
      assert.deepEqual(new Set(responses.map((response) => response.code)), new Set(['0000']));
    });
  });

  describe('C001 token', () => {
    it('missing token', async () => {
      const response = await sendRaw(sandbox.url, { path: SEARCH, headers: { version: VERSION, timestamp: freshTimestamp() } });
      assert.equal(response.code, 'C001');
      assert.equal(response.data, null);
    });
    it('unknown token', async () => {
      assert.equal((await sendToken(sandbox.url, 'not-a-token', { path: SEARCH })).code, 'C001');
    });
  });

  describe('C002 signature', () => {
    it('signed with a key that is not the registered one', async () => {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      assert.equal((await rsaGet(SEARCH, { signingKey: privateKey })).code, 'C002');
    });
    it('body changed after signing', async () => {
      const body = await createBody();
      const response = await sendRsa(sandbox.url, rsa, { path: CREATE, body: body.replace('strict-test', 'strict-tesT'), signedBody: body });
      assert.equal(response.code, 'C002');
    });
    it('query missing from the signed path', async () => {
      assert.equal((await rsaGet(SEARCH, { signedPath: '/api/deployment/resource/search' })).code, 'C002');
    });
    it('"{}" signed for an empty body', async () => {
      assert.equal((await rsaGet(SEARCH, { signedBody: '{}' })).code, 'C002');
    });
    it('plain JSON signed instead of the encrypted body that was sent', async () => {
      const plain = JSON.stringify(goodStorageCheck);
      const body = encryptJson(rsa.platformPublicKeyPem, goodStorageCheck);
      assert.equal((await sendRsa(sandbox.url, rsa, { path: CHECK, body, signedBody: plain })).code, 'C002');
    });
    it('sign_str that is not Base64', async () => {
      assert.equal((await rsaGet(SEARCH, { signature: 'not base64!!' })).code, 'C002');
    });
  });

  describe('C004 timestamp', () => {
    it('10-digit seconds timestamp (RSA and token mode)', async () => {
      const seconds = String(Math.floor(Date.now() / 1000));
      assert.equal((await rsaGet(SEARCH, { timestamp: seconds })).code, 'C004');
      assert.equal((await sendToken(sandbox.url, token, { path: SEARCH, headers: { timestamp: seconds } })).code, 'C004');
    });
    it('expired (6 minutes old) and too far ahead', async () => {
      assert.equal((await rsaGet(SEARCH, { timestamp: String(Date.now() - 6 * 60_000) })).code, 'C004');
      assert.equal((await rsaGet(SEARCH, { timestamp: String(Date.now() + 6 * 60_000) })).code, 'C004');
    });
    it('inside the window (4 minutes old) is accepted', async () => {
      assert.equal((await rsaGet(SEARCH, { timestamp: String(Date.now() - 4 * 60_000) })).code, '0000');
    });
    it('reused for the same token', async () => {
      const timestamp = freshTimestamp();
      assert.equal((await rsaGet(SEARCH, { timestamp })).code, '0000');
      const again = await rsaGet(SEARCH, { timestamp });
      assert.equal(again.code, 'C004');
      assert.match(String(again.message), /already used/);
    });
    it('a rejected signature does not burn the timestamp', async () => {
      const timestamp = freshTimestamp();
      assert.equal((await rsaGet(SEARCH, { timestamp, signedBody: '{}' })).code, 'C002');
      assert.equal((await rsaGet(SEARCH, { timestamp })).code, '0000');
    });
    it('missing in RSA mode', async () => {
      assert.equal((await rsaGet(SEARCH, { omit: ['timestamp'] })).code, 'C004');
    });
  });

  describe('C005 version', () => {
    for (const version of ['1', '1.0', '0.0.1', 'v1.0.0']) {
      it(`version "${version}"`, async () => {
        assert.equal((await rsaGet(SEARCH, { version })).code, 'C005');
      });
    }
    it('missing in RSA mode', async () => {
      assert.equal((await rsaGet(SEARCH, { omit: ['version'] })).code, 'C005');
    });
    it('wrong in token mode', async () => {
      assert.equal((await sendToken(sandbox.url, token, { path: SEARCH, headers: { version: '1' } })).code, 'C005');
    });
  });

  describe('C006 encryption', () => {
    it('plain JSON to the encrypt check', async () => {
      assert.equal((await sendRsa(sandbox.url, rsa, { path: CHECK, body: JSON.stringify(goodStorageCheck) })).code, 'C006');
    });
    it('garbage Base64', async () => {
      assert.equal((await sendRsa(sandbox.url, rsa, { path: CHECK, body: 'bm90IGEgY2lwaGVydGV4dA@@' })).code, 'C006');
      assert.equal((await sendRsa(sandbox.url, rsa, { path: CHECK, body: Buffer.alloc(100, 7).toString('base64') })).code, 'C006');
    });
    it('encrypted with a key that is not the platform key', async () => {
      const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const body = encryptJson(publicKey, goodStorageCheck);
      const response = await sendRsa(sandbox.url, rsa, { path: CHECK, body });
      assert.equal(response.code, 'C006');
      assert.match(String(response.message), /decryption failed/);
    });
    it('encrypted with the client\'s own public key instead of the platform key', async () => {
      const body = encryptJson(rsa.publicKeyPem, goodStorageCheck);
      assert.equal((await sendRsa(sandbox.url, rsa, { path: CHECK, body })).code, 'C006');
    });
    it('an encrypted body to an operation that takes none', async () => {
      const body = encryptJson(rsa.platformPublicKeyPem, { task_id: 1 });
      assert.equal((await sendRsa(sandbox.url, rsa, { path: '/api/deployment/task/pause', body })).code, 'C006');
    });
  });

  describe('C007 key mode', () => {
    it('token-mode key calling the encrypt check', async () => {
      const body = encryptJson(rsa.platformPublicKeyPem, goodStorageCheck);
      assert.equal((await sendToken(sandbox.url, token, { path: CHECK, body })).code, 'C007');
    });
    it('token-mode key sending an encrypted task create', async () => {
      const body = encryptJson(rsa.platformPublicKeyPem, JSON.parse(await createBody()) as unknown);
      assert.equal((await sendToken(sandbox.url, token, { path: CREATE, body })).code, 'C007');
    });
    it('RSA-mode key without sign_str', async () => {
      assert.equal((await rsaGet(SEARCH, { omit: ['sign_str'] })).code, 'C007');
    });
  });

  describe('encrypt check', () => {
    const check = (value: unknown) => sendRsa(sandbox.url, rsa, { path: CHECK, body: encryptJson(rsa.platformPublicKeyPem, value), contentType: 'text/plain' });

    it('passes for a listed bucket and endpoint with keys', async () => {
      const response = await check(goodStorageCheck);
      assert.equal(response.code, '0000');
      assert.deepEqual(response.data, { pass: true, message: null });
    });
    it('fails (pass: false) for an unknown bucket or empty keys', async () => {
      const unknown = await check({ ...goodStorageCheck, bucket: 'nope' });
      assert.equal(unknown.code, '0000');
      assert.equal((unknown.data as { pass: boolean }).pass, false);
      const empty = await check({ ...goodStorageCheck, secret_key: '' });
      assert.equal((empty.data as { pass: boolean }).pass, false);
      assert.doesNotMatch(empty.text, /AKLTtest/, 'credentials are never echoed');
    });
    for (const [field, value] of [
      ['juicefs_region_id', '7'],
      ['bucket', undefined],
      ['endpoint', 'https://tos-s3-cn-beijing.volces.com/'],
      ['access_key', 42],
      ['dir', null],
    ] as const) {
      it(`C999 naming ${field} when it is ${JSON.stringify(value) ?? 'missing'}`, async () => {
        const response = await check({ ...goodStorageCheck, [field]: value });
        assert.equal(response.code, 'C999');
        assert.match(String(response.message), new RegExp(`^${field}:`));
      });
    }
    it('long bodies span several 256-byte blocks', async () => {
      const response = await check({ ...goodStorageCheck, dir: `/${'数据'.repeat(200)}` });
      assert.equal(response.code, '0000', String(response.message));
    });
  });

  describe('HTTP-level realism', () => {
    it('POST task detail answers 405 with Allow: GET; GET ?task_id= works', async () => {
      const post = await sendRsa(sandbox.url, rsa, { path: '/api/deployment/task/detail', body: '{"task_id":1229831}' });
      assert.equal(post.status, 405);
      assert.equal(post.headers.get('allow'), 'GET');
      assert.equal(post.code, '405');
      const get = await rsaGet('/api/deployment/task/detail?task_id=1229831');
      assert.equal(get.code, '0000');
      assert.equal((get.data as { task_id: number }).task_id, 1229831);
    });
    it('unknown path answers 404 with a JSON envelope', async () => {
      const response = await rsaGet('/api/deployment/nothing');
      assert.equal(response.status, 404);
      assert.equal(response.code, '404');
      assert.equal(response.data, null);
    });
  });

  describe('task lifecycle', () => {
    const post = (path: string, value: unknown) => sendRsa(sandbox.url, rsa, { path, body: JSON.stringify(value) });
    const status = async (taskId: number) => {
      const response = await rsaGet(`/api/deployment/task/detail?task_id=${taskId}`);
      assert.equal(response.code, '0000');
      return (response.data as { status: string }).status;
    };

    it('Running → pause → Paused → recover → Running → stop → End, with C010 for invalid moves', async () => {
      const created = await post(CREATE, JSON.parse(await createBody('lifecycle')) as unknown);
      assert.equal(created.code, '0000', String(created.message));
      const taskId = (created.data as { task_id: number }).task_id;
      assert.equal(await status(taskId), 'Running'); // pendingMs: 0

      assert.equal((await post('/api/deployment/task/recover', { task_id: taskId })).code, 'C010');
      assert.equal((await post('/api/deployment/task/pause', { task_id: taskId })).code, '0000');
      assert.equal(await status(taskId), 'Paused');
      assert.equal((await post('/api/deployment/task/pause', { task_id: taskId })).code, 'C010');
      assert.equal((await post('/api/deployment/task/recover', { task_id: taskId })).code, '0000');
      assert.equal(await status(taskId), 'Running');
      assert.equal((await post('/api/deployment/task/stop', { task_id: taskId })).code, '0000');
      assert.equal(await status(taskId), 'End');
      for (const action of ['stop', 'pause', 'recover']) {
        const response = await post(`/api/deployment/task/${action}`, { task_id: taskId });
        assert.equal(response.code, 'C010', action);
        assert.equal(response.data, null);
      }
      assert.equal((await post('/api/deployment/task/change_points', { task_id: taskId, points: 2 })).code, 'C010');
    });

    it('a Pending task cannot be paused', async () => {
      const slow = await startSandbox({ pendingMs: 3_600_000 });
      try {
        const body = await createBody('pending');
        const created = await sendToken(slow.url, slow.credentials.tokenMode.token, {
          path: CREATE,
          body: body.replace(/"mark":"[^"]+"/, `"mark":"${(await firstMarkOf(slow)).mark}"`),
        });
        assert.equal(created.code, '0000', String(created.message));
        const taskId = (created.data as { task_id: number }).task_id;
        const pause = await sendToken(slow.url, slow.credentials.tokenMode.token, { path: '/api/deployment/task/pause', body: JSON.stringify({ task_id: taskId }) });
        assert.equal(pause.code, 'C010');
        assert.match(String(pause.message), /Pending/);
      } finally {
        await slow.close();
      }
    });
  });

  describe('faults', () => {
    it('latency delays the answer, which still succeeds', async () => {
      sandbox.faults.inject({ target: 'compute', kind: 'latency', delayMs: 300 });
      const started = performance.now();
      const response = await rsaGet(SEARCH);
      assert.equal(response.code, '0000');
      assert.ok(performance.now() - started >= 290, 'answered no sooner than the injected delay');
    });
    it('a client that gives up during latency is recorded as client-closed, and close() does not wait', async () => {
      const slow = await startSandbox();
      try {
        slow.faults.inject({ target: 'compute', kind: 'latency', delayMs: 600_000 });
        const request = sendToken(slow.url, slow.credentials.tokenMode.token, { path: SEARCH });
        const rejected = assert.rejects(request, TypeError);
        await waitUntil('the request to take the fault', () => slow.faults.pending().length === 0, { everyMs: 10 });
        assert.deepEqual(slow.faults.pending(), [], 'the request took the fault');
        await slow.close(); // resolves although the 10-minute delay has not run out
        await rejected;
        await waitUntil('the request to be recorded', () => slow.requests.length > 0, { everyMs: 10 });
        assert.equal(slow.requests[0]?.outcome, 'client-closed');
      } finally {
        await slow.close();
      }
    });
    it('429 with Retry-After, once, then normal service', async () => {
      sandbox.faults.inject({ target: 'compute', kind: 'status', status: 429, retryAfterSeconds: 7 });
      const limited = await rsaGet(SEARCH);
      assert.equal(limited.status, 429);
      assert.equal(limited.headers.get('retry-after'), '7');
      assert.equal((await rsaGet(SEARCH)).code, '0000');
    });
    it('5xx with a JSON body, for `count` requests on a path prefix only', async () => {
      sandbox.faults.inject({ target: 'compute', kind: 'status', status: 503, count: 2, pathPrefix: '/api/deployment/task/' });
      assert.equal((await rsaGet(SEARCH)).code, '0000', 'other paths are not affected');
      for (let attempt = 0; attempt < 2; attempt++) {
        const failed = await rsaGet(TASK_LIST);
        assert.equal(failed.status, 503);
        assert.ok(failed.json, 'the body is JSON');
      }
      assert.equal((await rsaGet(TASK_LIST)).code, '0000');
    });
    it('an HTML gateway page', async () => {
      sandbox.faults.inject({ target: 'compute', kind: 'html' });
      const response = await rsaGet(SEARCH);
      assert.equal(response.status, 502);
      assert.match(response.headers.get('content-type') ?? '', /text\/html/);
      assert.match(response.text, /<title>502 Bad Gateway<\/title>/);
      assert.equal(response.json, undefined);
    });
    it('a connection reset', async () => {
      sandbox.faults.inject({ target: 'compute', kind: 'reset' });
      await assert.rejects(rsaGet(SEARCH), TypeError);
      assert.equal(sandbox.requests[0]?.outcome, 'reset');
    });
    it('a failure envelope with HTTP 200', async () => {
      sandbox.faults.inject({ target: 'compute', kind: 'envelope', code: 'C008', message: 'rate limited' });
      const response = await rsaGet(SEARCH);
      assert.equal(response.status, 200);
      assert.equal(response.code, 'C008');
      assert.equal(response.message, 'rate limited');
      assert.equal(response.data, null);
    });
    it('inference faults do not touch interface A', async () => {
      sandbox.faults.inject({ target: 'inference', kind: 'status', status: 500 });
      assert.equal((await rsaGet(SEARCH)).code, '0000');
      sandbox.faults.clear();
    });
  });

  describe('clock', () => {
    it('the Date header follows setClockOffset, and the window follows the sandbox clock', async () => {
      const hourMs = 3600_000;
      sandbox.setClockOffset(hourMs);
      try {
        const response = await rsaGet(SEARCH, { timestamp: freshTimestamp(hourMs) });
        assert.equal(response.code, '0000', 'a timestamp on the sandbox clock is accepted');
        const serverMs = Date.parse(response.headers.get('date') ?? '');
        assert.ok(Math.abs(serverMs - (Date.now() + hourMs)) < 10_000, 'Date is one hour ahead');
        assert.equal((await rsaGet(SEARCH, { timestamp: String(Date.now()) })).code, 'C004', 'the real clock is an hour behind');
      } finally {
        sandbox.setClockOffset(0);
      }
      const serverMs = Date.parse((await rsaGet(SEARCH, { timestamp: String(Date.now() + 2 * hourMs) })).headers.get('date') ?? '');
      assert.ok(Math.abs(serverMs - Date.now()) < 10_000, 'Date is back to real time');
    });
  });

  describe('envelope field', () => {
    it('answers `msg` instead of `message` when asked', async () => {
      const specStyle = await startSandbox({ envelopeField: 'msg' });
      try {
        const response = await sendToken(specStyle.url, specStyle.credentials.tokenMode.token, { path: SEARCH });
        assert.equal(response.json?.msg, 'success');
        assert.equal('message' in (response.json ?? {}), false);
      } finally {
        await specStyle.close();
      }
    });
  });

  it('the string to sign used here matches the spec example shape', () => {
    // Guards the hand client itself: four LFs, an empty body leaves a trailing newline.
    assert.equal(stringToSign('/api/x?a=1', '1.0.0', '1700000000000', 'tok', ''), '/api/x?a=1\n1.0.0\n1700000000000\ntok\n');
    assert.equal(typeof signText(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey, 'x'), 'string');
  });
});

async function firstMarkOf(sandbox: Sandbox): Promise<{ mark: string }> {
  const search = await sendToken(sandbox.url, sandbox.credentials.tokenMode.token, { path: SEARCH });
  const devices = (search.data as { results: { regions: { inventory: number; mark: { mark: string } }[] }[] }).results;
  const region = devices.flatMap((device) => device.regions).find((candidate) => candidate.inventory > 0);
  assert.ok(region);
  return { mark: region.mark.mark };
}
