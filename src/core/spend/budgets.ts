// Budgets per profile: a daily and a monthly limit in yuan, warnings at thresholds (percent of the
// limit) once per period, and the decision to auto-pause (never stop: stop deletes a task) once per
// period when a limit is reached. Pure: the caller supplies spend, the time and what was already said.

import { POINTS_PER_YUAN } from './units';
import { periodOf, type Period, type PeriodKind } from './periods';

export type BudgetKind = Extract<PeriodKind, 'day' | 'month'>;

export interface BudgetSettings {
  /** Daily limit in yuan; undefined or ≤ 0 = no daily budget. */
  dailyYuan?: number;
  /** Monthly limit in yuan; undefined or ≤ 0 = no monthly budget. */
  monthlyYuan?: number;
  /** Percentages of the limit to warn at, e.g. [80, 100]. */
  thresholds: readonly number[];
  /** Pause the profile's running tasks when a limit is reached (opt-in). */
  autoPause: boolean;
}

export interface BudgetAlert {
  kind: BudgetKind;
  period: Period;
  /** The highest threshold crossed for the first time in this period (percent). */
  threshold: number;
  spentPoints: number;
  limitPoints: number;
  /** spent ≥ limit. */
  exceeded: boolean;
}

export interface BudgetCheck {
  /** At most one alert per budget kind, only for thresholds not yet announced this period. */
  alerts: BudgetAlert[];
  /** Keys to remember as announced (pass them back in `announced` next time). */
  announce: string[];
  /** True when auto-pause is on and a limit was reached for the first time this period. */
  pause: boolean;
}

/** Cleans user-entered thresholds: finite, 1–1000 %, unique, ascending; [80, 100] when none is left. */
export function normalizeThresholds(values: readonly unknown[]): number[] {
  const clean = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 1 && v <= 1000);
  const unique = [...new Set(clean.map((v) => Math.round(v)))].sort((a, b) => a - b);
  return unique.length > 0 ? unique : [80, 100];
}

export function announcementKey(kind: BudgetKind, period: Period, threshold: number): string {
  return `${kind}:${period.key}:${threshold}`;
}

/**
 * Which thresholds are newly crossed. `spent` holds the points spent so far in the current day
 * and month (platform time zone). Crossing 80 % and 100 % in one step gives one alert (100 %)
 * and announces both, so nobody reads two warnings for one event.
 */
export function checkBudgets(
  settings: BudgetSettings,
  spent: { day: number; month: number },
  nowMs: number,
  announced: ReadonlySet<string>,
): BudgetCheck {
  const thresholds = normalizeThresholds(settings.thresholds);
  const limits: [BudgetKind, number | undefined][] = [
    ['day', settings.dailyYuan],
    ['month', settings.monthlyYuan],
  ];
  const alerts: BudgetAlert[] = [];
  const announce: string[] = [];
  let pause = false;
  for (const [kind, limitYuan] of limits) {
    if (limitYuan === undefined || !Number.isFinite(limitYuan) || limitYuan <= 0) continue;
    const period = periodOf(kind, nowMs);
    const limitPoints = limitYuan * POINTS_PER_YUAN;
    const spentPoints = spent[kind];
    const percent = (spentPoints / limitPoints) * 100;
    const crossed = thresholds.filter((t) => percent >= t && !announced.has(announcementKey(kind, period, t)));
    const exceededKey = announcementKey(kind, period, 100);
    const exceeded = spentPoints >= limitPoints;
    if (settings.autoPause && exceeded && !announced.has(`pause:${exceededKey}`)) {
      pause = true;
      announce.push(`pause:${exceededKey}`);
    }
    const highest = crossed.at(-1);
    if (highest === undefined) continue;
    announce.push(...crossed.map((t) => announcementKey(kind, period, t)));
    alerts.push({ kind, period, threshold: highest, spentPoints, limitPoints, exceeded });
  }
  return { alerts, announce, pause };
}

/** Drops announcement keys of periods that are over, so the remembered set stays small. */
export function pruneAnnouncements(keys: Iterable<string>, nowMs: number): string[] {
  const live = new Set([periodOf('day', nowMs).key, periodOf('month', nowMs).key]);
  return [...keys].filter((key) => {
    const periodKey = key.replace(/^pause:/, '').split(':')[1];
    return periodKey !== undefined && live.has(periodKey);
  });
}
