import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { nextDue, nextWake, parseDue, readTimers, splitDue, toWarn, warningKey, type PauseTimer } from '../../../src/core/spend/pauseTimers';

const MIN = 60_000;
// 2026-11-24 10:00 UTC
const NOW = Date.UTC(2026, 10, 24, 10);
const utc = () => 0;
const shanghai = () => 480;

describe('pause timers', () => {
  it('parses durations', () => {
    assert.deepEqual(parseDue('45m', NOW, utc), { dueAt: NOW + 45 * MIN });
    assert.deepEqual(parseDue('2h', NOW, utc), { dueAt: NOW + 120 * MIN });
    assert.deepEqual(parseDue('1h30m', NOW, utc), { dueAt: NOW + 90 * MIN });
    assert.deepEqual(parseDue(' 1.5h ', NOW, utc), { dueAt: NOW + 90 * MIN });
    assert.deepEqual(parseDue('90', NOW, utc), { dueAt: NOW + 90 * MIN });
    assert.deepEqual(parseDue('20 min', NOW, utc), { dueAt: NOW + 20 * MIN });
    assert.deepEqual(parseDue('', NOW, utc), { error: 'empty' });
    assert.deepEqual(parseDue('soon', NOW, utc), { error: 'format' });
    assert.deepEqual(parseDue('0m', NOW, utc), { error: 'tooShort' });
    assert.deepEqual(parseDue('200h', NOW, utc), { error: 'tooLong' });
  });

  it('parses a clock time as the next one to come, in the local zone', () => {
    // 10:00 UTC is 18:00 in +08:00: 18:30 is today, 07:00 is tomorrow.
    assert.deepEqual(parseDue('18:30', NOW, shanghai), { dueAt: NOW + 30 * MIN });
    assert.deepEqual(parseDue('7:00', NOW, shanghai), { dueAt: NOW + 13 * 60 * MIN });
    assert.deepEqual(parseDue('10:00', NOW, utc), { dueAt: NOW + 24 * 60 * MIN }, 'now exactly: tomorrow');
    assert.deepEqual(parseDue('24:00', NOW, utc), { error: 'format' });
  });

  it('a clock time is always within the next 24 hours and lands on that local minute (any zone)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1_700_000_000_000, max: 2_000_000_000_000 }), fc.integer({ min: -720, max: 840 }), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), (now, offset, h, m) => {
        const parsed = parseDue(`${h}:${String(m).padStart(2, '0')}`, now, () => offset);
        assert.ok('dueAt' in parsed);
        assert.ok(parsed.dueAt > now && parsed.dueAt <= now + 24 * 60 * MIN);
        const wall = new Date(parsed.dueAt + offset * MIN);
        assert.equal(wall.getUTCHours(), h);
        assert.equal(wall.getUTCMinutes(), m);
      }),
    );
  });

  it('splits due from waiting timers and finds the next', () => {
    const timer = (taskId: number, dueAt: number): PauseTimer => ({ profileId: 'p', taskId, taskName: `t${taskId}`, dueAt, createdAt: 0 });
    const timers = [timer(1, NOW - 1), timer(2, NOW + 5), timer(3, NOW)];
    const { due, waiting } = splitDue(timers, NOW);
    assert.deepEqual(due.map((t) => t.taskId), [1, 3]);
    assert.deepEqual(waiting.map((t) => t.taskId), [2]);
    assert.equal(nextDue(timers), NOW - 1);
    assert.equal(nextDue([]), undefined);
  });

  it('keeps only well-formed stored timers', () => {
    assert.deepEqual(readTimers('x'), []);
    assert.deepEqual(readTimers([{ profileId: 'p', taskId: 1, taskName: 'n', dueAt: 5, createdAt: 1 }, { taskId: 'x' }, null]).length, 1);
  });
});

describe('spend: a pause timer warns before it pauses', () => {
  const timer = { profileId: 'p', taskId: 3, taskName: 't', dueAt: 10 * 60_000, createdAt: 0 };

  it('warns inside the window before its time, once per timer as set', () => {
    const warned = new Set<string>();
    assert.deepEqual(toWarn([timer], 7 * 60_000, warned), [], 'not yet');
    assert.equal(nextWake([timer], warned), 8 * 60_000, 'wakes to warn first');
    assert.deepEqual(toWarn([timer], 8 * 60_000, warned), [timer]);
    warned.add(warningKey(timer));
    assert.deepEqual(toWarn([timer], 9 * 60_000, warned), [], 'once');
    assert.equal(nextWake([timer], warned), 10 * 60_000, 'then wakes when it is due');
    assert.deepEqual(toWarn([{ ...timer, dueAt: 11 * 60_000 }], 9 * 60_000, warned).length, 1, 'a timer set again warns again');
  });

  it('a timer already due (it came due while VS Code was closed) is not warned: it acts and says so', () => {
    assert.deepEqual(toWarn([timer], 10 * 60_000, new Set()), []);
  });
});
