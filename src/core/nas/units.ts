// NAS units (docs/nas.md): sizes are bytes and show as GiB (bytes / 1,073,741,824); `used_size` −1 means
// "not queryable" and is never shown as 0 nor used for a ratio; `display_unit_price` is yuan per GB per
// month (a decimal string; the platform writes a user's "10GB" as 10 GiB); `unit_price` is 积分 per GB
// per 10 minutes and is not converted with the compute rule.

export const BYTES_PER_GIB = 1024 ** 3;

export function bytesToGiB(bytes: number): number {
  return bytes / BYTES_PER_GIB;
}

export function gibToBytes(gib: number): number {
  return Math.round(gib * BYTES_PER_GIB);
}

/** `used_size` as a number of bytes, or undefined when the platform cannot say (−1 or garbage). */
export function knownUsedBytes(usedSize: number): number | undefined {
  return Number.isFinite(usedSize) && usedSize >= 0 ? usedSize : undefined;
}

/** Yuan per month for `totalBytes` at `displayUnitPrice` yuan/GB/month; undefined when the price is not a number. */
export function monthlyPriceYuan(totalBytes: number, displayUnitPrice: string): number | undefined {
  if (!/^\d+(?:\.\d+)?$/.test(displayUnitPrice.trim())) return undefined;
  return bytesToGiB(totalBytes) * Number(displayUnitPrice);
}

/** GiB with at most two decimals, trailing zeros dropped ("50", "1.5", "0.01"). */
export function formatGiB(bytes: number): string {
  const gib = bytesToGiB(bytes);
  const rounded = gib >= 100 ? Math.round(gib) : Math.round(gib * 100) / 100;
  return String(rounded);
}

/** Yuan with two decimals. */
export function formatYuan(yuan: number): string {
  return yuan.toFixed(2);
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** A short human size: "512 B", "1.5 MiB", "3.20 GiB". */
export function formatBytes(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const text = unit === 0 ? String(Math.round(value)) : value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
  return `${text} ${BYTE_UNITS[unit]}`;
}

const NAS_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const BEIJING_OFFSET_MS = 8 * 3600 * 1000;

/**
 * `yyyy-MM-dd HH:mm:ss` (no zone in the docs; read as Beijing time, UTC+8, as the console shows) to
 * epoch ms; undefined when malformed.
 */
export function parseNasTime(text: string | null | undefined): number | undefined {
  const match = NAS_TIME.exec(text ?? '');
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  const ms = Date.UTC(y as number, (mo as number) - 1, d, h, mi, s) - BEIJING_OFFSET_MS;
  return Number.isFinite(ms) ? ms : undefined;
}
