// The sandbox requires what the platform's docs require: each required query or body parameter,
// each documented enum, the paging limits and the headers every key sends. One test per rule sends
// the invalid form (built by hand, so the extension's client cannot hide a mistake) and expects the
// platform's failure envelope. Then the extension's own calls — the same core functions the views
// use — must pass against the same strict rules, in both key modes.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ComputeCredentials } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import { OPERATIONS } from '../../src/core/compute/operations';
import { ACTIVE_TASK_STATUSES, listNodes, listStorage, listTasks, STORAGE_LIST_STATUSES, taskPage } from '../../src/core/tasks/listing';
import { freshTimestamp, sendRaw, sendRsa, sendToken, VERSION, type HandResponse } from '../sandbox/handClient';
import { startSandbox } from '../sandbox/server';
import type { RecordedRequest, Sandbox } from '../sandbox/types';

interface Rule {
  /** What the platform's docs say, as the test's name. */
  rule: string;
  method?: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** The parameter the failure message must name first. */
  field: string;
  code?: string;
}

const SEARCH = '/api/deployment/resource/search';
const TASKS = '/api/deployment/task/search';
const STORAGE = '/api/storage/get_storage';
const NODES = '/api/deployment/task/points';
const SEEDED_TASK = 1229831; // the sandbox's first start-up task

const RULES: Rule[] = [
  { rule: 'resource search requires task_type', path: `${SEARCH}?device_type=GpuDevice`, field: 'task_type' },
  { rule: 'resource search requires device_type', path: `${SEARCH}?task_type=Deployment`, field: 'device_type' },
  { rule: 'resource search: task_type is one of Deployment', path: `${SEARCH}?task_type=Job&device_type=GpuDevice`, field: 'task_type' },
  { rule: 'resource search: device_type is GpuDevice and/or CpuDevice', path: `${SEARCH}?task_type=Deployment&device_type=GpuDevice,TpuDevice`, field: 'device_type' },
  { rule: 'task list requires type', path: `${TASKS}?status=Running`, field: 'type' },
  { rule: 'task list requires status', path: `${TASKS}?type=Deployment`, field: 'status' },
  { rule: 'task list: an empty status is no status', path: `${TASKS}?type=Deployment&status=`, field: 'status' },
  { rule: 'task list: type is one of Deployment', path: `${TASKS}?type=Job&status=Running`, field: 'type' },
  { rule: 'task list: status filter is Running, Pending, Paused, End (not Other)', path: `${TASKS}?type=Deployment&status=Running,Other`, field: 'status' },
  { rule: 'task list: page is an integer ≥ 1', path: `${TASKS}?type=Deployment&status=End&page=0`, field: 'page' },
  { rule: 'task list: page_size is an integer', path: `${TASKS}?type=Deployment&status=End&page_size=ten`, field: 'page_size' },
  { rule: 'task list: page_size is at most 100', path: `${TASKS}?type=Deployment&status=End&page_size=101`, field: 'page_size' },
  { rule: 'storage list requires storage_type', path: `${STORAGE}?status=Activate`, field: 'storage_type' },
  { rule: 'storage list requires status', path: `${STORAGE}?storage_type=Juicefs`, field: 'status' },
  { rule: 'storage list: storage_type is Juicefs or ShareStorage', path: `${STORAGE}?storage_type=S3&status=Activate`, field: 'storage_type' },
  { rule: 'storage list: status is Activate, Unactivated or Delete', path: `${STORAGE}?storage_type=Juicefs&status=Active`, field: 'status' },
  { rule: 'storage list: page and page_size go together', path: `${STORAGE}?storage_type=Juicefs&status=Activate&page=2`, field: 'page_size' },
  { rule: 'storage list: page_size and page go together', path: `${STORAGE}?storage_type=Juicefs&status=Activate&page_size=5`, field: 'page' },
  { rule: 'node list requires task_id', path: NODES, field: 'task_id' },
  { rule: 'node list: task_id is an integer', path: `${NODES}?task_id=abc`, field: 'task_id' },
  { rule: 'node list: status is one of the node statuses', path: `${NODES}?task_id=${SEEDED_TASK}&status=Sleeping`, field: 'status' },
  { rule: 'node list: page_size is at most 100', path: `${NODES}?task_id=${SEEDED_TASK}&page_size=500`, field: 'page_size' },
  { rule: 'node log requires service_id', path: `/api/deployment/task/point_log?task_id=${SEEDED_TASK}&point_id=1`, field: 'service_id' },
  { rule: 'node log requires point_id', path: `/api/deployment/task/point_log?task_id=${SEEDED_TASK}&service_id=1`, field: 'point_id' },
  { rule: 'task detail requires task_id', path: '/api/deployment/task/detail', field: 'task_id' },
  { rule: 'task create requires resources', method: 'POST', path: '/api/deployment/task/create', body: { task_name: 'x', services: [] }, field: 'resources' },
  { rule: 'pause requires task_id', method: 'POST', path: '/api/deployment/task/pause', body: {}, field: 'task_id' },
  { rule: 'stop: task_id is a number, not a string', method: 'POST', path: '/api/deployment/task/stop', body: { task_id: String(SEEDED_TASK) }, field: 'task_id' },
  { rule: 'change_points requires points', method: 'POST', path: '/api/deployment/task/change_points', body: { task_id: SEEDED_TASK }, field: 'points' },
];

