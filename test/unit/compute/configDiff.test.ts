import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { configDiff, describeChange } from '../../../src/core/compute/configDiff';

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
