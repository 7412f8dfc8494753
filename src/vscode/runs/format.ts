// Small display helpers of the runs (Run on GPU, a machine run, a group run).

/** 1536 → "1.5 KB" (decimal units as file managers show them). */
export function formatBytesShort(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = -1;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(value >= 10 ? 0 : 1)} ${units[unit]}`;
}
