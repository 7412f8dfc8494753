import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import fc from 'fast-check';
import { formatPlatformTime, nextPeriod, parsePlatformTime, periodOf, type PeriodKind } from '../../../src/core/spend/periods';

const KINDS: PeriodKind[] = ['day', 'week', 'month'];
// 2000-01-01 … 2100-01-01
const instant = fc.integer({ min: 946_684_800_000, max: 4_102_444_800_000 });
const offsetMinutes = fc.integer({ min: -12 * 60, max: 14 * 60 });
const HOST_ZONES = ['UTC', 'Asia/Shanghai', 'America/Los_Angeles', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Europe/Berlin'];

describe('budget periods in the platform time zone', () => {
  const originalTz = process.env.TZ;
  afterEach(() => {
    if (originalTz === undefined) delete process.env.TZ;
    else process.env.TZ = originalTz;
  });

  it('puts midnight +08:00 at the day boundary whatever the host zone', () => {
    // 2026-01-01T00:00:00+08:00 is 2025-12-31T16:00:00Z.
    const newYear = Date.UTC(2025, 11, 31, 16);
    for (const zone of HOST_ZONES) {
      process.env.TZ = zone;
      assert.equal(periodOf('day', newYear).key, '2026-01-01', zone);
      assert.equal(periodOf('day', newYear - 1).key, '2025-12-31', zone);
      assert.equal(periodOf('month', newYear).key, '2026-01', zone);
      assert.equal(periodOf('month', newYear - 1).key, '2025-12', zone);
      assert.equal(periodOf('month', newYear).startMs, newYear, zone);
    }
  });

  it('every instant lies in its period; the period starts at local midnight and ends where the next starts', () => {
    fc.assert(
      fc.property(instant, offsetMinutes, fc.constantFrom(...KINDS), (at, offset, kind) => {
        const period = periodOf(kind, at, offset);
        assert.ok(period.startMs <= at && at < period.endMs);
        const wallStart = new Date(period.startMs + offset * 60_000);
        assert.equal(wallStart.getUTCHours() * 60 + wallStart.getUTCMinutes(), 0, 'starts at 00:00 in the zone');
        if (kind === 'month') assert.equal(wallStart.getUTCDate(), 1);
        if (kind === 'week') assert.equal(wallStart.getUTCDay(), 1, 'weeks start on Monday');
        const next = nextPeriod(period, offset);
        assert.equal(next.startMs, period.endMs);
        assert.notEqual(next.key, period.key);
        assert.equal(periodOf(kind, period.endMs - 1, offset).key, period.key, 'the last millisecond still belongs');
        assert.equal(periodOf(kind, period.startMs, offset).key, period.key);
      }),
      { numRuns: 2000 },
    );
  });

  it('has the right lengths: a day is 24 h, a week 7 days, a month 28–31 days', () => {
    fc.assert(
      fc.property(instant, (at) => {
        assert.equal(periodOf('day', at).endMs - periodOf('day', at).startMs, 86_400_000);
        assert.equal(periodOf('week', at).endMs - periodOf('week', at).startMs, 7 * 86_400_000);
        const days = (periodOf('month', at).endMs - periodOf('month', at).startMs) / 86_400_000;
        assert.ok(days >= 28 && days <= 31, String(days));
      }),
    );
  });

  it('gives the same answer under every host time zone', () => {
    fc.assert(
      fc.property(instant, fc.constantFrom(...KINDS), (at, kind) => {
        process.env.TZ = 'UTC';
        const reference = periodOf(kind, at);
        for (const zone of HOST_ZONES) {
          process.env.TZ = zone;
          assert.deepEqual(periodOf(kind, at), reference, zone);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('formats billing query times at +08:00 and parses every format the platform sends', () => {
    const at = Date.UTC(2025, 11, 31, 16, 0, 0, 999);
    assert.equal(formatPlatformTime(at), '2026-01-01T00:00:00+08:00');
    assert.equal(formatPlatformTime(at, -330), '2025-12-31T10:30:00-05:30');
    assert.equal(parsePlatformTime('2026-04-21T09:01:23.441992+08:00'), Date.UTC(2026, 3, 21, 1, 1, 23, 441));
    assert.equal(parsePlatformTime('2026-04-21T01:01:23Z'), Date.UTC(2026, 3, 21, 1, 1, 23));
    assert.equal(parsePlatformTime('2026-04-21 09:04:20.500576 +08:00'), Date.UTC(2026, 3, 21, 1, 4, 20, 500));
    assert.equal(parsePlatformTime('2026-04-21T09:04:20'), undefined, 'no offset, no guess');
    assert.equal(parsePlatformTime('2026-13-01T00:00:00Z'), undefined);
    assert.equal(parsePlatformTime(`${'9'.repeat(100)}`), undefined);
    fc.assert(
      fc.property(instant, offsetMinutes, (ms, offset) => {
        const whole = Math.floor(ms / 1000) * 1000;
        assert.equal(parsePlatformTime(formatPlatformTime(ms, offset)), whole);
      }),
    );
  });
});
