// Spend summaries from the billing records, and the burn rate of running tasks. One billing
// request (daily buckets from the earlier of this week's and this month's start until now)
// answers today, this week and this month. Amounts stay in points until they are shown.

import type { BillingRecord, TaskSummary } from '../compute/api';
import { spentPoints } from './units';
import { formatPlatformTime, parsePlatformTime, periodOf } from './periods';

export interface SpendWindow {
  /** The billing query that covers today, this week and this month. */
  query: { range: 'day'; start_time: string; end_time: string; page_size: number };
  startMs: number;
  endMs: number;
}

/** The query for the spend summary at `nowMs` (+08:00 periods; at most 37 daily buckets). */
export function spendWindow(nowMs: number): SpendWindow {
  const startMs = Math.min(periodOf('week', nowMs).startMs, periodOf('month', nowMs).startMs);
  const endMs = periodOf('day', nowMs).endMs;
  return { query: { range: 'day', start_time: formatPlatformTime(startMs), end_time: formatPlatformTime(endMs), page_size: 100 }, startMs, endMs };
}

export interface SpendSummary {
  today: number;
  week: number;
  month: number;
}

/** Sums the daily buckets into today / this week / this month (points). Buckets it cannot date are skipped. */
export function summarizeSpend(buckets: readonly BillingRecord[], nowMs: number): SpendSummary {
  const day = periodOf('day', nowMs);
  const week = periodOf('week', nowMs);
  const month = periodOf('month', nowMs);
  const summary: SpendSummary = { today: 0, week: 0, month: 0 };
  for (const bucket of buckets) {
    const start = parsePlatformTime(String(bucket.start_time));
    if (start === undefined) continue;
    const points = spentPoints(bucket);
    if (start >= day.startMs && start < day.endMs) summary.today += points;
    if (start >= week.startMs && start < week.endMs) summary.week += points;
    if (start >= month.startMs && start < month.endMs) summary.month += points;
  }
  return summary;
}

/** Where a task runs, as the price lookup needs it. */
export function offerKey(deviceName: string, region: string): string {
  return `${deviceName}\u0000${region}`;
}

/**
 * Points per second that the running tasks cost now: per task, its running nodes times the price of
 * its first resource's offer (unknown prices count as 0 and are reported, never guessed).
 */
export function burnRate(
  tasks: readonly TaskSummary[],
  priceOf: (key: string) => number | undefined,
): { pointsPerSecond: number; running: number; unpriced: number } {
  let pointsPerSecond = 0;
  let running = 0;
  let unpriced = 0;
  for (const task of tasks) {
    if (task.status !== 'Running') continue;
    running++;
    const resource = task.resources?.[0]?.resource;
    const price = resource ? priceOf(offerKey(resource.device_name, resource.region)) : undefined;
    if (price === undefined) {
      unpriced++;
      continue;
    }
    const nodes = Number.isFinite(task.runing_points) ? Math.max(0, task.runing_points) : 0;
    pointsPerSecond += nodes * price;
  }
  return { pointsPerSecond, running, unpriced };
}
