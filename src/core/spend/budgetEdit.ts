// Editing a profile's budget (Set Budget…): reading an amount typed by a person, writing the
// per-profile entry of `computeToolkit.budgets.perProfile` back without touching the other profiles',
// and how much of a limit is used. Pure: the editor layer asks, shows and saves.

import { POINTS_PER_YUAN } from './units';

/** The largest limit accepted (¥10,000,000): anything above is a typo, not a budget. */
export const MAX_BUDGET_YUAN = 10_000_000;

export type AmountParse = { yuan: number | undefined } | { error: 'notNumber' | 'negative' | 'tooLarge' | 'tooPrecise' };

/**
 * An amount in yuan as typed: "100", "¥1,500.50", "80 元". Empty or 0 means no limit (undefined).
 * At most two decimals (fen), at most MAX_BUDGET_YUAN. Input longer than 40 characters is not a number.
 */
export function parseBudgetAmount(text: string): AmountParse {
  if (text.length > 40) return { error: 'notNumber' };
  const cleaned = text.replace(/[\s,，¥￥元]/g, '');
  if (cleaned === '') return { yuan: undefined };
  if (cleaned.startsWith('-')) return { error: 'negative' };
  if (!/^\d+(?:\.\d*)?$|^\.\d+$/.test(cleaned)) return { error: 'notNumber' };
  const fraction = cleaned.split('.')[1] ?? '';
  if (fraction.replace(/0+$/, '').length > 2) return { error: 'tooPrecise' };
  const yuan = Number(cleaned);
  if (!Number.isFinite(yuan)) return { error: 'notNumber' };
  if (yuan > MAX_BUDGET_YUAN) return { error: 'tooLarge' };
  return { yuan: yuan === 0 ? undefined : yuan };
}

/** Thresholds as typed: "80, 100" → [80, 100]; whole percentages 1–1000, at most 10 of them. */
export function parseThresholdList(text: string): number[] | { error: 'empty' | 'notNumber' | 'range' | 'tooMany' } {
  if (text.length > 200) return { error: 'tooMany' };
  const parts = text
    .split(/[\s,，;、]+/)
    .map((part) => part.replace(/%$/, ''))
    .filter((part) => part !== '');
  if (parts.length === 0) return { error: 'empty' };
  if (parts.length > 10) return { error: 'tooMany' };
  const values: number[] = [];
  for (const part of parts) {
    if (!/^\d{1,4}$/.test(part)) return { error: 'notNumber' };
    const value = Number(part);
    if (value < 1 || value > 1000) return { error: 'range' };
    values.push(value);
  }
  return [...new Set(values)].sort((a, b) => a - b);
}

export interface BudgetEntry {
  dailyYuan?: number;
  monthlyYuan?: number;
  autoPause: boolean;
}

/** The key a profile's entry lives under: its id, or the label a hand-edited entry used. */
export function budgetKeyOf(perProfile: Record<string, unknown>, profile: { id: string; label: string }): string | undefined {
  if (Object.hasOwn(perProfile, profile.id)) return profile.id;
  if (Object.hasOwn(perProfile, profile.label)) return profile.label;
  return undefined;
}

/**
 * The setting's new value with `profile`'s entry replaced by `entry` (removed when `entry` is undefined
 * or sets no limit). Kept under the key the user chose (id or label); a new entry is keyed by id. Removal
 * drops both keys, so a shadowed label entry cannot come back into force. Other profiles' entries stay as
 * they were, whatever they hold.
 */
export function withBudget(perProfile: Record<string, unknown>, profile: { id: string; label: string }, entry: BudgetEntry | undefined): Record<string, unknown> {
  const next: Record<string, unknown> = { ...perProfile };
  const key = budgetKeyOf(perProfile, profile) ?? profile.id;
  const hasLimit = entry !== undefined && (entry.dailyYuan !== undefined || entry.monthlyYuan !== undefined);
  if (!hasLimit) {
    delete next[profile.id];
    delete next[profile.label];
    return next;
  }
  next[key] = {
    ...(entry.dailyYuan !== undefined ? { dailyYuan: entry.dailyYuan } : {}),
    ...(entry.monthlyYuan !== undefined ? { monthlyYuan: entry.monthlyYuan } : {}),
    autoPause: entry.autoPause,
  };
  return next;
}

/** Whole percent of a limit spent (floor, so 99.6 % never reads as 100 % before the limit is reached). */
export function percentUsed(spentPoints: number, limitYuan: number): number {
  if (!(limitYuan > 0) || !Number.isFinite(spentPoints)) return 0;
  return Math.floor((Math.max(0, spentPoints) / (limitYuan * POINTS_PER_YUAN)) * 100);
}
