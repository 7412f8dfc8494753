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

const SEARCH = '/api/deployment/resource/search?task_type=Deployment&device_type=GpuDevice';

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
    await sendToken(sandbox.url, 'wrong-token', { path: `${SEARCH}&page=1` });
    const latest = sandbox.requests[0];
    assert.equal(latest?.outcome, 'C001');
    assert.equal(latest.method, 'GET');
    assert.equal(latest.path, `${SEARCH}&page=1`);
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

  it('POST /__sandbox/tasks/seed adds a heavy account in mixed statuses; bad counts get 400 naming the field', async () => {
    const token = sandbox.credentials.tokenMode.token;
    const list = async (status: string, page = 1) => {
      const response = await sendToken(sandbox.url, token, { path: `/api/deployment/task/search?type=Deployment&status=${status}&page=${page}&page_size=100` });
      assert.equal(response.code, '0000', String(response.message));
      return response.data as { count: number; results: { task_id: number; status: string; runing_points: number }[] };
    };
    const endedBefore = (await list('End')).count;
    const response = await control('POST', '/__sandbox/tasks/seed', { running: 4, pending: 3, paused: 2, ended: 250 });
    assert.equal(response.status, 201);
    const seeded = (await response.json()) as { created: number; total: number; ids: Record<'running' | 'pending' | 'paused' | 'ended', number[]> };
    assert.equal(seeded.created, 259);
    assert.deepEqual([seeded.ids.running.length, seeded.ids.pending.length, seeded.ids.paused.length, seeded.ids.ended.length], [4, 3, 2, 250]);

    const ended = await list('End');
    assert.equal(ended.count, endedBefore + 250);
    assert.equal((await list('End', 3)).results.length, ended.count - 200, 'the third page holds the rest');
    const byId = new Map((await list('Running,Pending,Paused')).results.map((task) => [task.task_id, task]));
    for (const id of seeded.ids.running) assert.equal(byId.get(id)?.status, 'Running');
    for (const id of seeded.ids.pending) assert.equal(byId.get(id)?.status, 'Pending');
    for (const id of seeded.ids.paused) assert.equal(byId.get(id)?.status, 'Paused');
    // Running tasks have nodes (each a node list entry).
    const nodes = await sendToken(sandbox.url, token, { path: `/api/deployment/task/points?task_id=${seeded.ids.running[0]}` });
    assert.ok((nodes.data as { count: number }).count >= 1);
    // Active tasks are spread through the history, not stacked on one end of it.
    const allIds = [...seeded.ids.running, ...seeded.ids.pending, ...seeded.ids.paused, ...seeded.ids.ended].sort((a, b) => a - b);
    const positions = seeded.ids.running.map((id) => allIds.indexOf(id));
    assert.ok(Math.max(...positions) - Math.min(...positions) > 9, 'running tasks are interleaved with ended ones');

    for (const [body, field] of [
      [{ ended: -1 }, 'seed.ended'],
      [{ running: 1.5 }, 'seed.running'],
      [{ finished: 3 }, 'seed.finished'],
      [{}, 'at least one'],
      [{ ended: 20_001 }, 'at most'],
    ] as const) {
      const bad = await control('POST', '/__sandbox/tasks/seed', body);
      assert.equal(bad.status, 400, JSON.stringify(body));
      assert.match(((await bad.json()) as { error: string }).error, new RegExp(field));
    }
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
    const child = spawn(process.execPath, [join(__dirname, '..', 'sandbox', 'main.js'), '--pending-ms', '0', '--heavy-account', '--write-bootstrap', file], {
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
      const ended = await sendToken(url, bootstrap.credentials.tokenMode.token, { path: '/api/deployment/task/search?type=Deployment&status=End&page_size=1' });
      assert.equal((ended.data as { count: number }).count, 1952, '--heavy-account seeded the ended history');
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
