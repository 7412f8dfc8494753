// The persisted-state store (src/vscode/persistedState.ts): every key keeps the name users' data is stored
// under, a missing value reads as its default, and a damaged or older value is never trusted — it falls
// back to the default (or keeps only its valid items) and says so once in the log.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PERSISTED, PERSISTED_PER_PROFILE, PersistedState, persistedStateOf } from '../../../src/vscode/persistedState';
import { EchoingMemento } from '../../helpers/echoingMemento';
import { MemoryMemento } from '../../helpers/memoryMemento';

function store(): { state: PersistedState; memento: MemoryMemento; warnings: string[] } {
  const memento = new MemoryMemento();
  const warnings: string[] = [];
  return { state: persistedStateOf({ globalState: memento }, { warn: (message) => warnings.push(message) }), memento, warnings };
}

describe('persisted state', () => {
  it('keeps every key name that earlier versions stored data under', () => {
    // Renaming one of these loses what users stored: this list changes only with a migration.
    assert.deepEqual(
      Object.fromEntries(Object.entries(PERSISTED).map(([name, entry]) => [name, entry.key])),
      {
        secretSetAt: 'computeToolkit.secretSetAt',
        chatLastModel: 'computeToolkit.chat.lastModel',
        pauseTimers: 'computeToolkit.tasks.pauseTimers',
        walkthroughShown: 'computeToolkit.walkthroughShown',
        deploymentIdlePause: 'computeToolkit.deployments.idlePause',
        requestActivity: 'requestActivity.v1',
      requestHistory: 'requestHistory.v1',
        notebookKernels: 'computeToolkit.notebooks.kernels',
        machineKernels: 'computeToolkit.notebooks.machineKernels',
      },
    );
    assert.equal(PERSISTED_PER_PROFILE.budgetAnnounced.key, 'computeToolkit.budgets.announced');
  });

  it('reads a missing value as its default, a fresh copy each time, without a warning', () => {
    const { state, warnings } = store();
    assert.equal(state.get('chatLastModel'), '');
    assert.equal(state.get('walkthroughShown'), false);
    const timers = state.get('pauseTimers');
    timers.push({ profileId: 'p', taskId: 1, taskName: 'n', dueAt: 2, createdAt: 1 });
    assert.deepEqual(state.get('pauseTimers'), []);
    assert.deepEqual(state.getFor('budgetAnnounced', 'p1'), []);
    assert.deepEqual(warnings, []);
  });

  it('reads back what it wrote, under the stored key (per profile under <key>/<profile id>)', async () => {
    const { state, memento, warnings } = store();
    await state.update('chatLastModel', 'qwen');
    await state.update('walkthroughShown', true);
    await state.update('secretSetAt', { p1: { apiToken: 1700000000000 } });
    await state.update('deploymentIdlePause', { p1: { '42': 30 } });
    await state.updateFor('budgetAnnounced', 'p1', ['day:2026-11-25:80']);
    assert.equal(memento.get('computeToolkit.chat.lastModel'), 'qwen');
    assert.deepEqual(memento.get('computeToolkit.budgets.announced/p1'), ['day:2026-11-25:80']);
    assert.equal(state.get('chatLastModel'), 'qwen');
    assert.equal(state.get('walkthroughShown'), true);
    assert.deepEqual(state.get('secretSetAt'), { p1: { apiToken: 1700000000000 } });
    assert.deepEqual(state.get('deploymentIdlePause'), { p1: { '42': 30 } });
    assert.deepEqual(state.getFor('budgetAnnounced', 'p1'), ['day:2026-11-25:80']);
    assert.deepEqual(state.getFor('budgetAnnounced', 'p2'), []);
    assert.deepEqual(warnings, []);
  });

  it('falls back to the default for a value of the wrong shape, and logs it once per key', () => {
    const { state, memento, warnings } = store();
    memento.values.set('computeToolkit.chat.lastModel', 7);
    memento.values.set('computeToolkit.walkthroughShown', 'yes');
    memento.values.set('computeToolkit.tasks.pauseTimers', { not: 'a list' });
    memento.values.set('requestHistory.v1', ['x']);
    assert.equal(state.get('chatLastModel'), '');
    assert.equal(state.get('chatLastModel'), '');
    assert.equal(state.get('walkthroughShown'), false);
    assert.deepEqual(state.get('pauseTimers'), []);
    assert.deepEqual(state.get('requestHistory'), {});
    assert.equal(warnings.length, 4, warnings.join('\n'));
    assert.ok(warnings.some((text) => text.includes('computeToolkit.chat.lastModel') && text.includes('default')), warnings.join('\n'));
  });

  it('keeps the valid items of a partly damaged collection and drops the rest', () => {
    const { state, memento, warnings } = store();
    const timer = { profileId: 'p', taskId: 3, taskName: 'train', dueAt: 5, createdAt: 1 };
    memento.values.set('computeToolkit.tasks.pauseTimers', [timer, { taskId: 'x' }, null]);
    memento.values.set('computeToolkit.secretSetAt', { p1: { apiToken: 5, madeUp: 6, privateKey: 'soon' }, p2: 'x' });
    memento.values.set('computeToolkit.deployments.idlePause', { p1: { '1': 10, '2': -3, '3': null } });
    memento.values.set('computeToolkit.budgets.announced/p1', ['a', 3, 'b']);
    const entry = { id: 'e1', at: 1, input: { kind: 'raw' } };
    memento.values.set('requestHistory.v1', { a: [entry, { nonsense: true }, 7], b: 'x' });
    assert.deepEqual(state.get('pauseTimers'), [timer]);
    assert.deepEqual(state.get('secretSetAt'), { p1: { apiToken: 5 } });
    assert.deepEqual(state.get('deploymentIdlePause'), { p1: { '1': 10 } });
    assert.deepEqual(state.getFor('budgetAnnounced', 'p1'), ['a', 'b']);
    assert.deepEqual(state.get('requestHistory'), { a: [entry] });
    assert.equal(warnings.length, 5, warnings.join('\n'));
  });

  it('logs no stored value, only what was wrong with it', () => {
    const { state, memento, warnings } = store();
    const secretLooking = `sk-${Date.now().toString(36)}-do-not-log`;
    memento.values.set('computeToolkit.chat.lastModel', { model: secretLooking });
    memento.values.set('computeToolkit.budgets.announced/p1', [secretLooking, { v: secretLooking }]);
    state.get('chatLastModel');
    state.getFor('budgetAnnounced', 'p1');
    assert.equal(warnings.length, 2);
    for (const warning of warnings) assert.ok(!warning.includes(secretLooking), warning);
  });
  it('keeps a write made while an earlier write\'s echo is on its way (VS Code replaces its object with the echo)', async () => {
    const memento = new EchoingMemento();
    const state = persistedStateOf({ globalState: memento }, { warn: () => undefined });
    const timer = { profileId: 'p', taskId: 7, taskName: 't', dueAt: 2, createdAt: 1 };
    // Request activity is written on every request; the timer is set while that write's echo is in flight.
    const activity = state.update('chatLastModel', 'model-a');
    await new Promise((resolve) => setImmediate(resolve));
    memento.send();
    const timers = state.update('pauseTimers', [timer]);
    memento.echo();
    await memento.settle();
    await Promise.all([activity, timers]);
    assert.deepEqual(state.get('pauseTimers'), [timer]);
    assert.deepEqual(memento.persisted('computeToolkit.tasks.pauseTimers'), [timer]);
    assert.equal(memento.persisted('computeToolkit.chat.lastModel'), 'model-a');
  });

  it('the echoing memento loses such a write when written to directly (the test above can fail)', async () => {
    const memento = new EchoingMemento();
    const first = memento.update('a', 1);
    memento.send();
    const second = memento.update('b', 2);
    memento.echo();
    await memento.settle();
    await Promise.all([first, second]);
    assert.equal(memento.persisted('b'), undefined);
  });

  it('writes again a value another write replaced, and says so when it never sticks', async () => {
    const warnings: string[] = [];
    let writes = 0;
    const stubborn = { get: () => 'theirs', update: async () => void writes++ };
    const state = persistedStateOf({ globalState: stubborn }, { warn: (message) => warnings.push(message) });
    await state.update('chatLastModel', 'ours');
    assert.equal(writes, 3);
    assert.match(warnings.join('\n'), /computeToolkit\.chat\.lastModel: the write did not stick after 3 attempts/);
  });
  it('reads a queued write at once, and a burst of writes to one key is sent as its last value', async () => {
    const memento = new MemoryMemento({ interleave: true });
    let sent = 0;
    const counting = { get: (key: string) => memento.get(key), update: (key: string, value: unknown) => (sent++, memento.update(key, value)) };
    const state = persistedStateOf({ globalState: counting }, { warn: () => undefined });
    const writes: Promise<void>[] = [];
    for (let n = 1; n <= 100; n++) {
      // A read-modify-write right after the previous write, as request records are kept.
      writes.push(state.update('secretSetAt', { ...state.get('secretSetAt'), [`p${n}`]: { apiToken: n } }));
    }
    assert.equal(Object.keys(state.get('secretSetAt')).length, 100, 'each read saw the writes before it');
    await Promise.all(writes);
    assert.equal(Object.keys(memento.get<Record<string, number>>('computeToolkit.secretSetAt') ?? {}).length, 100);
    assert.ok(sent <= 3, `the burst went out as at most a few writes, not 100 (sent ${sent})`);
  });
});
