// The HTTP control endpoints that processes without the Sandbox object use (the extension host in
// a real VS Code, scripts), the request log, the console page, and the CLI's bootstrap file.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sendRsa, sendToken } from '../sandbox/handClient';
import { startSandbox } from '../sandbox/server';
import type { RecordedRequest, Sandbox, SandboxBootstrap } from '../sandbox/types';

const SEARCH = '/api/deployment/resource/search';

describe('sandbox control endpoints', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox();
  });
  after(() => sandbox.close());

  const control = (method: string, path: string, body?: unknown) =>
    fetch(`${sandbox.url}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });

  it('GET /__sandbox/bootstrap gives URLs and credentials that work', async () => {
    const response = await control('GET', '/__sandbox/bootstrap');
    assert.equal(response.status, 200);
    const bootstrap = (await response.json()) as SandboxBootstrap;
    assert.equal(bootstrap.computeBaseUrl, sandbox.computeBaseUrl);
    assert.equal(bootstrap.modelApiBaseUrl, `${sandbox.url}/v1`);
    assert.equal(bootstrap.consoleUrl, `${sandbox.url}/console`);
    assert.deepEqual(bootstrap.credentials, sandbox.credentials);
    assert.match(bootstrap.credentials.rsaMode.privateKeyPem, /^-{5}BEGIN PRIVATE KEY-{5}/);
    assert.match(bootstrap.credentials.rsaMode.platformPublicKeyPem, /^-----BEGIN PUBLIC KEY-----/);
    assert.notEqual(bootstrap.credentials.rsaMode.publicKeyPem, bootstrap.credentials.rsaMode.platformPublicKeyPem);
    const signed = await sendRsa(bootstrap.computeBaseUrl, bootstrap.credentials.rsaMode, { path: SEARCH });
    assert.equal(signed.code, '0000');
  });

  it('POST /__sandbox/faults injects, DELETE clears, bad faults get 400 naming the field', async () => {
    assert.equal((await control('POST', '/__sandbox/faults', { target: 'compute', kind: 'status', status: 502, count: 2 })).status, 201);
    const token = sandbox.credentials.tokenMode.token;
    assert.equal((await sendToken(sandbox.url, token, { path: SEARCH })).status, 502);
    assert.equal((await control('DELETE', '/__sandbox/faults')).status, 204);
    assert.equal((await sendToken(sandbox.url, token, { path: SEARCH })).code, '0000', 'the second 502 was cleared');

    const badKind = await control('POST', '/__sandbox/faults', { target: 'compute', kind: 'explode' });
    assert.equal(badKind.status, 400);
    assert.match(((await badKind.json()) as { error: string }).error, /fault\.kind/);
    const badCount = await control('POST', '/__sandbox/faults', { target: 'compute', kind: 'reset', count: 0 });
    assert.equal(badCount.status, 400);
    const notJson = await fetch(`${sandbox.url}/__sandbox/faults`, { method: 'POST', body: '{' });
    assert.equal(notJson.status, 400);
  });

  it('POST /__sandbox/clock moves the Date header', async () => {
    const response = await control('POST', '/__sandbox/clock', { offsetMs: -7_200_000 });
    assert.deepEqual(await response.json(), { offsetMs: -7_200_000 });
    try {
      const date = Date.parse((await control('GET', '/__sandbox/bootstrap')).headers.get('date') ?? '');
      assert.ok(Math.abs(date - (Date.now() - 7_200_000)) < 10_000);
    } finally {
      await control('POST', '/__sandbox/clock', { offsetMs: 0 });
    }
    assert.equal((await control('POST', '/__sandbox/clock', { offsetMs: 'soon' })).status, 400);
  });

  it('records requests newest first with their outcome, over HTTP too', async () => {
    await sendToken(sandbox.url, 'wrong-token', { path: `${SEARCH}?device_type=GpuDevice` });
    const latest = sandbox.requests[0];
    assert.equal(latest?.outcome, 'C001');
    assert.equal(latest.method, 'GET');
    assert.equal(latest.path, `${SEARCH}?device_type=GpuDevice`);
    assert.equal(latest.headers.token, 'wrong-token');
    const overHttp = (await (await control('GET', '/__sandbox/requests')).json()) as RecordedRequest[];
    assert.deepEqual(overHttp[0], latest);
  });

  it('serves a console page, 404s unknown control paths and 405s wrong methods', async () => {
    const page = await control('GET', '/console/settings/key');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await page.text(), /\/console\/settings\/key/);
    assert.equal((await control('GET', '/__sandbox/nothing')).status, 404);
    const wrongMethod = await control('PUT', '/__sandbox/faults', {});
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.get('allow'), 'POST, DELETE');
    assert.equal((await control('GET', '/elsewhere')).status, 404);
  });

  it('mounts interface B under /v1', async () => {
    const response = await control('GET', '/v1/models');
    assert.ok(response.headers.get('content-type')?.includes('application/json'));
    assert.ok(response.headers.get('date'), 'interface B answers carry the sandbox Date too');
    assert.equal(sandbox.requests[0]?.path, '/v1/models');
    assert.equal(sandbox.requests[0]?.outcome, String(response.status));
  });
});

describe('sandbox CLI', () => {
  it('starts, writes the bootstrap file, and stops cleanly on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
    const file = join(dir, 'bootstrap.json');
    const child = spawn(process.execPath, [join(__dirname, '..', 'sandbox', 'main.js'), '--pending-ms', '0', '--write-bootstrap', file], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      let output = '';
      child.stdout.setEncoding('utf8');
      for await (const chunk of child.stdout) {
        output += chunk as string;
        if (output.includes('Ctrl+C')) break;
      }
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      assert.ok(url, output);
      const bootstrap = JSON.parse(readFileSync(file, 'utf8')) as SandboxBootstrap;
      assert.equal(bootstrap.computeBaseUrl, url);
      const response = await sendToken(url, bootstrap.credentials.tokenMode.token, { path: SEARCH });
      assert.equal(response.code, '0000');
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      assert.equal(code, 0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects a bad flag with usage and exit code 2', async () => {
    const child = spawn(process.execPath, [join(__dirname, '..', 'sandbox', 'main.js'), '--port', 'abc'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 2);
    assert.match(stderr, /--port needs a non-negative integer/);
    assert.match(stderr, /usage:/);
  });
});
