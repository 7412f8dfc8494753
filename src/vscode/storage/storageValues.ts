// Pure helpers of the Storage view and its credentials check: sizes as a person reads them, and the
// access and secret key typed into one box. No editor API, tested on plain Node.

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

/** Bytes in binary units, as the platform's console shows them: "384 GB", "1 TB", "5.5 GB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = value >= 100 || Number.isInteger(value) ? Math.round(value).toString() : value.toFixed(1).replace(/\.0$/, '');
  return `${shown} ${UNITS[unit]}`;
}

/** "384 GB / 1 TB (38%)", "0 B / 500 GB (0%)", "5 GB used" without a size; undefined without either. */
export function formatUsage(used: unknown, size: unknown): string | undefined {
  const usedBytes = typeof used === 'number' && Number.isFinite(used) && used >= 0 ? used : undefined;
  const sizeBytes = typeof size === 'number' && Number.isFinite(size) && size > 0 ? size : undefined;
  if (sizeBytes === undefined) return usedBytes === undefined ? undefined : `${formatBytes(usedBytes)} used`;
  const percent = usedBytes === undefined ? undefined : Math.min(100, Math.round((usedBytes / sizeBytes) * 100));
  return `${formatBytes(usedBytes ?? 0)} / ${formatBytes(sizeBytes)}${percent === undefined ? '' : ` (${percent}%)`}`;
}

export type KeyPair = { accessKey: string; secretKey: string };

/**
 * The access key and secret key from one line: "AK SK", "AK:SK", "AK,SK" or two lines. Keys never
 * hold spaces, colons or commas; the secret key may hold "/" and "+". A string is the reason it fails.
 */
export function splitKeyPair(text: string): KeyPair | string {
  const parts = text.trim().split(/[\s:,]+/).filter((part) => part.length > 0);
  if (parts.length === 0) return 'empty';
  if (parts.length === 1) return 'one';
  if (parts.length > 2) return 'many';
  return { accessKey: parts[0]!, secretKey: parts[1]! };
}
