// The warning before every idle pause (src/core/spend/idleGrace.ts): warned once per idle spell, due to
// pause only after the grace period; a task used again, kept, or no longer idle is warned anew.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IDLE_GRACE_MS, IdleGrace } from '../../../src/core/spend/idleGrace';

const MIN = 60_000;
const task = (idleSince: number, taskId = 7, profileId = 'p') => ({ profileId, taskId, taskName: 'model', idleSince });
const ids = (list: readonly { taskId: number }[]): number[] => list.map((entry) => entry.taskId);

describe('spend: the warning before an idle pause', () => {
  it('warns first, pauses only once the grace period has passed, then starts over', () => {
    const grace = new IdleGrace();
    assert.deepEqual(ids(grace.step([task(0)], 10 * MIN).warn), [7]);
    assert.deepEqual(grace.step([task(0)], 10 * MIN + IDLE_GRACE_MS - 1), { warn: [], pause: [] }, 'inside the grace: nothing');
    assert.deepEqual(ids(grace.step([task(0)], 10 * MIN + IDLE_GRACE_MS).pause), [7]);
    assert.deepEqual(ids(grace.step([task(0)], 13 * MIN).warn), [7], 'after a pause (or a held one) the next spell is warned again');
  });

  it('a task no longer idle, kept, or idle since later is warned anew before any pause', () => {
    const grace = new IdleGrace();
    grace.step([task(0)], 5 * MIN);
    grace.step([], 6 * MIN);
    assert.deepEqual(ids(grace.step([task(0)], 8 * MIN).warn), [7], 'left the idle list: its warning is over');
    grace.forget('p', 7);
    assert.deepEqual(ids(grace.step([task(0)], 20 * MIN).warn), [7], 'Keep Running: warned again, not paused');
    assert.deepEqual(ids(grace.step([task(15 * MIN)], 30 * MIN).warn), [7], 'used again meanwhile: a new spell');
    assert.deepEqual(grace.step([task(15 * MIN)], 31 * MIN), { warn: [], pause: [] });
  });

  it('keeps profiles and tasks apart, and counts a task listed twice once', () => {
    const grace = new IdleGrace();
    const step = grace.step([task(0, 7, 'a'), task(0, 7, 'b'), task(0, 8, 'a'), task(0, 8, 'a')], 5 * MIN);
    assert.deepEqual(step.warn.map((entry) => `${entry.profileId}/${entry.taskId}`), ['a/7', 'b/7', 'a/8']);
    grace.forget('a', 7);
    assert.deepEqual(grace.step([task(0, 7, 'a'), task(0, 7, 'b')], 5 * MIN + IDLE_GRACE_MS).pause.map((entry) => entry.profileId), ['b']);
  });
});
