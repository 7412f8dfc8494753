// A success envelope whose `data` is missing or wrong-typed becomes a clear error naming the operation and
// the field, never a raw TypeError in the trees.
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { OperationId } from '../../../src/core/compute/api';
import { checkResult } from '../../../src/core/compute/resultShapes';
import { ProtocolError } from '../../../src/core/errors';
import { json, type TestServer } from '../http/helpers/testServer';
import { useClientServer } from './helpers/clientFixture';

const task = { task_id: 7, task_name: 'web', status: 'Running', points: 1, resources: [], services: [{ service_name: 's', service_id: 1, remote_ports: [{ service_port: 80 }] }] };

/** [operation, params, bad data, field the error must name] */
const CASES: [OperationId, Record<string, unknown>, unknown, string][] = [
  ['resource.search', {}, null, 'data'],
  ['resource.search', {}, { count: 1, results: null }, 'data.results'],
  ['resource.search', {}, { count: 1, results: [{ device_name: 'H20', regions: [{ region: 5 }] }] }, 'data.results[0].regions[0].region'],
  ['task.list', { type: 'Deployment', status: 'Running' }, { count: 1, results: [{ ...task, task_id: '7' }] }, 'data.results[0].task_id'],
  ['task.list', { type: 'Deployment', status: 'Running' }, 'oops', 'data'],
  ['task.detail', { task_id: 7 }, { ...task, services: [{ service_name: 's', remote_ports: 'x' }] }, 'data.services[0].remote_ports'],
  ['task.detail', { task_id: 7 }, null, 'data'],
  ['node.list', { task_id: 7 }, { count: 1, results: [{ point_id: 1, name: 'n', status: null }] }, 'data.results[0].status'],
  ['node.log', { task_id: 7, point_id: 1, service_id: 1 }, { logs: 42 }, 'data.logs'],
  ['storage.list', {}, { results: [{ storage_id: 'x' }] }, 'data.results[0].storage_id'],
  ['task.create', {}, {}, 'data.task_id'],
  ['nas.list', {}, { count: 1, results: [{ storage_id: 1, name: 'v', region: { tag: 't' } }] }, 'data.results[0].region.name'],
  ['nas.transferList', {}, { results: [], count: '3' }, 'data.count'],
  ['nas.transferCheck', {}, { pass: 'yes' }, 'data.pass'],
  ['jobQueue.groups', {}, { results: { group_id: 'g', group_name: 'n', status: 's' } }, 'data.results[0].group_id'],
  ['node.events', {}, { events: [{ reason: 'r', message: 5, type: 't', event_time: 'e' }] }, 'data.events[0].message'],
];

describe('result shapes', () => {
  for (const [operation, , data, field] of CASES) {
    it(`${operation}: ${JSON.stringify(data).slice(0, 60)} → names ${field}`, () => {
      assert.throws(
        () => checkResult(operation, `Title of ${operation}`, structuredClone(data)),
        (error: unknown) => {
          assert.ok(error instanceof ProtocolError, String(error));
          assert.ok(error.message.includes(`Title of ${operation}`), error.message);
          assert.ok(error.message.includes(`\`${field}\``), error.message);
          return true;
        },
      );
    });
  }

  it('accepts good data, reads null lists as empty and fills a missing count', () => {
    const page = checkResult('task.list', 't', { results: [{ ...task, services: null, resources: null }] }) as { count: number; results: { services: unknown[] }[] };
    assert.equal(page.count, 1);
    assert.deepEqual(page.results[0]?.services, []);
    assert.deepEqual(checkResult('node.log', 't', null), { logs: '', logsFrom: 0 });
    assert.equal(checkResult('task.pause', 't', null), null);
  });

  it('keeps the fields it does not check, reads a single queue group as a list and null as no group', () => {
    const detail = checkResult('task.detail', 't', { ...task, extra: { deep: [1] } }) as Record<string, unknown>;
    assert.deepEqual(detail['extra'], { deep: [1] });
    assert.equal(detail['points'], 1);
    const groups = checkResult('jobQueue.groups', 't', { results: { group_id: 1, group_name: 'g', status: 'Active' } }) as { count: number; results: unknown[] };
    assert.deepEqual(groups, { results: [{ group_id: 1, group_name: 'g', status: 'Active' }], count: 1 });
    assert.equal(checkResult('jobQueue.group', 't', null), null);
    assert.deepEqual(checkResult('nas.transferList', 't', { results: null, count: 0 }), { results: [], count: 0 });
    assert.equal(checkResult('nas.sftpObtain', 't', null), null);
  });

  it('names the field without echoing long server text', () => {
    const secret = `sk-${'x'.repeat(60)}`;
    assert.throws(
      () => checkResult('task.create', 'Create', { task_id: secret }),
      (error: unknown) => error instanceof ProtocolError && error.message.includes('`data.task_id` should be a number but is a long string') && !error.message.includes(secret),
    );
  });
});

describe('compute client checks results where they enter', () => {
  const fixture = useClientServer();
  let server: TestServer;
  beforeEach(() => {
    server = fixture.server();
  });
  it('a success envelope with data: null for the task list → ProtocolError naming Task list and data', async () => {
    server.handle((_req, res) => json(res, 200, { code: '0000', message: 'success', data: null }));
    await assert.rejects(fixture.client().call('task.list', { type: 'Deployment', status: 'Running' }), (error: unknown) => {
      assert.ok(error instanceof ProtocolError, String(error));
      assert.doesNotMatch(error.message, /Cannot read properties/);
      assert.match(error.message, /`data` should be an object but is null/);
      return true;
    });
  });
});
