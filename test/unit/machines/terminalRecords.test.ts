// Which machine terminals to open again after a restart (core/machines/terminalRecords.ts): stored entries
// read back untrusted and bounded, one entry per terminal, and the plan that says which come back and why
// the others cannot (no longer Serving, no key stored).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_TERMINAL_ENTRIES, planTerminalRestore, readTerminalEntries, withTerminal, withoutTerminal } from '../../../src/core/machines/terminalRecords';

describe('machine terminal records', () => {
  it('keeps only valid entries of a damaged or hostile stored value, bounded', () => {
    assert.deepEqual(readTerminalEntries(undefined), []);
    assert.deepEqual(readTerminalEntries({ profileId: 'p', deviceId: 1 }), []);
    const read = readTerminalEntries([{ profileId: 'p', deviceId: 1, extra: 'x' }, { profileId: '', deviceId: 2 }, { profileId: 'p', deviceId: 0 }, { profileId: 'p', deviceId: 1.5 }, { profileId: 'p'.repeat(201), deviceId: 3 }, null, 'x', [], { profileId: 'p', deviceId: '4' }, { profileId: 'q', deviceId: 1 }]);
    assert.deepEqual(read, [{ profileId: 'p', deviceId: 1 }, { profileId: 'q', deviceId: 1 }]);
    const many = Array.from({ length: 1_000_000 }, (_, index) => ({ profileId: 'p', deviceId: index + 1 }));
    assert.equal(readTerminalEntries(many).length, MAX_TERMINAL_ENTRIES);
  });

  it('adds one entry per terminal and removes one at a time (two terminals on one machine)', () => {
    const a = { profileId: 'p', deviceId: 7 };
    const two = withTerminal(withTerminal([], a), a);
    assert.equal(two.length, 2);
    assert.deepEqual(withoutTerminal(two, a), [a]);
    assert.deepEqual(withoutTerminal([a], { profileId: 'q', deviceId: 7 }), [a], 'another profile\'s machine 7 is another machine');
    let full: { profileId: string; deviceId: number }[] = [];
    for (let deviceId = 1; deviceId <= MAX_TERMINAL_ENTRIES + 5; deviceId++) full = withTerminal(full, { profileId: 'p', deviceId });
    assert.equal(full.length, MAX_TERMINAL_ENTRIES);
    assert.equal(full[0]?.deviceId, 6, 'the oldest are dropped');
  });

  it('plans the active profile\'s terminals: reopen those Serving with a key, say why for the rest', () => {
    const entries = [
      { profileId: 'p', deviceId: 1 },
      { profileId: 'p', deviceId: 2 },
      { profileId: 'p', deviceId: 3 },
      { profileId: 'q', deviceId: 1 },
      { profileId: 'p', deviceId: 1 },
    ];
    assert.deepEqual(planTerminalRestore(entries, 'p', new Set([1, 3]), new Set([1, 2])), {
      open: [1, 1],
      skipped: [
        { deviceId: 2, reason: 'ended' },
        { deviceId: 3, reason: 'noKey' },
      ],
    });
    assert.deepEqual(planTerminalRestore(entries, 'r', new Set([1]), new Set([1])), { open: [], skipped: [] });
  });
});
