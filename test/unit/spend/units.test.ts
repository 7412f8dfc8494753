import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  costPoints,
  effectivePointsPerSecond,
  formatPoints,
  formatPricePerHour,
  formatYuan,
  pointsPerSecondToYuanPerHour,
  pointsToYuan,
  spentPoints,
  yuanPerHourToPointsPerSecond,
  yuanToPoints,
} from '../../../src/core/spend/units';

describe('money units', () => {
  it('matches the platform examples: 1.98 ¥/h = 550 points/s = 1,980,000 points per hour', () => {
    assert.equal(yuanPerHourToPointsPerSecond(1.98), 550);
    assert.equal(pointsPerSecondToYuanPerHour(550), 1.98);
    assert.equal(costPoints(550, 1, 3600), 1_980_000);
    assert.equal(pointsToYuan(1_980_000), 1.98);
    // 8×H20 at 16416 points/s is ¥59.10/h and a 4090 at 466 points/s ¥1.68/h as the console rounds them
    // (reference examples); shown exact here, so totals of several nodes add up.
    assert.equal(formatPricePerHour(16416), '¥59.0976/h');
    assert.equal(formatPricePerHour(466), '¥1.6776/h');
    // 48 whole 5-minute cycles at 466 points/s is the node list example's billing_value.
    assert.equal(costPoints(466, 1, 48 * 300), 6_710_400);
  });

  it('round-trips yuan and points, and whole points per second through ¥/h', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (points) => {
        assert.equal(yuanToPoints(pointsToYuan(points)), points);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), (pointsPerSecond) => {
        assert.equal(yuanPerHourToPointsPerSecond(pointsPerSecondToYuanPerHour(pointsPerSecond)), pointsPerSecond);
      }),
    );
  });

  it('formats billed amounts with two decimals always, thousands separators, and small non-zero amounts visibly', () => {
    assert.equal(formatYuan(0), '¥0.00');
    assert.equal(formatYuan(1.5), '¥1.50');
    assert.equal(formatYuan(1234567.891), '¥1,234,567.89');
    assert.equal(formatYuan(0.0042), '<¥0.01');
    assert.equal(formatYuan(-3), '-¥3.00');
    assert.equal(formatYuan(Number.NaN), '¥—');
    assert.equal(formatPoints(6_710_400), '¥6.71');
    assert.equal(formatPoints(466), '<¥0.01');
    // A running task's bill as it grows keeps its decimals (never ¥0.00 → ¥0.0055 → ¥0.01).
    const shown = [0, 466, 5_500, 10_000, 123_456].map(formatPoints);
    assert.deepEqual(shown, ['¥0.00', '<¥0.01', '¥0.01', '¥0.01', '¥0.12']);
    for (const text of shown.slice(2)) assert.match(text, /^¥\d+\.\d{2}$/);
  });

  it('formats rates exactly, so a node count times the unit price reads right (rounded once, from points)', () => {
    assert.equal(formatPricePerHour(550), '¥1.98/h');
    assert.equal(formatPricePerHour(383), '¥1.3788/h');
    assert.equal(formatPricePerHour(383 * 7), '¥9.6516/h');
    assert.equal(formatPricePerHour(1_000_000), '¥3,600.00/h');
    assert.equal(formatPricePerHour(640), '¥2.304/h');
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 64 }), (pointsPerSecond, nodes) => {
        const unit = Number(formatPricePerHour(pointsPerSecond).replace(/[¥,/h]/g, ''));
        const total = Number(formatPricePerHour(pointsPerSecond * nodes).replace(/[¥,/h]/g, ''));
        assert.equal(Math.round(unit * nodes * 10_000), Math.round(total * 10_000));
      }),
    );
  });

  it('bills the discount price when there is one, and counts billing_coin whole as spend', () => {
    assert.equal(effectivePointsPerSecond({ price: 500, discount_price: 425 }), 425);
    assert.equal(effectivePointsPerSecond({ price: 500, discount_price: null }), 500);
    assert.equal(effectivePointsPerSecond({ price: null, discount_price: null }), null);
    assert.equal(spentPoints({ billing_coin: 1_677_600, discount_coin: 100_000 }), 1_677_600);
    assert.equal(spentPoints({ billing_coin: -5, discount_coin: 0 }), 0);
  });
});
