// The linear-time guards themselves (test/helpers/linearTime.ts): a linear and a constant-time piece of
// work pass, a quadratic one fails, whatever else the machine is doing (CPU time, ratios only).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertLinearTime, assertLinearWork, flat } from '../../helpers/linearTime';

/** Visits every character once. */
function linearScan(text: string): number {
  let sum = 0;
  for (let index = 0; index < text.length; index++) sum = (sum + text.charCodeAt(index)) | 0;
  return sum;
}

/** Compares every character with every one before it. */
function quadraticScan(text: string): number {
  let same = 0;
  for (let index = 0; index < text.length; index++) {
    for (let before = 0; before < index; before++) if (text.charCodeAt(before) === text.charCodeAt(index)) same++;
  }
  return same;
}

const letters = (n: number): string => flat('abcdefghij'.repeat(Math.ceil(n / 10)).slice(0, n));

describe('linear-time guards', () => {
  it('assertLinearTime passes linear and constant-time work', () => {
    assertLinearTime('linear scan', letters, linearScan, { n: 4_000 });
    assertLinearTime('a cut to a fixed length', letters, (text) => linearScan(text.slice(0, 100)), { n: 4_000 });
  });

  it('assertLinearTime fails quadratic work, naming the ratio', () => {
    assert.throws(() => assertLinearTime('quadratic scan', letters, quadraticScan, { n: 300, attempts: 1 }), /quadratic scan: t\(32n\) \/ t\(n\) above 200 in 1 measurements/);
  });

  it('assertLinearWork counts: linear passes, quadratic fails', () => {
    const pairs = (n: number): number => (n * (n - 1)) / 2;
    assertLinearWork('linear count', (n) => n, (n) => n, { n: 100 });
    assert.throws(() => assertLinearWork('quadratic count', (n) => n, pairs, { n: 100 }), /quadratic count: work\(32n\) \/ work\(n\)/);
  });
});
