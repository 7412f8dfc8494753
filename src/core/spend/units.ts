// The one place that converts the platform's money units (docs/ has no separate page; the rules are
// here): billing is per second in points, 1 yuan = 1,000,000 points; region prices
// (`price`, `discount_price`) are points per second per node; `billing_value`, `forecast_value`,
// `billing_coin` and `discount_coin` are points. Everything shown to people is yuan (¥).

export const POINTS_PER_YUAN = 1_000_000;
export const SECONDS_PER_HOUR = 3600;

/** Points → yuan (a float; format it with formatYuan). */
export function pointsToYuan(points: number): number {
  return points / POINTS_PER_YUAN;
}

/** Yuan → whole points (rounded to the nearest point, as the platform counts whole points). */
export function yuanToPoints(yuan: number): number {
  return Math.round(yuan * POINTS_PER_YUAN);
}

/** A per-second price in points (per node) → yuan per hour. 550 points/s = ¥1.98/h. */
export function pointsPerSecondToYuanPerHour(pointsPerSecond: number): number {
  return (pointsPerSecond * SECONDS_PER_HOUR) / POINTS_PER_YUAN;
}

/** Yuan per hour → points per second (rounded: the platform's prices are whole points). */
export function yuanPerHourToPointsPerSecond(yuanPerHour: number): number {
  return Math.round((yuanPerHour * POINTS_PER_YUAN) / SECONDS_PER_HOUR);
}

/** The cost in points of running `nodes` nodes for `seconds` at `pointsPerSecond` each. */
export function costPoints(pointsPerSecond: number, nodes: number, seconds: number): number {
  return pointsPerSecond * nodes * seconds;
}

/** "1,234,567" from a whole, non-negative number given as digits. */
function groupThousands(digits: string): string {
  let out = '';
  for (let index = 0; index < digits.length; index++) {
    if (index > 0 && (digits.length - index) % 3 === 0) out += ',';
    out += digits[index];
  }
  return out;
}

/**
 * A billed amount, always with two decimals (rounded once, here): "¥1.98", "-¥3.00", and "<¥0.01" for a
 * non-zero amount that would round to ¥0.00 (so a small running cost never reads as nothing, and the
 * figure never changes its number of decimals as it grows). Non-finite input reads "¥—".
 */
export function formatYuan(yuan: number): string {
  if (!Number.isFinite(yuan)) return '¥—';
  const sign = yuan < 0 ? '-' : '';
  const magnitude = Math.abs(yuan);
  const fixed = magnitude.toFixed(2);
  if (magnitude > 0 && fixed === '0.00') return yuan < 0 ? '>-¥0.01' : '<¥0.01';
  const [whole = '0', fraction = '00'] = fixed.split('.');
  return `${sign}¥${groupThousands(whole)}.${fraction}`;
}

/**
 * A rate in yuan per hour, exact: a price of whole points per second is a whole number of ten-thousandths
 * of a yuan per hour (× 3,600 / 1,000,000), so "¥1.98/h" when two decimals hold it, else up to four
 * ("¥2.304/h", "¥1.3788/h"): 7 × ¥1.3788/h = ¥9.6516/h reads right, where rounded unit prices would not add up.
 */
export function formatYuanPerHour(yuanPerHour: number): string {
  if (!Number.isFinite(yuanPerHour)) return '¥—/h';
  const tenThousandths = Math.round(Math.abs(yuanPerHour) * 10_000);
  const sign = yuanPerHour < 0 && tenThousandths > 0 ? '-' : '';
  const whole = groupThousands(String(Math.floor(tenThousandths / 10_000)));
  const fraction = String(tenThousandths % 10_000).padStart(4, '0');
  let digits = 4;
  while (digits > 2 && fraction[digits - 1] === '0') digits--;
  return `${sign}¥${whole}.${fraction.slice(0, digits)}/h`;
}

/** Points shown as yuan: 1,980,000 → "¥1.98". */
export function formatPoints(points: number): string {
  return formatYuan(pointsToYuan(points));
}

/** A per-second price in points shown as yuan per hour: 550 → "¥1.98/h". */
export function formatPricePerHour(pointsPerSecond: number): string {
  return formatYuanPerHour(pointsPerSecondToYuanPerHour(pointsPerSecond));
}

/** The price a node is billed at: the discount price when there is one (platform rule). */
export function effectivePointsPerSecond(offer: { price: number | null; discount_price: number | null }): number | null {
  return offer.discount_price ?? offer.price;
}

/**
 * A billing record's amount counted against budgets and shown as spend. Whether `billing_coin` is
 * gross or already net of `discount_coin` is not documented, so spend counts `billing_coin` whole:
 * the reading that can only over-state what was spent, never hide it (budgets trip early, not late).
 */
export function spentPoints(record: { billing_coin: number; discount_coin: number }): number {
  return Math.max(0, record.billing_coin);
}

/** Names the agent tools use (src/core/tools): the same conversions as above. */
export const yuanPerHour = pointsPerSecondToYuanPerHour;
export const yuanFromPoints = pointsToYuan;
