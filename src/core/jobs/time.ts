// The three time formats job answers use (docs/platform.md "Batch jobs"): RFC 3339 with µs and an
// offset, UTC with Z, and the list's "2026-04-21 09:04:20.500576 +08:00". Returns epoch ms or undefined.

const PATTERN = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?\s?(Z|[+-]\d\d:?\d\d)?$/;

export function parseJobTime(text: string | null | undefined): number | undefined {
  if (typeof text !== 'string' || text.length > 64) return undefined;
  const match = PATTERN.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction = '', zone = 'Z'] = match;
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3));
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
  }
  const utc = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second), ms);
  return Number.isFinite(utc) ? utc - offsetMinutes * 60_000 : undefined;
}
