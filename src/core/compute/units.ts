// The platform's money units in one place: billing is in points (1 yuan = 1,000,000 points) and a
// region's `price` / `discount_price` is points per second per node, so ¥/h = points/s × 3600 / 1e6.

export const POINTS_PER_YUAN = 1_000_000;
export const SECONDS_PER_HOUR = 3600;

/** Points per second → yuan per hour. */
export function yuanPerHour(pointsPerSecond: number): number {
  return (pointsPerSecond * SECONDS_PER_HOUR) / POINTS_PER_YUAN;
}

/** Points (billed amounts) → yuan. */
export function yuanFromPoints(points: number): number {
  return points / POINTS_PER_YUAN;
}

/** "¥2.76" (two decimals; amounts under one fen show as "<¥0.01" rather than a misleading ¥0.00). */
export function formatYuan(yuan: number): string {
  if (yuan > 0 && yuan < 0.005) return '<¥0.01';
  return `¥${yuan.toFixed(2)}`;
}
