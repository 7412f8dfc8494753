// The one activity rule for pausing (src/core/spend/activity.ts): idle pause and timers hold while anything
// is active on the task; a budget pauses anyway and names what it interrupted; only the task's own profile
// and id count; a source that throws does not stop the others.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ActivityRegistry, decidePause, type Activity } from '../../../src/core/spend/activity';

const busy: Activity = { kind: 'kernel-busy', profileId: 'p1', taskId: 7, label: 'train.ipynb' };

describe('spend: the one activity rule for pausing', () => {
  it('pauses an inactive task for every reason', () => {
    for (const reason of ['idle', 'timer', 'budget'] as const) assert.deepEqual(decidePause(reason, []), { action: 'pause', interrupted: [] });
  });

  it('holds an idle pause and a timer while something is active; a budget pauses and says what it interrupted', () => {
    assert.deepEqual(decidePause('idle', [busy]), { action: 'hold', active: [busy] });
    assert.deepEqual(decidePause('timer', [busy]), { action: 'hold', active: [busy] });
    assert.deepEqual(decidePause('budget', [busy]), { action: 'pause', interrupted: [busy] });
  });

  it('asks every source at decision time, and counts only the task of the same profile', () => {
    const registry = new ActivityRegistry();
    let live: Activity[] = [];
    const remove = registry.add(() => live);
    registry.add(() => [{ kind: 'terminal', profileId: 'p2', taskId: 7, label: 'other profile' }, { kind: 'ssh', profileId: 'p1', taskId: 8, label: 'other task' }]);
    assert.equal(registry.decide('timer', 'p1', 7).action, 'pause');
    live = [busy];
    assert.deepEqual(registry.decide('timer', 'p1', 7), { action: 'hold', active: [busy] });
    remove();
    assert.equal(registry.decide('timer', 'p1', 7).action, 'pause');
  });

  it('a source that throws is reported and skipped; the others still count', () => {
    const registry = new ActivityRegistry();
    const errors: unknown[] = [];
    registry.add(() => {
      throw new Error('broken source');
    });
    registry.add(() => [busy]);
    assert.deepEqual(registry.of('p1', 7, (error) => errors.push(error)), [busy]);
    assert.equal(errors.length, 1);
  });

  it('a machine or a job is never a task of the same number; they are what a budget leaves running', () => {
    const registry = new ActivityRegistry();
    const terminal: Activity = { kind: 'terminal', profileId: 'p1', deviceId: 7, label: 'machine 7' };
    const run: Activity = { kind: 'run-on-gpu', profileId: 'p1', jobId: 7, label: '7' };
    const answering: Activity = { kind: 'model-answering', profileId: 'p1', taskId: 7, label: 'qwen' };
    registry.add(() => [terminal, run, answering, { kind: 'ssh', profileId: 'p2', deviceId: 9, label: 'other profile' }]);
    assert.deepEqual(registry.of('p1', 7), [answering]);
    assert.deepEqual(registry.decide('idle', 'p1', 7), { action: 'hold', active: [answering] });
    assert.deepEqual(registry.notOnTasks('p1'), [terminal, run]);
    assert.deepEqual(registry.notOnTasks('p3'), []);
  });
});
