// A profile's budget from `computeToolkit.budgets.perProfile` (keyed by profile id or label; the
// id wins) and `computeToolkit.budgets.thresholds`. Settings can be hand-edited: anything malformed
// reads as "no budget", never as a budget of 0.

import { normalizeThresholds, type BudgetSettings } from '../../core/spend/budgets';
import type { Profile } from '../services';

export function budgetFor(profile: Pick<Profile, 'id' | 'label'>, perProfile: Record<string, unknown>, thresholds: readonly unknown[]): BudgetSettings | undefined {
  const entry = perProfile[profile.id] ?? perProfile[profile.label];
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return undefined;
  const record = entry as Record<string, unknown>;
  const limit = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined);
  const dailyYuan = limit(record.dailyYuan);
  const monthlyYuan = limit(record.monthlyYuan);
  if (dailyYuan === undefined && monthlyYuan === undefined) return undefined;
  return {
    ...(dailyYuan !== undefined ? { dailyYuan } : {}),
    ...(monthlyYuan !== undefined ? { monthlyYuan } : {}),
    thresholds: normalizeThresholds(thresholds),
    autoPause: record.autoPause === true,
  };
}