function assertRefused(response: HandResponse, rule: Rule): void {
  assert.equal(response.status, 200, 'the platform answers business failures with HTTP 200');
  assert.ok(response.json, 'the answer is a JSON envelope');
  assert.deepEqual(Object.keys(response.json).sort(), ['code', 'data', 'message']);
  assert.equal(response.code, rule.code ?? 'C999', String(response.message));
  assert.equal(response.data, null, 'data is null whenever code is not 0000');
  assert.match(String(response.message), new RegExp(`^${rule.field}:`), 'the message names the parameter first');
}

describe('sandbox requires what the platform documents', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0 });
  });
  after(() => sandbox.close());

  for (const rule of RULES) {
    it(rule.rule, async () => {
      const request = { path: rule.path, ...(rule.body === undefined ? {} : { body: JSON.stringify(rule.body) }) };
      assertRefused(await sendToken(sandbox.url, sandbox.credentials.tokenMode.token, request), rule);
      assertRefused(await sendRsa(sandbox.url, sandbox.credentials.rsaMode, request), rule);
    });
  }

  it('the same requests with the required parameters are accepted (the rules are not refusing everything)', async () => {
    const token = sandbox.credentials.tokenMode.token;
    for (const path of [
      `${SEARCH}?task_type=Deployment&device_type=GpuDevice,CpuDevice`,
      `${TASKS}?type=Deployment&status=Running,Pending,Paused,End&page=1&page_size=100`,
      `${STORAGE}?storage_type=Juicefs&status=Activate,Unactivated&page=1&page_size=100`,
      `${NODES}?task_id=${SEEDED_TASK}&status=Running,Pending&page=1&page_size=100`,
      `/api/deployment/task/detail?task_id=${SEEDED_TASK}`,
    ]) {
      const response = await sendToken(sandbox.url, token, { path });
      assert.equal(response.code, '0000', `${path}: ${String(response.message)}`);
    }
  });

  describe('headers every key sends (token mode too)', () => {
    const token = (): string => sandbox.credentials.tokenMode.token;
    const path = `${SEARCH}?task_type=Deployment&device_type=GpuDevice`;
    it('version is required', async () => {
      const response = await sendRaw(sandbox.url, { path, headers: { token: token(), timestamp: freshTimestamp() } });
      assert.equal(response.code, 'C005');
      assert.equal(response.data, null);
    });
    it('timestamp is required', async () => {
      const response = await sendRaw(sandbox.url, { path, headers: { token: token(), version: VERSION } });
      assert.equal(response.code, 'C004');
      assert.equal(response.data, null);
    });
    it('with token, version and timestamp it passes', async () => {
      assert.equal((await sendToken(sandbox.url, token(), { path })).code, '0000');
    });
  });
});

describe("the extension's calls pass the strict sandbox", () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0 });
    sandbox.seedTasks({ running: 3, pending: 2, paused: 2, ended: 130 });
  });
  after(() => sandbox.close());

  const credentialsFor = (mode: 'token' | 'rsa'): ComputeCredentials => {
    const rsa = sandbox.credentials.rsaMode;
    return mode === 'token'
      ? { mode: 'token', token: sandbox.credentials.tokenMode.token }
      : { mode: 'rsa', token: rsa.token, privateKey: rsa.privateKeyPem, platformPublicKey: rsa.platformPublicKeyPem };
  };

  it("the Sign Request wizard's pre-filled values (the catalog's examples) are accepted", async () => {
    const client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => credentialsFor('token') });
    const withExamples = OPERATIONS.filter((spec) => spec.fields.some((field) => field.example !== undefined));
    assert.deepEqual(withExamples.map((spec) => spec.id).sort(), ['resource.search', 'storage.list', 'task.list']);
    for (const spec of withExamples) {
      const params = Object.fromEntries(spec.fields.filter((field) => field.example !== undefined).map((field) => [field.name, field.example]));
      await assert.doesNotReject(client.send({ method: 'GET', path: spec.path, query: Object.entries(params) as [string, string][] }), spec.id);
    }
  });

  for (const mode of ['token', 'rsa'] as const) {
    it(`${mode} mode: views' lists, node list, storage, resource search and the clock-skew probe`, async () => {
      const client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => credentialsFor(mode) });
      const before = new Set<RecordedRequest>(sandbox.requests);

      const active = await listTasks(client, { statuses: ACTIVE_TASK_STATUSES });
      assert.equal(active.count, 3 + 2 + 2 + 2, 'seeded active tasks plus the two start-up tasks');
      const ended = await taskPage(client, { statuses: ['End'] }, 2, 50);
      assert.equal(ended.count, 130);
      assert.equal(ended.results.length, 50);
      const firstActive = active.items.find((task) => task.status === 'Running');
      assert.ok(firstActive);
      assert.ok((await listNodes(client, firstActive.task_id)).items.length >= 1);
      assert.ok((await listStorage(client, { storageType: 'Juicefs', statuses: STORAGE_LIST_STATUSES })).items.length > 0);
      await client.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
      await client.measureClockSkew();

      const made = sandbox.requests.filter((request) => !before.has(request));
      assert.ok(made.length >= 6);
      const refused = made.filter((request) => request.outcome !== '0000').map((request) => `${request.path} → ${request.outcome}`);
      assert.deepEqual(refused, [], 'no call of the extension is refused, the clock-skew probe included');
    });
  }
});
