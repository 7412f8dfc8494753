import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { checkBudgets, normalizeThresholds, pruneAnnouncements, type BudgetSettings } from '../../../src/core/spend/budgets';

const YUAN = 1_000_000;
const settings = (overrides: Partial<BudgetSettings> = {}): BudgetSettings => ({ dailyYuan: 100, monthlyYuan: 1000, thresholds: [80, 100], autoPause: false, ...overrides });
// 2026-11-24 12:00 +08:00
const NOON = Date.UTC(2026, 10, 24, 4);

describe('budgets', () => {
  it('warns once per threshold per period, the highest crossed when several are crossed at once', () => {
    const announced = new Set<string>();
    const first = checkBudgets(settings(), { day: 85 * YUAN, month: 85 * YUAN }, NOON, announced);
    assert.deepEqual(first.alerts.map((a) => [a.kind, a.threshold, a.exceeded]), [['day', 80, false]]);
    first.announce.forEach((key) => announced.add(key));
    assert.deepEqual(checkBudgets(settings(), { day: 90 * YUAN, month: 90 * YUAN }, NOON + 60_000, announced).alerts, [], 'no repeat');
    const over = checkBudgets(settings(), { day: 120 * YUAN, month: 120 * YUAN }, NOON + 120_000, announced);
    assert.deepEqual(over.alerts.map((a) => [a.kind, a.threshold, a.exceeded]), [['day', 100, true]]);
    over.announce.forEach((key) => announced.add(key));
    const jump = checkBudgets(settings(), { day: 0, month: 1500 * YUAN }, NOON, announced);
    assert.deepEqual(jump.alerts.map((a) => [a.kind, a.threshold]), [['month', 100]], 'one alert for 80 % and 100 % crossed together');
    assert.equal(jump.announce.length, 2);
  });

  it('warns again in the next day (+08:00), not before', () => {
    const announced = new Set(checkBudgets(settings(), { day: 100 * YUAN, month: 0 }, NOON, new Set()).announce);
    // 23:59:59 +08:00 the same day: still announced.
    const lateSameDay = Date.UTC(2026, 10, 24, 15, 59, 59);
    assert.deepEqual(checkBudgets(settings(), { day: 100 * YUAN, month: 0 }, lateSameDay, announced).alerts, []);
    // 00:00 +08:00 next day: a new period.
    const nextDay = Date.UTC(2026, 10, 24, 16);
    assert.equal(checkBudgets(settings(), { day: 100 * YUAN, month: 0 }, nextDay, announced).alerts.length, 1);
  });

  it('asks for auto-pause only when opted in, only at the limit, once per period', () => {
    assert.equal(checkBudgets(settings(), { day: 200 * YUAN, month: 0 }, NOON, new Set()).pause, false, 'off by default');
    assert.equal(checkBudgets(settings({ autoPause: true }), { day: 99 * YUAN, month: 0 }, NOON, new Set()).pause, false);
    const announced = new Set<string>();
    const first = checkBudgets(settings({ autoPause: true }), { day: 100 * YUAN, month: 0 }, NOON, announced);
    assert.equal(first.pause, true);
    first.announce.forEach((key) => announced.add(key));
    // After the user recovers a task the same day, it is not paused again.
    assert.equal(checkBudgets(settings({ autoPause: true }), { day: 150 * YUAN, month: 0 }, NOON + 3600_000, announced).pause, false);
  });

  it('ignores missing or non-positive limits and cleans thresholds', () => {
    assert.deepEqual(checkBudgets(settings({ dailyYuan: 0, monthlyYuan: undefined }), { day: 1e12, month: 1e12 }, NOON, new Set()).alerts, []);
    assert.deepEqual(normalizeThresholds([100, 'x', 80, 80, -1, Number.NaN, 5000]), [80, 100]);
    assert.deepEqual(normalizeThresholds([]), [80, 100]);
  });

  it('never misses a crossing: after any spend sequence every crossed threshold was announced exactly once', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 30 * YUAN }), { maxLength: 30 }), fc.uniqueArray(fc.integer({ min: 1, max: 150 }), { minLength: 1, maxLength: 4 }), (steps, thresholds) => {
        const announced = new Set<string>();
        let spent = 0;
        let alerts = 0;
        for (const step of steps) {
          spent += step;
          const check = checkBudgets(settings({ thresholds, monthlyYuan: undefined }), { day: spent, month: spent }, NOON, announced);
          alerts += check.alerts.length;
          for (const key of check.announce) {
            assert.ok(!announced.has(key), 'never announced twice');
            announced.add(key);
          }
        }
        const crossed = thresholds.filter((t) => (spent / (100 * YUAN)) * 100 >= t).length;
        assert.equal([...announced].filter((key) => !key.startsWith('pause:')).length, crossed);
        assert.ok(alerts <= crossed);
      }),
    );
  });

  it('prunes announcements of periods that are over', () => {
    const keys = checkBudgets(settings(), { day: 200 * YUAN, month: 2000 * YUAN }, NOON, new Set()).announce;
    assert.equal(pruneAnnouncements(keys, NOON).length, keys.length);
    const nextDay = Date.UTC(2026, 10, 24, 16);
    assert.deepEqual(pruneAnnouncements(keys, nextDay).sort(), keys.filter((key) => key.startsWith('month:')).sort());
  });
});
