// One failure is shown once (src/vscode/views/loadFailureNotice.ts): three views failing for the same
// cause make one notification; a new cause, or the same cause after recovery, makes another.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LoadFailureNotice } from '../../../src/vscode/views/loadFailureNotice';

function notice(): { notice: LoadFailureNotice; shown: string[] } {
  const shown: string[] = [];
  const instance = new LoadFailureNotice({
    causeOf: (error) => (error === 'cancelled' ? undefined : String(error)),
    show: (error, view) => shown.push(`${view}: ${String(error)}`),
  });
  return { notice: instance, shown };
}

describe('load failure notice', () => {
  it('the same cause in three views is shown once, and again only after every view recovered', () => {
    const { notice: n, shown } = notice();
    n.failed('resources', 'bad token');
    n.failed('tasks', 'bad token');
    n.failed('storage', 'bad token');
    n.failed('tasks', 'bad token'); // auto-refresh keeps failing
    assert.deepEqual(shown, ['resources: bad token']);
    n.loaded('resources');
    n.failed('resources', 'bad token'); // tasks still fails with it: not news
    assert.equal(shown.length, 1);
    n.loaded('resources');
    n.loaded('tasks');
    n.loaded('storage');
    n.failed('tasks', 'bad token');
    assert.deepEqual(shown, ['resources: bad token', 'tasks: bad token']);
  });

  it('a different cause is shown; a cancelled load never is; a profile switch forgets', () => {
    const { notice: n, shown } = notice();
    n.failed('tasks', 'cancelled');
    n.failed('tasks', 'bad token');
    n.failed('storage', 'host unreachable');
    assert.deepEqual(shown, ['tasks: bad token', 'storage: host unreachable']);
    n.reset();
    n.failed('tasks', 'bad token');
    assert.equal(shown.length, 3);
  });
});
