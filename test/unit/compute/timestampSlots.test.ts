// Cross-process timestamp uniqueness: slot claims in a per-user folder, and clocks that issue only
// their slot's residue. (The end-to-end check with two real processes is in the contract tests.)

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { RequestClock, TimestampHistory } from '../../../src/core/compute/clock';
import { claimTimestampSlot, TIMESTAMP_SLOTS, type TimestampPartition } from '../../../src/core/compute/timestampSlots';

describe('timestamp slots', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-slots-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const alive = new Set<number>();
  const claim = (pid: number, slots = 4) => {
    alive.add(pid);
    return claimTimestampSlot({ dir, slots, pid, isAlive: (candidate) => alive.has(candidate) });
  };

  it('live processes get different slots; a released slot is free again', () => {
    const claims = [101, 102, 103].map((pid) => claim(pid));
    assert.deepEqual(claims.map(({ partition: { slot, slots } }) => ({ slot, slots })), [0, 1, 2].map((slot) => ({ slot, slots: 4 })));
    assert.ok(claims.every((c) => c.reason === undefined && c.file !== undefined));
    assert.equal(fs.readFileSync(path.join(dir, 'slot-1'), 'utf8'), '102');
    claims[1]?.release();
    assert.equal(fs.existsSync(path.join(dir, 'slot-1')), false);
    assert.equal(claim(104).partition.slot, 1);
  });

  it('takes over the slot of a process that is gone, never that of a live one', () => {
    for (const pid of [201, 202, 203, 204]) claim(pid);
    alive.delete(203); // crashed without releasing
    const late = claim(205);
    assert.deepEqual([late.partition.slot, late.partition.slots], [2, 4]);
    assert.equal(fs.readFileSync(path.join(dir, 'slot-2'), 'utf8'), '205');
  });

  it('degrades to a pid-derived slot, saying why, when every slot is held or the folder is unusable', () => {
    for (const pid of [301, 302, 303, 304]) claim(pid);
    const full = claim(306);
    assert.deepEqual(full.partition, { slot: 306 % 4, slots: 4 });
    assert.match(full.reason ?? '', /all 4 timestamp slots .* are held/);
    assert.equal(full.file, undefined);

    const blocker = path.join(dir, 'not-a-folder');
    fs.writeFileSync(blocker, 'x');
    const unusable = claimTimestampSlot({ dir: path.join(blocker, 'slots'), pid: 307 });
    assert.equal(unusable.partition.slots, TIMESTAMP_SLOTS);
    assert.match(unusable.reason ?? '', /cannot use/);
  });

  it('a released slot hands its highest timestamp on: the next holder issues only later ones, even after a burst ran ahead', () => {
    const first = claim(501);
    const now = Date.now();
    const burst = new RequestClock(() => now, new TimestampHistory(), () => first.partition);
    const issued = Array.from({ length: 50 }, () => Number(burst.next('tok')));
    const highest = Math.max(...issued);
    assert.ok(highest > now + 40 * 4, 'the burst ran ahead of the clock (one slot-width per request)');
    first.release();
    assert.equal(fs.readFileSync(path.join(dir, 'slot-0.after'), 'utf8'), String(highest));
    const next = claim(502);
    assert.equal(next.partition.slot, 0, 'the same slot');
    assert.equal(next.partition.notBefore, highest);
    const after = new RequestClock(() => now, new TimestampHistory(), () => next.partition);
    const fresh = Array.from({ length: 10 }, () => Number(after.next('tok')));
    assert.ok(fresh.every((value) => value > highest && !issued.includes(value)), 'none of the burst\'s values again');
    // A clock far from the handed-on value (a skewed or a test's clock) keeps its own values.
    const skewed = new RequestClock(() => now - 3_600_000, new TimestampHistory(), () => next.partition);
    assert.ok(Number(skewed.next('tok')) < now);
  });

  it('a half-written slot file (no pid yet) is left alone while fresh', () => {
    fs.writeFileSync(path.join(dir, 'slot-0'), '');
    for (const slot of [1, 2, 3]) fs.writeFileSync(path.join(dir, `slot-${slot}`), String(999_990 + slot)); // holders gone
    assert.equal(claim(401).partition.slot, 1, 'the first stale slot, not the one being claimed');
  });
});

describe('partitioned clocks', () => {
  const frozen = 1_718_000_000_000;
  const clockFor = (partition: TimestampPartition, now: () => number = () => frozen) => new RequestClock(now, new TimestampHistory(), () => partition);

  it('issue only their residue, strictly increasing, one slot-width apart within a millisecond', () => {
    const clock = clockFor({ slot: 5, slots: 32 });
    const values = Array.from({ length: 1000 }, () => Number(clock.next('tok')));
    assert.ok(values.every((value) => value % 32 === 5));
    assert.ok(values.every((value, index) => index === 0 || value === (values[index - 1] ?? 0) + 32));
    assert.ok((values[0] ?? 0) >= frozen && (values[0] ?? 0) < frozen + 32, 'the first is the next value of the residue');
  });

  it('two processes in the same milliseconds never share a value (the cross-process case)', () => {
    let now = frozen;
    const a = clockFor({ slot: 0, slots: 32 }, () => now);
    const b = clockFor({ slot: 1, slots: 32 }, () => now);
    const seen = new Set<string>();
    for (let step = 0; step < 5000; step++) {
      if (step % 7 === 0) now += 1;
      for (const value of [a.next('shared-token'), b.next('shared-token')]) {
        assert.ok(!seen.has(value), `${value} issued twice`);
        seen.add(value);
      }
    }
    // The same two clocks without a partition do collide: the partition is what prevents it.
    const c = clockFor({ slot: 0, slots: 1 });
    const d = clockFor({ slot: 0, slots: 1 });
    assert.equal(c.next('t'), d.next('t'));
  });

  it('keep to their residue after the clock steps back and after restarting inside the window', () => {
    let now = frozen;
    const clock = clockFor({ slot: 7, slots: 32 }, () => now);
    const first = Number(clock.next('t'));
    now -= 10_000;
    const afterStepBack = Number(clock.next('t'));
    assert.equal(afterStepBack, first + 32);
    assert.equal(afterStepBack % 32, 7);
  });
});
