// The preheat kind's definition: how far a preheat got in each mode, when the store may stop polling,
// which changes are news, and which become "ready" notifications (never on a first look).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PreheatTask } from '../../../src/core/preheat/operations';
import { PREHEAT_STATE, preheatProgress, preheatsDoneIn, preheatStoppable } from '../../../src/core/preheat/preheatState';

const base: PreheatTask = { task_id: 1, task_name: 'app', status: 'Running', services: [{ service_name: 'main', service_image: 'img' }] };
const cluster = (...statuses: ('Begin' | 'Syncing' | 'Completed')[]): PreheatTask => ({ ...base, regions: statuses.map((_, i) => ({ region: `r${i}` })), region_cache_info: statuses.map((status, i) => ({ region: `r${i}`, status })) });
const nodes = (available: number, points: number): PreheatTask => ({ ...base, resources: [{ mark: 'm' }], points, available_points: available, used_points: 0 });

describe('image preheat state', () => {
  it('is done in cluster mode when every region is Completed, in node mode when the available nodes reach the count', () => {
    assert.deepEqual(preheatProgress(cluster('Completed', 'Syncing')), { mode: 'cluster', completed: 1, regions: 2, done: false });
    assert.equal(preheatProgress(cluster('Completed', 'Completed')).done, true);
    assert.equal(preheatProgress(cluster()).done, false, 'no cache info yet is not done');
    assert.deepEqual(preheatProgress(nodes(1, 3)), { mode: 'node', available: 1, used: 0, desired: 3, done: false });
    assert.equal(preheatProgress(nodes(3, 3)).done, true);
  });

  it('is at rest when every preheat is done or paused; a Pending or syncing one keeps the store polling', () => {
    assert.equal(PREHEAT_STATE.atRest([]), true);
    assert.equal(PREHEAT_STATE.atRest([cluster('Completed'), { ...cluster('Syncing'), status: 'Paused' }]), true);
    assert.equal(PREHEAT_STATE.atRest([cluster('Completed'), cluster('Syncing')]), false);
    assert.equal(PREHEAT_STATE.atRest([{ ...cluster(), status: 'Pending' }]), false);
  });

  it('reports a change of status or progress, not of fields nobody shows', () => {
    assert.equal(PREHEAT_STATE.equal(cluster('Syncing'), cluster('Completed')), false);
    assert.equal(PREHEAT_STATE.equal(nodes(1, 3), nodes(2, 3)), false);
    assert.equal(PREHEAT_STATE.equal(cluster('Syncing'), { ...cluster('Syncing'), create_time: 'later' }), true);
  });

  it('announces a preheat once, when it becomes ready (or is first seen ready), never on the first look', () => {
    const change = { first: false, added: [] as PreheatTask[], changed: [{ before: cluster('Syncing'), after: cluster('Completed') }, { before: cluster('Completed'), after: cluster('Completed') }] };
    assert.deepEqual(preheatsDoneIn(change).length, 1);
    assert.deepEqual(preheatsDoneIn({ ...change, added: [{ ...cluster('Completed'), task_id: 2 }, { ...cluster('Syncing'), task_id: 3 }] }).map((task) => task.task_id), [1, 2]);
    assert.deepEqual(preheatsDoneIn({ ...change, first: true }), []);
  });

  it('stops only Running or Paused preheats', () => {
    assert.deepEqual((['Pending', 'Running', 'Paused', 'End'] as const).map((status) => preheatStoppable({ ...base, status })), [false, true, true, false]);
  });
});
