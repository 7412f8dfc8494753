// Turns billing records into what the Spend view draws: days in +08:00, a stacked series per top
// task plus "Other", axis ticks, and every amount formatted once here with the units module.
// Pure (no editor API), so it is tested on plain Node.

import type { BillingRecord, TaskBillingRecord } from '../../core/compute/api';
import { formatPoints, formatYuanPerHour, pointsPerSecondToYuanPerHour, pointsToYuan, spentPoints } from '../../core/spend/units';
import { formatPlatformTime, parsePlatformTime, periodOf } from '../../core/spend/periods';
import type { SpendSummary } from '../../core/spend/spend';
import type { SpendChartData, SpendRangeDays, SpendViewData } from '../../shared/spendProtocol';

const DAY_MS = 86_400_000;
/** Tasks drawn as their own series; the rest is "Other". */
export const TOP_TASKS = 5;

export interface SpendRangeWindow {
  startMs: number;
  endMs: number;
  query: { range: 'day'; start_time: string; end_time: string; page_size: number };
}

/** The last `days` whole +08:00 days, today included. */
export function rangeWindow(days: SpendRangeDays, nowMs: number): SpendRangeWindow {
  const today = periodOf('day', nowMs);
  const startMs = today.startMs - (days - 1) * DAY_MS;
  return { startMs, endMs: today.endMs, query: { range: 'day', start_time: formatPlatformTime(startMs), end_time: formatPlatformTime(today.endMs), page_size: 100 } };
}

/** Points per day index of the window (buckets it cannot place are dropped). */
export function dailyPoints(buckets: readonly BillingRecord[], window: SpendRangeWindow, days: number): number[] {
  const values = new Array<number>(days).fill(0);
  for (const bucket of buckets) {
    const start = parsePlatformTime(String(bucket.start_time));
    if (start === undefined) continue;
    const index = Math.floor((start - window.startMs) / DAY_MS);
    if (index >= 0 && index < days) values[index] = (values[index] ?? 0) + spentPoints(bucket);
  }
  return values;
}

/** A round axis top and four ticks: 1, 2 or 5 × 10^k steps. */
export function axis(maxYuan: number): { max: number; ticks: number[] } {
  if (!(maxYuan > 0)) return { max: 1, ticks: [0, 0.25, 0.5, 0.75, 1] };
  const rough = maxYuan / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= rough) ?? 10 * power;
  const max = step * Math.ceil(maxYuan / step);
  const ticks: number[] = [];
  for (let value = 0; value <= max + step / 2; value += step) ticks.push(Number(value.toPrecision(12)));
  return { max, ticks };
}

export interface SpendInputs {
  profileLabel: string;
  rangeDays: SpendRangeDays;
  nowMs: number;
  window: SpendRangeWindow;
  totals: readonly BillingRecord[];
  perTask: readonly TaskBillingRecord[];
  /** Daily buckets of the top tasks (billing by time with task_ids), by task id. */
  topTaskBuckets: ReadonlyMap<number, readonly BillingRecord[]>;
  summary: SpendSummary;
  burnPointsPerSecond: number;
  otherLabel: string;
  unnamedLabel: (taskId: number) => string;
  /** A task type in words ("Deployment" is the elastic deployment service); '' when the platform gives none. */
  typeLabel: (type: string | null) => string;
}

export function spendViewData(inputs: SpendInputs): Omit<SpendViewData, 'labels' | 'budget' | 'rentals' | 'rentalsNote'> {
  const days = inputs.rangeDays;
  const totals = dailyPoints(inputs.totals, inputs.window, days);
  const top = [...inputs.perTask].sort((a, b) => b.billing_coin - a.billing_coin).slice(0, TOP_TASKS);
  const series: { label: string; points: number[] }[] = [];
  const covered = new Array<number>(days).fill(0);
  for (const task of top) {
    const points = dailyPoints(inputs.topTaskBuckets.get(task.task_id) ?? [], inputs.window, days);
    points.forEach((value, index) => (covered[index] = (covered[index] ?? 0) + value));
    series.push({ label: task.task_name ?? inputs.unnamedLabel(task.task_id), points });
  }
  const other = totals.map((total, index) => Math.max(0, total - (covered[index] ?? 0)));
  if (other.some((value) => value > 0)) series.push({ label: inputs.otherLabel, points: other });
  const dayTotals = totals.map((total, index) => Math.max(total, covered[index] ?? 0));
  const { max, ticks } = axis(pointsToYuan(Math.max(0, ...dayTotals)));
  const chart: SpendChartData = {
    days: Array.from({ length: days }, (_, index) => formatPlatformTime(inputs.window.startMs + index * DAY_MS).slice(5, 10)),
    series: series.map((entry) => ({ label: entry.label, values: entry.points.map(pointsToYuan), labels: entry.points.map(formatPoints) })),
    dayTotals: dayTotals.map(formatPoints),
    ticks: ticks.map((value) => ({ value, label: formatPoints(value * 1_000_000) })),
    max,
  };
  return {
    profileLabel: inputs.profileLabel,
    rangeDays: days,
    summary: {
      today: formatPoints(inputs.summary.today),
      week: formatPoints(inputs.summary.week),
      month: formatPoints(inputs.summary.month),
      burnRate: formatYuanPerHour(pointsPerSecondToYuanPerHour(inputs.burnPointsPerSecond)),
    },
    chart,
    tasks: [...inputs.perTask]
      .sort((a, b) => b.billing_coin - a.billing_coin)
      .map((task) => ({ id: task.task_id, name: task.task_name ?? inputs.unnamedLabel(task.task_id), type: inputs.typeLabel(task.task_type), amount: formatPoints(spentPoints(task)) })),
    asOf: formatPlatformTime(inputs.nowMs),
  };
}
