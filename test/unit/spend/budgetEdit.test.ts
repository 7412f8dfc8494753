// Set Budget…'s logic (src/core/spend/budgetEdit.ts): amounts as people type them, thresholds, the
// per-profile entry written back without touching other profiles, and the percent of a limit used.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_BUDGET_YUAN, parseBudgetAmount, parseThresholdList, percentUsed, withBudget } from '../../../src/core/spend/budgetEdit';

describe('budget amounts as typed', () => {
  it('reads yuan with a currency sign, grouping and spaces; empty and 0 mean no limit', () => {
    assert.deepEqual(parseBudgetAmount('100'), { yuan: 100 });
    assert.deepEqual(parseBudgetAmount(' ¥1,500.50 '), { yuan: 1500.5 });
    assert.deepEqual(parseBudgetAmount('80 元'), { yuan: 80 });
    assert.deepEqual(parseBudgetAmount('.5'), { yuan: 0.5 });
    assert.deepEqual(parseBudgetAmount('12.10'), { yuan: 12.1 });
    assert.deepEqual(parseBudgetAmount(''), { yuan: undefined });
    assert.deepEqual(parseBudgetAmount('0'), { yuan: undefined });
    assert.deepEqual(parseBudgetAmount('0.00'), { yuan: undefined });
  });

  it('refuses what is not an amount, negative, finer than a fen or absurdly large', () => {
    assert.deepEqual(parseBudgetAmount('abc'), { error: 'notNumber' });
    assert.deepEqual(parseBudgetAmount('1e3'), { error: 'notNumber' });
    assert.deepEqual(parseBudgetAmount('1.2.3'), { error: 'notNumber' });
    assert.deepEqual(parseBudgetAmount('-5'), { error: 'negative' });
    assert.deepEqual(parseBudgetAmount('1.234'), { error: 'tooPrecise' });
    assert.deepEqual(parseBudgetAmount(String(MAX_BUDGET_YUAN + 1)), { error: 'tooLarge' });
    assert.deepEqual(parseBudgetAmount('9'.repeat(41)), { error: 'notNumber' });
  });
});

describe('warning thresholds as typed', () => {
  it('reads whole percentages, sorted and unique', () => {
    assert.deepEqual(parseThresholdList('100, 80'), [80, 100]);
    assert.deepEqual(parseThresholdList('50% 80%，100 100'), [50, 80, 100]);
  });
  it('refuses empty, out of range, fractions and too many', () => {
    assert.deepEqual(parseThresholdList(' , '), { error: 'empty' });
    assert.deepEqual(parseThresholdList('0, 80'), { error: 'range' });
    assert.deepEqual(parseThresholdList('1001'), { error: 'range' });
    assert.deepEqual(parseThresholdList('80.5'), { error: 'notNumber' });
    assert.deepEqual(parseThresholdList(Array.from({ length: 11 }, (_, i) => String(i + 1)).join(',')), { error: 'tooMany' });
  });
});

describe('writing a profile\'s budget back', () => {
  const profile = { id: 'p-1', label: 'work' };
  const other = { dailyYuan: 5, autoPause: true, note: 'hand-written' };

  it('adds a new entry under the id and leaves other profiles as they were', () => {
    const next = withBudget({ 'p-2': other }, profile, { dailyYuan: 50, autoPause: false });
    assert.deepEqual(next, { 'p-2': other, 'p-1': { dailyYuan: 50, autoPause: false } });
  });

  it('keeps a hand-written entry under the label where the user put it', () => {
    const next = withBudget({ work: { monthlyYuan: 900, autoPause: false } }, profile, { monthlyYuan: 1000, autoPause: true });
    assert.deepEqual(next, { work: { monthlyYuan: 1000, autoPause: true } });
  });

  it('removes both keys, so a shadowed label entry does not come back into force', () => {
    const next = withBudget({ 'p-1': { dailyYuan: 1, autoPause: false }, work: { dailyYuan: 2, autoPause: true }, 'p-2': other }, profile, undefined);
    assert.deepEqual(next, { 'p-2': other });
  });

  it('an entry without any limit is removed (auto-pause alone means nothing)', () => {
    assert.deepEqual(withBudget({ 'p-1': { dailyYuan: 1, autoPause: true } }, profile, { autoPause: true }), {});
  });

  it('does not change the object it was given', () => {
    const given = { 'p-1': { dailyYuan: 1, autoPause: false } };
    withBudget(given, profile, { dailyYuan: 3, autoPause: false });
    assert.deepEqual(given, { 'p-1': { dailyYuan: 1, autoPause: false } });
  });
});

describe('percent of a limit used', () => {
  it('floors, so it reads 100 % only once the limit is reached', () => {
    assert.equal(percentUsed(12_400_000, 100), 12);
    assert.equal(percentUsed(99_999_999, 100), 99);
    assert.equal(percentUsed(100_000_000, 100), 100);
    assert.equal(percentUsed(250_000_000, 100), 250);
    assert.equal(percentUsed(5, 0), 0);
    assert.equal(percentUsed(-5, 10), 0);
  });
});
