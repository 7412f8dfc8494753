// Opt-in idle pause for kernel tasks (src/core/notebooks/kernelIdle.ts): warned first, paused only after
// the grace period with no cell run in between; Keep Running and a running cell start the idle time again;
// a task two notebooks use is idle only when both are.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KernelIdleClock } from '../../../src/core/notebooks/kernelIdle';

const MIN = 60_000;
const kernel = (notebook: string, busy: boolean, taskId = 7) => ({ notebook, profileId: 'p', taskId, taskName: 'jupyter', busy });

describe('notebooks: idle pause of kernel tasks', () => {
  it('warns once the kernel ran no cell for the set time, then pauses after the grace period', () => {
    const clock = new KernelIdleClock();
    clock.seen(kernel('a.ipynb', true), 0);
    clock.seen(kernel('a.ipynb', false), 1 * MIN);
    assert.deepEqual(clock.step(30 * MIN, 30 * MIN), { warn: [], pause: [] });
    const warned = clock.step(30 * MIN, 31 * MIN);
    assert.deepEqual(warned.warn.map((task) => [task.taskId, task.idleSince]), [[7, 1 * MIN]]);
    assert.deepEqual(clock.step(30 * MIN, 32 * MIN), { warn: [], pause: [] }, 'warned once, not paused inside the grace');
    assert.deepEqual(clock.step(30 * MIN, 33 * MIN).pause.map((task) => task.taskId), [7]);
  });

  it('a cell run or Keep Running after the warning starts the idle time again', () => {
    const clock = new KernelIdleClock();
    clock.seen(kernel('a.ipynb', false), 0);
    assert.equal(clock.step(10 * MIN, 10 * MIN).warn.length, 1);
    clock.seen(kernel('a.ipynb', true), 11 * MIN);
    assert.deepEqual(clock.step(10 * MIN, 13 * MIN), { warn: [], pause: [] }, 'busy: no pause');
    clock.seen(kernel('a.ipynb', false), 14 * MIN);
    assert.deepEqual(clock.step(10 * MIN, 20 * MIN), { warn: [], pause: [] });
    assert.equal(clock.step(10 * MIN, 24 * MIN).warn.length, 1, 'warned again 10 minutes after the cell ended');
    clock.keep('p', 7, 25 * MIN);
    assert.deepEqual(clock.step(10 * MIN, 30 * MIN), { warn: [], pause: [] }, 'Keep Running: no pause');
  });

  it('a task two notebooks use is idle only when both are; another task is its own', () => {
    const clock = new KernelIdleClock();
    clock.seen(kernel('a.ipynb', false), 0);
    clock.seen(kernel('b.ipynb', true), 0);
    clock.seen(kernel('c.ipynb', false, 8), 0);
    assert.deepEqual(clock.step(5 * MIN, 6 * MIN).warn.map((task) => task.taskId), [8]);
    clock.drop('b.ipynb');
    assert.deepEqual(clock.step(5 * MIN, 7 * MIN).warn.map((task) => task.taskId), [7]);
    clock.forgetTask('p', 8);
    assert.deepEqual(clock.step(5 * MIN, 60 * MIN).pause.map((task) => task.taskId), [7]);
  });

  it('re-binding to another task starts its idle time; repeated idle states do not', () => {
    const clock = new KernelIdleClock();
    clock.seen(kernel('a.ipynb', false), 0);
    clock.seen(kernel('a.ipynb', false), 4 * MIN);
    assert.equal(clock.step(5 * MIN, 5 * MIN).warn.length, 1, 'an idle state again keeps the first idle time');
    clock.seen(kernel('a.ipynb', false, 9), 6 * MIN);
    assert.deepEqual(clock.step(5 * MIN, 8 * MIN), { warn: [], pause: [] });
  });
});
