// Where a request came from (src/core/requests/requestOrigin.ts): the origin follows every await of
// the work it wraps, an inner origin wins, and timers run through runInBackground lose the caller's
// origin (a poll loop woken by a command keeps polling as background work).
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { currentOrigin, runInBackground, runWithOrigin } from '../../../src/core/requests/requestOrigin';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('request origin', () => {
  it('follows the awaits of the work it wraps, and is gone outside it', async () => {
    assert.equal(currentOrigin(), undefined);
    const seen = await runWithOrigin({ kind: 'command', command: 'c.pause' }, async () => {
      await tick();
      await Promise.resolve();
      return currentOrigin();
    });
    assert.deepEqual(seen, { kind: 'command', command: 'c.pause' });
    assert.equal(currentOrigin(), undefined);
  });

  it('an inner origin wins (a budget pausing inside a command\'s work)', async () => {
    const inner = await runWithOrigin({ kind: 'command', command: 'c.x' }, () => runWithOrigin({ kind: 'budget' }, async () => (await tick(), currentOrigin())));
    assert.deepEqual(inner, { kind: 'budget' });
  });

  it('a timer set inside a command keeps its origin, unless it runs in the background', async () => {
    const seen: unknown[] = [];
    await runWithOrigin({ kind: 'command', command: 'c.refresh' }, async () => {
      await new Promise<void>((resolve) => setTimeout(() => (seen.push(currentOrigin()), resolve()), 1));
      await new Promise<void>((resolve) => setTimeout(() => runInBackground(() => (seen.push(currentOrigin()), resolve())), 1));
    });
    assert.deepEqual(seen, [{ kind: 'command', command: 'c.refresh' }, undefined]);
  });
});
