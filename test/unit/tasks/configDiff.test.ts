import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { configDiff, describeChange, reviewUpdate } from '../../../src/core/tasks/configDiff';

describe('task update diff', () => {
  it('lists changed, added and removed fields by path', () => {
    const before = { task_name: 'a', points: 1, services: [{ env: 'A=1', remote_ports: [{ service_port: 80 }] }] };
    const after = { task_name: 'b', points: 1, services: [{ env: 'A=2', remote_ports: [{ service_port: 80 }, { service_port: 81 }] }], extra: true };
    const { changes, truncated } = configDiff(before, after);
    assert.equal(truncated, false);
    assert.deepEqual(changes.map((change) => describeChange(change)), [
      'task_name: "a" → "b"',
      'services[0].env: "A=1" → "A=2"',
      'services[0].remote_ports[1]: (absent) → {"service_port":81}',
      'extra: (absent) → true',
    ]);
  });

  it('finds nothing between a value and its copy, and something after any single leaf change', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        assert.deepEqual(configDiff(value, JSON.parse(JSON.stringify(value)) as unknown).changes, []);
        assert.ok(configDiff({ root: value }, { root: value, changed: 1 }).changes.length === 1);
      }),
    );
  });

  it('caps the list', () => {
    const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i]));
    const { changes, truncated } = configDiff({}, many);
    assert.equal(changes.length, 200);
    assert.equal(truncated, true);
  });
});

describe('task update review', () => {
  const original = { task_id: 9, task_name: 'a', status: 'Running', billing_value: 5, services: [{ service_name: 's', env: 'A=1' }] } as unknown as import('../../../src/core/compute/api').TaskDetail;

  it('keeps the task id, ignores read-only fields, and lists real changes', () => {
    const edited = JSON.stringify({ ...original, task_id: 1, billing_value: 99, services: [{ service_name: 's', env: 'A=2' }] });
    const review = reviewUpdate(original, edited);
    assert.equal(review.kind, 'changes');
    if (review.kind !== 'changes') return;
    assert.equal(review.body.task_id, 9, 'the id cannot be redirected to another task');
    assert.deepEqual(review.lines, ['services[0].env: "A=1" → "A=2"']);
  });

  it('refuses invalid JSON and reports an unchanged configuration', () => {
    assert.equal(reviewUpdate(original, '{').kind, 'invalid');
    assert.equal(reviewUpdate(original, '[]').kind, 'invalid');
    assert.equal(reviewUpdate(original, JSON.stringify({ ...original, status: 'Paused' })).kind, 'unchanged');
  });
});
