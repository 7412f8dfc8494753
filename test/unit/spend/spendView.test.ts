import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BillingRecord, TaskBillingRecord } from '../../../src/core/compute/api';
import { formatPlatformTime } from '../../../src/core/spend/periods';
import { parseSpendWebviewMessage, type SpendChartData } from '../../../src/shared/spendProtocol';
import { axis, rangeWindow, spendViewData } from '../../../src/vscode/spend/spendViewModel';
import { budgetFor } from '../../../src/vscode/spend/budgetSettings';
import { renderSpendChart, renderSpendTable, renderLegend } from '../../../src/webview/spend/chart';
import { assertLinearTime } from '../../helpers/linearTime';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 24, 4); // 2026-11-24 12:00 +08:00
const YUAN = 1_000_000;

const bucket = (start: number, points: number): BillingRecord => ({ billing_coin: points, discount_coin: 0, start_time: formatPlatformTime(start), end_time: formatPlatformTime(start + DAY) });

describe('spend view model', () => {
  it('stacks the top tasks and puts the rest in Other, per +08:00 day', () => {
    const window = rangeWindow(7, NOW);
    assert.equal(window.query.start_time, '2026-11-18T00:00:00+08:00');
    assert.equal(window.query.end_time, '2026-11-25T00:00:00+08:00');
    const totals = [bucket(window.startMs, 10 * YUAN), bucket(window.startMs + 6 * DAY, 4 * YUAN)];
    const perTask: TaskBillingRecord[] = [
      { task_id: 2, task_type: 'Deployment', task_name: '<b>big</b>', billing_coin: 8 * YUAN, discount_coin: 0 },
      { task_id: 3, task_type: null, task_name: null, billing_coin: 1 * YUAN, discount_coin: 0 },
    ];
    const data = spendViewData({
      profileLabel: 'sandbox',
      rangeDays: 7,
      nowMs: NOW,
      window,
      totals,
      perTask,
      topTaskBuckets: new Map([
        [2, [bucket(window.startMs, 8 * YUAN)]],
        [3, [bucket(window.startMs + 6 * DAY, 1 * YUAN)]],
      ]),
      summary: { today: 4 * YUAN, week: 14 * YUAN, month: 40 * YUAN },
      burnPointsPerSecond: 466,
      otherLabel: 'Other',
      unnamedLabel: (id) => `Task ${id}`,
      typeLabel: (type) => (type === null ? '' : `type ${type}`),
    });
    assert.deepEqual(data.chart.days, ['11-18', '11-19', '11-20', '11-21', '11-22', '11-23', '11-24']);
    assert.deepEqual(data.chart.series.map((s) => s.label), ['<b>big</b>', 'Task 3', 'Other']);
    assert.deepEqual(data.chart.series[2]?.values, [2, 0, 0, 0, 0, 0, 3]);
    assert.equal(data.chart.dayTotals[0], '¥10.00');
    assert.deepEqual(data.summary, { today: '¥4.00', week: '¥14.00', month: '¥40.00', burnRate: '¥1.6776/h' });
    assert.equal(data.chart.max, 10);
    assert.deepEqual(data.tasks.map((t) => t.amount), ['¥8.00', '¥1.00']);
    assert.deepEqual(data.tasks.map((t) => t.type), ['type Deployment', ''], 'task types are worded by the host');
  });

  it('picks a round axis', () => {
    assert.deepEqual(axis(7.3), { max: 8, ticks: [0, 2, 4, 6, 8] });
    assert.equal(axis(0.0042).max, 0.006);
    assert.equal(axis(0).max, 1);
  });
});

describe('spend chart markup', () => {
  const chart = (series: number, days: number, label = (i: number) => `task ${i}`): SpendChartData => ({
    days: Array.from({ length: days }, (_, d) => `11-${String(d).padStart(2, '0')}`),
    series: Array.from({ length: series }, (_, s) => ({ label: label(s), values: Array.from({ length: days }, (_, d) => ((s + d) % 5) + 1), labels: Array.from({ length: days }, () => '¥1.00') })),
    dayTotals: Array.from({ length: days }, () => '¥9.00'),
    ticks: [{ value: 0, label: '¥0.00' }, { value: 10, label: '¥10.00' }],
    max: 10,
  });

  it('escapes server text everywhere it appears', () => {
    const hostile = chart(2, 3, () => '<img src=x onerror=alert(1)>"\'&');
    const markup = renderSpendChart(hostile) + renderLegend(hostile) + renderSpendTable(hostile, 'c', 't');
    assert.ok(!markup.includes('<img'), 'no raw tag');
    assert.match(markup, /&lt;img src=x onerror=alert\(1\)&gt;&quot;&#39;&amp;/);
  });

  it('draws one rect per non-zero value, hides the SVG from screen readers and gives them a table', () => {
    const markup = renderSpendChart(chart(3, 4));
    assert.equal((markup.match(/<rect /g) ?? []).length, 12);
    assert.match(markup, /aria-hidden="true"/);
    assert.doesNotMatch(markup, /style=/, 'no inline styles (CSP)');
    const table = renderSpendTable(chart(3, 4), 'Spend by day', 'Total');
    assert.equal((table.match(/<tr>/g) ?? []).length, 5);
    assert.match(table, /<caption>Spend by day<\/caption>/);
  });

  it('renders in time linear in days × series (36× the cells: 6× the days, 6× the series)', () => {
    const side = (k: number) => Math.round(Math.sqrt(k));
    assertLinearTime('renderSpendChart', (k) => chart(10 * side(k), 45 * side(k)), (data) => renderSpendChart(data), { n: 1, factor: 36 });
  });

  it('accepts only well-formed messages from the webview', () => {
    assert.deepEqual(parseSpendWebviewMessage({ type: 'spend/range', days: 90 }), { type: 'spend/range', days: 90 });
    assert.equal(parseSpendWebviewMessage({ type: 'spend/range', days: 91 }), undefined);
    assert.equal(parseSpendWebviewMessage({ type: 'command', id: 'x' }), undefined);
    assert.equal(parseSpendWebviewMessage('spend/ready'), undefined);
  });
});

describe('budget settings', () => {
  it('reads a profile budget by id or label, and treats malformed entries as none', () => {
    const profile = { id: 'sandbox-abc12', label: 'Sandbox' };
    assert.deepEqual(budgetFor(profile, { 'sandbox-abc12': { dailyYuan: 50, autoPause: true } }, [90]), { dailyYuan: 50, thresholds: [90], autoPause: true });
    assert.deepEqual(budgetFor(profile, { Sandbox: { monthlyYuan: 500 } }, []), { monthlyYuan: 500, thresholds: [80, 100], autoPause: false });
    assert.equal(budgetFor(profile, { Sandbox: { dailyYuan: '50' } }, []), undefined);
    assert.equal(budgetFor(profile, { Sandbox: { dailyYuan: 0 } }, []), undefined);
    assert.equal(budgetFor(profile, { Sandbox: [] }, []), undefined);
    assert.equal(budgetFor(profile, {}, []), undefined);
  });
});
