import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TimestampLedger } from '../../sandbox/compute/timestampLedger';

describe('sandbox timestamp ledger', () => {
  it('refuses a timestamp used before with the same token, not with another token', () => {
    const ledger = new TimestampLedger(() => 1_700_000_000_000, 300_000);
    assert.equal(ledger.use('a', 1_700_000_000_001), true);
    assert.equal(ledger.use('a', 1_700_000_000_001), false);
    assert.equal(ledger.use('b', 1_700_000_000_001), true);
  });

  it('stays bounded: forgets timestamps outside the window first, then the oldest, in amortized sweeps', () => {
    let now = 1_700_000_000_000;
    const ledger = new TimestampLedger(() => now, 300_000, 1000);
    for (let i = 0; i < 600; i++) assert.equal(ledger.use('t', now + i), true);
    now += 400_000; // the first 600 are now outside the window
    for (let i = 0; i < 401; i++) ledger.use('t', now + i);
    // 1001 > cap: the sweep drops the 600 expired ones and keeps the 401 recent ones.
    assert.equal(ledger.size('t'), 401);
    assert.equal(ledger.use('t', now + 400), false, 'a recent timestamp is still refused after the sweep');

    for (let i = 401; i < 1001; i++) ledger.use('t', now + i);
    // 1001 in-window timestamps: the sweep trims to half the cap, leaving room for 500 requests before the next.
    assert.equal(ledger.size('t'), 500);
    for (let i = 1001; i < 5000; i++) ledger.use('t', now + i);
    assert.ok(ledger.size('t') <= 1000, `remembered ${ledger.size('t')} timestamps, cap 1000`);
    assert.ok(ledger.size('t') >= 500, 'a sweep keeps the newest half, so it cannot run on every request');
    assert.equal(ledger.use('t', now + 4999), false, 'the newest timestamps are never the ones forgotten');
  });
});
