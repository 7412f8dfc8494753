// Billing, node events, node delete and task update: the compute client against the strict sandbox
// in both key modes, and the sandbox refusing what the platform documents as wrong.

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type {
  BillingRecord,
  ComputeClient,
  ComputeCredentials,
  NodeDetail,
  Paged,
  TaskBillingRecord,
  TaskDetail,
  TaskSummary,
  TaskUpdateBody,
} from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import { ComputeApiError } from '../../src/core/compute/errors';
import { spentPoints } from '../../src/core/spend/units';
import { formatPlatformTime, parsePlatformTime, periodOf } from '../../src/core/spend/periods';
import { sendToken } from '../sandbox/handClient';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';

type Mode = 'token' | 'rsa';
const DAY_MS = 86_400_000;

async function rejects(promise: Promise<unknown>, code: string, pattern: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ComputeApiError, String(error));
    assert.equal(error.code, code);
    assert.match(error.serverMessage, pattern);
    return true;
  });
}

describe('money and node operations against the strict sandbox', () => {
  let sandbox: Sandbox;
  let clients: Record<Mode, ComputeClient>;

  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0 });
    const rsa = sandbox.credentials.rsaMode;
    const credentials: Record<Mode, ComputeCredentials> = {
      token: { mode: 'token', token: sandbox.credentials.tokenMode.token },
      rsa: { mode: 'rsa', token: rsa.token, privateKey: rsa.privateKeyPem, platformPublicKey: rsa.platformPublicKeyPem },
    };
    const make = (mode: Mode): ComputeClient =>
      createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => credentials[mode], retry: { baseDelayMs: 5, maxDelayMs: 50 } });
    clients = { token: make('token'), rsa: make('rsa') };
  });
  after(() => sandbox.close());
  beforeEach(() => sandbox.faults.clear());

  const runningTask = async (client: ComputeClient): Promise<TaskSummary> => {
    const list = await client.call('task.list', { type: 'Deployment', status: 'Running' });
    const task = list.results[0];
    assert.ok(task, 'the sandbox seeds a running task');
    return task;
  };

  for (const mode of ['token', 'rsa'] as const) {
    it(`${mode}: spend by day over the last week in +08:00 buckets, signed with %2B in the query`, async () => {
      const client = clients[mode];
      const now = Date.now();
      const from = periodOf('day', now - 7 * DAY_MS).startMs;
      const to = periodOf('day', now).endMs;
      const before = sandbox.requests.length;
      const page: Paged<BillingRecord> = await client.call('billing.byTime', {
        range: 'day',
        start_time: formatPlatformTime(from),
        end_time: formatPlatformTime(to),
        page_size: 100,
      });
      assert.equal(page.count, 8);
      assert.equal(page.results.length, 8);
      const sent = sandbox.requests.slice(0, sandbox.requests.length - before)[0];
      assert.match(sent?.path ?? '', /start_time=\d{4}-\d{2}-\d{2}T00%3A00%3A00%2B08%3A00/);
      let previousEnd = from;
      for (const bucket of page.results) {
        assert.equal(parsePlatformTime(bucket.start_time), previousEnd, 'buckets are contiguous');
        const end = parsePlatformTime(bucket.end_time);
        assert.ok(end !== undefined);
        assert.equal(end - previousEnd, DAY_MS, 'a +08:00 day long');
        previousEnd = end;
        assert.ok(Number.isSafeInteger(bucket.billing_coin) && bucket.billing_coin >= 0);
        assert.ok(Number.isSafeInteger(bucket.discount_coin));
      }
      assert.ok(page.results.reduce((sum, bucket) => sum + spentPoints(bucket), 0) > 0, 'the seeded running task has posted spend');
    });

    it(`${mode}: spend by task over a closed window equals the sum of the time buckets`, async () => {
      const client = clients[mode];
      // A window that ended ten minutes ago: every charge in it is posted, so the two views agree.
      const to = Math.floor((Date.now() - 600_000) / 1000) * 1000;
      const from = to - 60 * DAY_MS;
      const window = { start_time: formatPlatformTime(from), end_time: formatPlatformTime(to), page_size: 100 };
      const byTask: Paged<TaskBillingRecord> = await client.call('billing.byTask', { range: 'day', ...window });
      const byDay: Paged<BillingRecord> = await client.call('billing.byTime', { range: 'day', ...window });
      const sum = (rows: { billing_coin: number }[]) => rows.reduce((total, row) => total + row.billing_coin, 0);
      assert.ok(byTask.count >= 5, `history has ended tasks (got ${byTask.count})`);
      assert.equal(sum(byTask.results), sum(byDay.results));
      for (const row of byTask.results) {
        assert.ok(row.task_type === 'Deployment' || row.task_type === 'Development' || row.task_type === null);
        assert.ok(row.billing_coin > 0);
      }
      const sorted = [...byTask.results].sort((a, b) => b.billing_coin - a.billing_coin);
      assert.deepEqual(byTask.results, sorted, 'biggest spenders first');
    });
  }

  it('spend by time filters by task_ids; spend by task takes no task_ids; bad ranges and times are refused', async () => {
    const client = clients.token;
    const to = Date.now() - 600_000;
    const window = { start_time: formatPlatformTime(to - 30 * DAY_MS), end_time: formatPlatformTime(to) };
    const all = await client.call('billing.byTask', { range: 'month', ...window });
    const first = all.results[0];
    assert.ok(first);
    const one = await client.call('billing.byTime', { range: 'month', ...window, task_ids: String(first.task_id) });
    assert.equal(one.results.reduce((total, bucket) => total + bucket.billing_coin, 0), first.billing_coin);

    const token = sandbox.credentials.tokenMode.token;
    const raw = (path: string) => sendToken(sandbox.url, token, { path });
    const base = '/api/billing/get_task_billing_record?range=day&start_time=2026-01-01T00%3A00%3A00%2B08%3A00&end_time=2026-01-02T00%3A00%3A00%2B08%3A00';
    assert.equal((await raw(base)).code, '0000');
    const withIds = await raw(`${base}&task_ids=1`);
    assert.equal(withIds.code, 'C999');
    assert.match(String(withIds.message), /^task_ids:/);
    const plus = await raw('/api/billing/get_billing_record?range=day&start_time=2026-01-01T00:00:00+08:00&end_time=2026-01-02T00%3A00%3A00%2B08%3A00');
    assert.equal(plus.code, 'C999');
    assert.match(String(plus.message), /^start_time:.*%2B/);
    await rejects(client.call('billing.byTime', { range: 'year' as 'day', ...window }), 'C999', /^range:/);
    await rejects(client.call('billing.byTime', { range: 'day', start_time: window.end_time, end_time: window.start_time }), 'C999', /^end_time: must be after/);
    await rejects(client.call('billing.byTime', { range: 'hour', start_time: formatPlatformTime(0), end_time: window.end_time }), 'C999', /^end_time: the window holds more than/);
  });

  it('node events follow the node lifecycle and show a crash as a Warning with the restart count up', async () => {
    const client = clients.rsa;
    const task = await runningTask(client);
    const nodes = await client.call('node.list', { task_id: task.task_id });
    const node = nodes.results[0] as NodeDetail | undefined;
    assert.ok(node);
    const { events } = await client.call('node.events', { point_id: node.point_id });
    assert.deepEqual(events.map((event) => event.reason), ['Scheduled', 'Pulling', 'Pulled', 'Started']);
    const times = events.map((event) => parsePlatformTime(event.event_time));
    assert.ok(times.every((time, index) => time !== undefined && (index === 0 || time >= (times[index - 1] ?? 0))), 'in time order, +08:00');
    assert.ok(events.every((event) => event.type === 'Normal'));

    sandbox.crashNode(node.point_id, { reason: 'OOMKilled' });
    const after = await client.call('node.events', { point_id: node.point_id });
    assert.deepEqual(after.events.at(-1)?.type, 'Warning');
    assert.match(after.events.at(-1)?.message ?? '', /OOMKilled/);
    const listed = (await client.call('node.list', { task_id: task.task_id })).results.find((candidate) => candidate.point_id === node.point_id) as NodeDetail | undefined;
    assert.equal(listed?.describe_dto?.restart_count, 1);
    assert.equal(listed?.containers?.[0]?.message, 'OOMKilled');
    await rejects(client.call('node.events', { point_id: 1 }), 'C999', /^point_id:/);
  });

  it('deleting a node reschedules it (same count, new id) and is never retried', async () => {
    const client = clients.token;
    const task = await runningTask(client);
    const before = (await client.call('node.list', { task_id: task.task_id })).results;
    const victim = before[0];
    assert.ok(victim);
    assert.equal(await client.call('node.delete', { point_id: victim.point_id }), null);
    const after = (await client.call('node.list', { task_id: task.task_id })).results;
    assert.equal(after.length, before.length);
    assert.ok(!after.some((node) => node.point_id === victim.point_id));

    const other = after[0];
    assert.ok(other);
    sandbox.faults.inject({ target: 'compute', kind: 'status', status: 503, pathPrefix: '/api/deployment/task/delete_pod' });
    const count = sandbox.requests.filter((request) => request.path.startsWith('/api/deployment/task/delete_pod')).length;
    await assert.rejects(client.call('node.delete', { point_id: other.point_id }));
    const sent = sandbox.requests.filter((request) => request.path.startsWith('/api/deployment/task/delete_pod')).length - count;
    assert.equal(sent, 1, 'a lost delete is not repeated (it would delete the replacement)');
    await rejects(client.call('node.delete', { point_id: victim.point_id }), 'C999', /^point_id: no live node/);
  });

  it('task update overwrites the whole task from its detail; health_checks is required; an ended task is refused', async () => {
    const client = clients.rsa;
    const created = await client.call('task.list', { type: 'Deployment', status: 'Pending,Running,Paused,End' });
    const target = created.results.find((task) => task.status === 'Running');
    assert.ok(target);
    const detail: TaskDetail = await client.call('task.detail', { task_id: target.task_id });
    const edited: TaskUpdateBody = {
      ...detail,
      task_name: `${detail.task_name}-v2`,
      services: detail.services.map((service) => ({ ...service, env: 'MODEL=Qwen/Qwen3-8B' })),
    };
    assert.equal(await client.call('task.update', edited), null);
    const updated = await client.call('task.detail', { task_id: target.task_id });
    assert.equal(updated.task_name, `${detail.task_name}-v2`);
    assert.equal(updated.services[0]?.env, 'MODEL=Qwen/Qwen3-8B');
    assert.equal(updated.services[0]?.service_id, detail.services[0]?.service_id, 'service ids survive an update');

    const withoutProbes = { ...edited, services: edited.services.map(({ health_checks: _dropped, ...service }) => service) };
    await rejects(client.call('task.update', withoutProbes), 'C999', /^services\[0\]\.health_checks: is required/);
    const badProbe = { ...edited, services: edited.services.map((service) => ({ ...service, health_checks: { liveness_probe: { switch: true, probe_type: 'exec' } } })) };
    await rejects(client.call('task.update', badProbe), 'C999', /^services\[0\]\.health_checks\.liveness_probe\.probe_type/);
    await rejects(client.call('task.update', { ...edited, task_id: 999_999_999 }), 'C999', /^task_id:/);

    await client.call('task.stop', { task_id: target.task_id });
    await rejects(client.call('task.update', edited), 'C010', /cannot update task/);
  });
});
