// Job log following: only new lines per blob, trimmed heads, gaps, partial lines (escape codes:
// test/unit/core/terminalText.test.ts).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LogFollower, MAX_UPDATE_CHARS } from '../../../src/core/jobs/logFollower';
import { assertLinearTime, flat } from '../../helpers/linearTime';

describe('LogFollower', () => {
  it('emits each complete line once as the blob grows, holding a partial line until its newline', () => {
    const follower = new LogFollower();
    assert.deepEqual(follower.update('a\nb\npar'), { lines: ['a', 'b'], gap: false });
    assert.deepEqual(follower.update('a\nb\npartial\nc\n'), { lines: ['partial', 'c'], gap: false });
    assert.deepEqual(follower.update('a\nb\npartial\nc\n'), { lines: [], gap: false });
    assert.deepEqual(follower.update('a\nb\npartial\nc\nend'), { lines: [], gap: false });
    assert.deepEqual(follower.flush(), ['end']);
    assert.equal(follower.lineCount, 5);
  });

  it('finds its place again when the platform trimmed the head of the log', () => {
    const follower = new LogFollower();
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i}`);
    follower.update(`${lines.slice(0, 30).join('\n')}\n`);
    const next = follower.update(`${lines.slice(10, 50).join('\n')}\n`);
    assert.deepEqual(next, { lines: lines.slice(30, 50), gap: false });
  });

  it('says lines were lost when its place was trimmed away, and starts from what is there', () => {
    const follower = new LogFollower();
    follower.update('old 1\nold 2\n');
    assert.deepEqual(follower.update('new 7\nnew 8\n'), { lines: ['new 7', 'new 8'], gap: true });
  });

  it('emits at most MAX_UPDATE_CHARS of new text, its last whole lines, and says the rest is missing', () => {
    const follower = new LogFollower();
    const line = `${'x'.repeat(79)}`;
    const count = Math.ceil((3 * MAX_UPDATE_CHARS) / 80);
    const blob = `${Array.from({ length: count }, (_, i) => `${String(i).padStart(8, '0')}${line.slice(8)}`).join('\n')}\n`;
    const first = follower.update(blob);
    assert.equal(first.gap, true);
    assert.ok(first.lines.join('\n').length <= MAX_UPDATE_CHARS, 'bounded');
    assert.ok(first.lines.length >= Math.floor(MAX_UPDATE_CHARS / 80) - 1, 'fills the bound');
    assert.equal(first.lines.at(-1), `${String(count - 1).padStart(8, '0')}${line.slice(8)}`, 'ends at the last line');
    assert.ok(first.lines.every((text) => text.length === 79), 'whole lines only');
    // What follows comes as usual, without a gap.
    assert.deepEqual(follower.update(`${blob}next\n`), { lines: ['next'], gap: false });
    // One line longer than the bound is the part left out.
    const long = new LogFollower();
    assert.deepEqual(long.update(`${'y'.repeat(MAX_UPDATE_CHARS + 10)}\n`), { lines: [], gap: true });
    assert.deepEqual(long.update(`${'y'.repeat(MAX_UPDATE_CHARS + 10)}\nafter\n`), { lines: ['after'], gap: false });
  });

  it('is linear in what it is fed: many small updates of a growing, trimmed blob', () => {
    assertLinearTime(
      'follow',
      (n) => {
        const lines = Array.from({ length: n }, (_, i) => `${i} epoch loss=0.${i % 997}`);
        const blobs: string[] = [];
        for (let end = 100; end <= n; end += 100) blobs.push(flat(`${lines.slice(Math.max(0, end - 300), end).join('\n')}\n`));
        return blobs;
      },
      (blobs) => {
        const follower = new LogFollower();
        for (const blob of blobs) follower.update(blob);
        assert.ok(follower.lineCount > 0);
      },
      { n: 2000 },
    );
  });

  it('given only the end of each blob (the client keeps the last part), emits what the whole blob would', () => {
    // A log that grows and whose head the platform trims, read as the whole blob and as its last `window` characters.
    const window = MAX_UPDATE_CHARS + 4096;
    const line = (i: number): string => `${i} step loss=0.${i % 997} ${'训'.repeat(i % 40)}`;
    const whole = new LogFollower();
    const windowed = new LogFollower();
    let first = 0;
    let next = 0;
    for (let read = 0; read < 12; read++) {
      // Growth below, around and above the window; every third read the head is trimmed.
      next += [50, 4000, 30_000, 200, 70_000, 10][read % 6]!;
      if (read % 3 === 2) first = Math.floor((first + next) / 2);
      const blob = `${Array.from({ length: next - first }, (_, i) => line(first + i)).join('\n')}\npart`;
      const from = Math.max(0, blob.length - window);
      const expected = whole.update(blob);
      const got = windowed.update(blob.slice(from), from);
      assert.equal(got.gap, expected.gap, `read ${read}: the same gap`);
      assert.deepEqual(got.lines, expected.lines, `read ${read}: the same lines`);
      assert.equal(windowed.partial, whole.partial);
    }
    assert.deepEqual(windowed.flush(), whole.flush());
  });

  it('given the end of a log, never emits the cut first line, and says lines are missing', () => {
    const follower = new LogFollower();
    // The part given starts inside "line 1".
    const update = follower.update('ne 1\nline 2\nline 3\n', 100);
    assert.deepEqual(update, { lines: ['line 2', 'line 3'], gap: true });
    // The log went on past the part given next time: its place is before what came; a gap again.
    assert.deepEqual(follower.update('ne 9\nline 10\n', 500), { lines: ['line 10'], gap: true });
    // One unterminated fragment only: nothing to emit.
    assert.deepEqual(new LogFollower().update('no newline here', 10), { lines: [], gap: true });
  });
});
