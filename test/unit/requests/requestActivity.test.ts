// What Request History keeps of the requests the extension sent by itself (src/vscode/requests/
// requestActivity.ts): what is kept and what is not (background reads, the debugger's own sends),
// where each came from, outcomes in a word, never a secret, bounded per profile, and no entry lost
// when many are recorded at once.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ExchangeRecord } from '../../../src/core/compute/api';
import { silentLogger } from '../../../src/core/log';
import { ACTIVITY_STATE_KEY, PersistedState } from '../../../src/vscode/persistedState';
import { RequestActivity, activityEntry, type ActivityEntry } from '../../../src/vscode/requests/requestActivity';
import { MemoryMemento } from '../../helpers/memoryMemento';

const SECRET = `tok_${Date.now().toString(36)}_secret`;
const mask = (text: string): string => text.split(SECRET).join('«masked»');
const NONE: ReadonlySet<string> = new Set();

function exchange(overrides: Partial<ExchangeRecord> & { path?: string; method?: 'GET' | 'POST' } = {}): ExchangeRecord {
  const { path = '/api/deployment/task/pause', method = 'POST', ...rest } = overrides;
  return {
    attempt: 0,
    operation: 'task.pause',
    request: { method, pathWithQuery: path } as ExchangeRecord['request'],
    status: 200,
    envelopeCode: '0000',
    responseHeaders: [],
    elapsedMs: 42,
    responseBody: `{"code":"0000","data":{"token":"${SECRET}"}}`,
    responseBodyChars: 10,
    ...rest,
  };
}

describe('request activity: what is kept', () => {
  it('a command\'s request, with the command as its source; no body or header is kept', () => {
    const entry = activityEntry('p', exchange(), { kind: 'command', command: 'computeToolkit.tasks.pause' }, 'write', 1000, mask, NONE);
    assert.deepEqual(entry, {
      at: 1000,
      profileId: 'p',
      source: 'command',
      sourceName: 'computeToolkit.tasks.pause',
      operation: 'task.pause',
      method: 'POST',
      pathWithQuery: '/api/deployment/task/pause',
      status: 200,
      outcome: 'ok',
      elapsedMs: 42,
      attempt: 0,
    });
  });

  it('reads under a command or a tool are kept; reads in the background are not, writes in the background are', () => {
    const read = exchange({ operation: 'task.list', method: 'GET', path: '/api/deployment/task/search?type=Deployment' });
    assert.equal(activityEntry('p', read, { kind: 'command', command: 'computeToolkit.tasks.refresh' }, 'read', 1, mask, NONE)?.source, 'command');
    assert.equal(activityEntry('p', read, { kind: 'tool', tool: 'compute_list_tasks' }, 'read', 1, mask, NONE)?.sourceName, 'compute_list_tasks');
    assert.equal(activityEntry('p', read, undefined, 'read', 1, mask, NONE), undefined);
    assert.equal(activityEntry('p', exchange(), undefined, 'write', 1, mask, NONE)?.source, 'background');
    assert.equal(activityEntry('p', exchange(), { kind: 'budget' }, 'write', 1, mask, NONE)?.source, 'budget');
    assert.equal(activityEntry('p', exchange(), { kind: 'timer' }, 'write', 1, mask, NONE)?.source, 'timer');
  });

  it('the debugger\'s own sends are not recorded twice', () => {
    const self = new Set(['computeToolkit.request.send']);
    assert.equal(activityEntry('p', exchange(), { kind: 'command', command: 'computeToolkit.request.send' }, 'write', 1, mask, self), undefined);
  });

  it('outcomes in a word: ok, the envelope code, the HTTP status, or why no answer came', () => {
    const outcome = (overrides: Partial<ExchangeRecord>): string | undefined => activityEntry('p', exchange(overrides), { kind: 'budget' }, 'write', 1, mask, NONE)?.outcome;
    assert.equal(outcome({ envelopeCode: '0' }), 'ok');
    assert.equal(outcome({ envelopeCode: 'C001' }), 'C001');
    const { envelopeCode: _none, ...html } = exchange({ status: 502 });
    assert.equal(activityEntry('p', html, { kind: 'budget' }, 'write', 1, mask, NONE)?.outcome, 'HTTP 502');
    assert.equal(outcome({ failure: 'timeout after 30000 ms', status: undefined }), 'timeout after 30000 ms');
  });

  it('a secret in the path or the failure is masked', () => {
    const entry = activityEntry('p', exchange({ path: `/api/x?key=${SECRET}`, failure: `refused ${SECRET}` }), { kind: 'budget' }, 'write', 1, mask, NONE);
    assert.ok(entry);
    assert.ok(!JSON.stringify(entry).includes(SECRET));
    assert.match(entry.pathWithQuery, /«masked»/);
  });
});

describe('request activity: the store', () => {
  const entry = (profileId: string, at: number): ActivityEntry => ({
    at,
    profileId,
    source: 'command',
    sourceName: 'x',
    operation: 'task.pause',
    method: 'POST',
    pathWithQuery: `/p${at}`,
    outcome: 'ok',
    elapsedMs: 1,
    attempt: 0,
  });

  it('keeps the newest N per profile, and none when N is 0', async () => {
    const state = new MemoryMemento({ interleave: true });
    let size = 3;
    const activity = new RequestActivity(new PersistedState(state, silentLogger), () => size);
    for (let at = 0; at < 5; at++) await activity.record(entry('a', at));
    await activity.record(entry('b', 9));
    assert.deepEqual(activity.list('a').map((e) => e.at), [4, 3, 2]);
    assert.deepEqual(activity.list('b').map((e) => e.at), [9]);
    size = 0;
    await activity.record(entry('a', 10));
    assert.deepEqual(activity.list('a'), []);
  });

  it('many records at once: none is lost to a race between writes', async () => {
    const state = new MemoryMemento({ interleave: true });
    const activity = new RequestActivity(new PersistedState(state, silentLogger), () => 100);
    await Promise.all(Array.from({ length: 40 }, (_, at) => activity.record(entry('a', at))));
    assert.equal(activity.list('a').length, 40);
  });

  it('anything malformed in globalState is dropped, and a long list is cut to the limit on reading', async () => {
    const state = new MemoryMemento({ interleave: true });
    await state.update(ACTIVITY_STATE_KEY, { a: [entry('a', 1), { at: 'x' }, null, 7], b: 'nope', c: Array.from({ length: 500 }, (_, at) => entry('c', at)) });
    const activity = new RequestActivity(new PersistedState(state, silentLogger), () => 10);
    assert.deepEqual(activity.list('a').map((e) => e.at), [1]);
    assert.deepEqual(activity.list('b'), []);
    assert.equal(activity.list('c').length, 10);
    await activity.clear('a');
    assert.deepEqual(activity.list('a'), []);
    assert.equal(activity.list('c').length, 10);
  });
});
