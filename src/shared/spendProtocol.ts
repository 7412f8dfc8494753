// The Spend view's messages between the extension host and its webview ('area/verb'). Amounts
// arrive already converted and formatted by the host (the webview does no money arithmetic):
// numbers in yuan for bar geometry, strings for everything a person reads.

/** Spend windows the view offers, in days. */
export const SPEND_RANGES = [7, 30, 90] as const;
export type SpendRangeDays = (typeof SPEND_RANGES)[number];

export interface SpendSeries {
  /** Task name (server text: the webview escapes it) or "Other". */
  label: string;
  /** Yuan per day, one per `days` entry. */
  values: number[];
  /** The same amounts formatted ("¥1.68"), for the table. */
  labels: string[];
}

export interface SpendChartData {
  /** "MM-DD" per day, oldest first. */
  days: string[];
  /** Stacked series, largest first. */
  series: SpendSeries[];
  /** Formatted daily totals, one per day ("¥12.40"). */
  dayTotals: string[];
  /** Axis ticks (yuan value and its label). */
  ticks: { value: number; label: string }[];
  /** Top of the axis, yuan. */
  max: number;
}

/** Every text the Spend page shows besides data, translated by the host. */
export const SPEND_LABELS = [
  'title', 'today', 'week', 'month', 'burnRate', 'refresh', 'byDay', 'byTask', 'task', 'type', 'amount', 'total', 'days', 'asOf', 'empty',
  'budget', 'setBudget', 'editBudget', 'noBudget', 'todayLag',
  'rentals', 'machine', 'rentalEnds', 'timeLeft', 'autoRenew', 'endingSoon',
] as const;
export type SpendLabel = (typeof SPEND_LABELS)[number];

/** A rented bare-metal machine's rental: when it ends and what renewing costs (every text formatted by the host). */
export interface SpendRentalRow {
  /** "Machine 9001 · 8 × NVIDIA A100" (server text made safe by the host; the webview escapes it). */
  machine: string;
  /** The end as a date and time, or the status while Waiting (no window yet). */
  ends: string;
  /** "3 h 5 min", "ended", or '' while Waiting. */
  timeLeft: string;
  /** "Off", or the pack and the price of one renewal ("Day pack · ¥129.60 per renewal"). */
  autoRenew: string;
  /** Within the warning window of `computeToolkit.machines.warnBeforeEndMinutes` and not renewed by itself. */
  endingSoon: boolean;
}

export interface SpendViewData {
  labels: Record<SpendLabel, string>;
  profileLabel: string;
  rangeDays: SpendRangeDays;
  summary: { today: string; week: string; month: string; burnRate: string };
  chart: SpendChartData;
  /** Per task over the window, largest first: formatted amounts. */
  tasks: { id: number; name: string; type: string; amount: string }[];
  /** When the figures were fetched, for the footer ("posted every 5 minutes"). */
  asOf: string;
  /** The profile's budget beside its spend, one line each ("Daily budget: ¥12.40 of ¥100.00 (12%)"); empty: none set. */
  budget: string[];
  /** The active profile's rented machines, soonest end first; empty: none (the section is left out). */
  rentals: SpendRentalRow[];
  /** When the rental-end warning comes (the setting's value), shown under the rentals. */
  rentalsNote: string;
}

/** The rented machines' part of the page, as the machines area sends it. */
export type SpendRentals = Pick<SpendViewData, 'rentals' | 'rentalsNote'>;

export type SpendHostMessage =
  | { type: 'spend/loading'; rangeDays: SpendRangeDays }
  | { type: 'spend/data'; data: SpendViewData }
  | { type: 'spend/error'; message: string };

export type SpendWebviewMessage = { type: 'spend/ready' } | { type: 'spend/refresh' } | { type: 'spend/setBudget' } | { type: 'spend/range'; days: SpendRangeDays };

/** Runtime check of a message from the webview (never trusted as typed). */
export function parseSpendWebviewMessage(value: unknown): SpendWebviewMessage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const message = value as Record<string, unknown>;
  if (message.type === 'spend/ready' || message.type === 'spend/refresh' || message.type === 'spend/setBudget') return { type: message.type };
  if (message.type === 'spend/range' && (SPEND_RANGES as readonly unknown[]).includes(message.days)) {
    return { type: 'spend/range', days: message.days as SpendRangeDays };
  }
  return undefined;
}
