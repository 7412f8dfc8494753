import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { BillingRecord, TaskStatus, TaskSummary } from '../../../src/core/compute/api';
import { formatPlatformTime, parsePlatformTime, periodOf } from '../../../src/core/spend/periods';
import { burnRate, offerKey, spendWindow, summarizeSpend } from '../../../src/core/spend/spend';

const DAY = 86_400_000;

function bucket(startMs: number, points: number): BillingRecord {
  return { billing_coin: points, discount_coin: 0, start_time: formatPlatformTime(startMs), end_time: formatPlatformTime(startMs + DAY) };
}

function task(status: TaskStatus, nodes: number, device = 'RTX 4090 x 1', region = 'beijing'): TaskSummary {
  return {
    task_id: 1,
    task_name: 't',
    status,
    points: nodes,
    runing_points: nodes,
    billing_value: 0,
    forecast_value: 0,
    create_time: '',
    resources: [{ resource: { device_name: device, region, gpu_name: '4090', gpu_count: 1, gpu_memory: 1, memory: 1, cpu_cores: 1 }, region_name: 'r', mark: 'm' }],
    services: [],
  };
}

describe('spend summary', () => {
  it('one window covers this week and this month in +08:00 days', () => {
    // Sunday 2026-11-01 10:00 +08:00: the week began in October.
    const now = Date.UTC(2026, 10, 1, 2);
    const window = spendWindow(now);
    assert.equal(window.query.start_time, '2026-10-26T00:00:00+08:00');
    assert.equal(window.query.end_time, '2026-11-02T00:00:00+08:00');
    // Tuesday 2026-11-24: the month began first.
    assert.equal(spendWindow(Date.UTC(2026, 10, 24, 4)).query.start_time, '2026-11-01T00:00:00+08:00');
  });

  it('sums today, this week and this month from daily buckets', () => {
    const now = Date.UTC(2026, 10, 1, 2); // Sunday 1 November, +08:00
    const today = periodOf('day', now).startMs;
    const buckets = [bucket(today - 6 * DAY, 1), bucket(today - DAY, 10), bucket(today, 100), { ...bucket(today, 5), start_time: 'garbage' }];
    assert.deepEqual(summarizeSpend(buckets, now), { today: 100, week: 111, month: 100 });
  });

  it('every bucket of the window counts toward exactly the periods that contain it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1_700_000_000_000, max: 2_000_000_000_000 }), fc.array(fc.integer({ min: 0, max: 1e9 }), { minLength: 37, maxLength: 37 }), (now, amounts) => {
        const window = spendWindow(now);
        const buckets: BillingRecord[] = [];
        for (let start = window.startMs, i = 0; start < window.endMs; start += DAY, i++) buckets.push(bucket(start, amounts[i] ?? 0));
        const summary = summarizeSpend(buckets, now);
        const month = periodOf('month', now);
        const expectedMonth = buckets.filter((b) => (parsePlatformTime(b.start_time) ?? 0) >= month.startMs).reduce((sum, b) => sum + b.billing_coin, 0);
        assert.equal(summary.month, expectedMonth);
        assert.equal(summary.today, buckets.at(-1)?.billing_coin);
        assert.ok(summary.today <= summary.week && summary.today <= summary.month);
      }),
    );
  });
});

describe('burn rate', () => {
  it('adds running nodes × price per offer, and reports tasks whose price is unknown', () => {
    const prices = new Map([[offerKey('RTX 4090 x 1', 'beijing'), 466]]);
    const rate = burnRate([task('Running', 2), task('Paused', 3), task('Pending', 1), task('Running', 1, 'H20 x 8', 'hebei')], (key) => prices.get(key));
    assert.deepEqual(rate, { pointsPerSecond: 932, running: 2, unpriced: 1 });
  });
});
