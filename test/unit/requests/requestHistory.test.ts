// The request history (src/vscode/requests/requestHistory.ts): per profile, newest first, bounded,
// and never a secret: a request whose secret had to be masked is kept but cannot be replayed.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger } from '../../../src/core/log';
import { PersistedState } from '../../../src/vscode/persistedState';
import { HISTORY_STATE_KEY, RequestHistory, redactInput } from '../../../src/vscode/requests/requestHistory';
import { MemoryMemento } from '../../helpers/memoryMemento';

const SECRET = `s3cr3t_${Date.now().toString(36)}_value`;
const mask = (text: string): string => text.split(SECRET).join('«masked»');
const base = { method: 'GET' as const, pathWithQuery: '/api/x', outcome: 'ok', elapsedMs: 5, title: 'X' };

describe('request history', () => {
  it('keeps the newest N per profile', async () => {
    const state = new MemoryMemento();
    const history = new RequestHistory(new PersistedState(state, silentLogger), () => 3);
    for (let index = 0; index < 5; index++) {
      await history.record({ ...base, at: index, profileId: 'a' }, { kind: 'raw', request: { method: 'GET', path: `/p${index}` } }, mask);
    }
    await history.record({ ...base, at: 9, profileId: 'b' }, { kind: 'raw', request: { method: 'GET', path: '/b' } }, mask);
    assert.deepEqual(history.list('a').map((entry) => entry.at), [4, 3, 2]);
    assert.equal(history.list('b').length, 1);
    await history.clear('a');
    assert.equal(history.list('a').length, 0);
  });

  it('records nothing when the size is 0', async () => {
    const history = new RequestHistory(new PersistedState(new MemoryMemento(), silentLogger), () => 0);
    assert.equal(await history.record({ ...base, at: 1, profileId: 'a' }, { kind: 'raw', request: { method: 'GET', path: '/' } }, mask), undefined);
    assert.equal(history.list('a').length, 0);
  });

  it('masks catalog secret fields and known secrets, and then refuses to replay', async () => {
    const state = new MemoryMemento();
    const history = new RequestHistory(new PersistedState(state, silentLogger), () => 10);
    const entry = await history.record(
      { ...base, at: 1, profileId: 'a', outcome: `C001 ${SECRET}` },
      { kind: 'operation', operation: 'storage.encryptCheck', params: { secret_key: SECRET, access_key: 'ak_value_long_enough', bucket: 'b' } } as never,
      mask,
    );
    assert.equal(entry?.replayable, false);
    const stored = JSON.stringify(state.get(HISTORY_STATE_KEY));
    assert.ok(!stored.includes(SECRET), 'a secret was stored');
    const raw = redactInput({ kind: 'raw', request: { method: 'POST', path: '/p', body: { note: `x ${SECRET}` } } }, mask);
    assert.equal(raw.replayable, false);
    assert.ok(!JSON.stringify(raw.input).includes(SECRET));
    const clean = redactInput({ kind: 'raw', request: { method: 'POST', path: '/p', body: { note: 'x' }, query: [['a', 'b']] } }, mask);
    assert.equal(clean.replayable, true);
  });

  it("masks a task's env values (they can be secrets) and then refuses to replay", () => {
    const envValue = `hf_${Date.now().toString(36)}_token`;
    const params = { task_name: 't', points: 1, services: [{ name: 's', env: `HF_TOKEN=${envValue}` }] };
    const redacted = redactInput({ kind: 'operation', operation: 'task.create', params }, mask);
    assert.equal(redacted.replayable, false);
    assert.ok(!JSON.stringify(redacted.input).includes(envValue), 'an env value was kept');
    assert.ok(JSON.stringify(redacted.input).includes('HF_TOKEN='), 'the variable name should stay readable');
    const raw = redactInput({ kind: 'raw', request: { method: 'POST', path: '/p', body: { env: { KEY: envValue } } } }, mask);
    assert.equal(raw.replayable, false);
    assert.ok(!JSON.stringify(raw.input).includes(envValue));
  });

  it('ignores a damaged stored value instead of failing', () => {
    const state = new MemoryMemento();
    void state.update(HISTORY_STATE_KEY, { a: [{ nonsense: true }, 7], b: 'x' });
    const history = new RequestHistory(new PersistedState(state, silentLogger), () => 10);
    assert.deepEqual(history.list('a'), []);
    assert.equal(history.find('nope'), undefined);
  });
});
