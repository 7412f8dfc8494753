// Budget and billing periods in the platform's time zone. The platform speaks +08:00 (China has no
// daylight saving time), so "today" and "this month" start at 00:00 +08:00 wherever the user's
// machine is. Everything here is plain arithmetic on epoch milliseconds and a fixed offset: the
// host's time zone never enters.

export type PeriodKind = 'day' | 'week' | 'month';

/** The platform's UTC offset, in minutes (+08:00). */
export const PLATFORM_OFFSET_MINUTES = 480;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export interface Period {
  kind: PeriodKind;
  /** First instant of the period (inclusive), epoch ms. */
  startMs: number;
  /** First instant of the next period (exclusive), epoch ms. */
  endMs: number;
  /** Stable name: day "2026-11-24", week "2026-11-23/w" (named by its Monday), month "2026-11". */
  key: string;
}

/** Calendar fields of an instant as seen at a fixed UTC offset. */
function wallFields(instantMs: number, offsetMinutes: number): { year: number; month: number; day: number; weekday: number } {
  const shifted = new Date(instantMs + offsetMinutes * MINUTE_MS);
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth(),
    day: shifted.getUTCDate(),
    // 0 = Monday … 6 = Sunday (ISO weeks start on Monday, as the platform's console does).
    weekday: (shifted.getUTCDay() + 6) % 7,
  };
}

/** Epoch ms of 00:00 on the given wall date at the offset. */
function wallMidnight(year: number, month: number, day: number, offsetMinutes: number): number {
  return Date.UTC(year, month, day) - offsetMinutes * MINUTE_MS;
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

/** The period of `kind` that contains `instantMs`. */
export function periodOf(kind: PeriodKind, instantMs: number, offsetMinutes = PLATFORM_OFFSET_MINUTES): Period {
  if (!Number.isFinite(instantMs)) throw new RangeError('periodOf needs a finite instant');
  const { year, month, day, weekday } = wallFields(instantMs, offsetMinutes);
  switch (kind) {
    case 'day': {
      const startMs = wallMidnight(year, month, day, offsetMinutes);
      return { kind, startMs, endMs: wallMidnight(year, month, day + 1, offsetMinutes), key: `${year}-${pad(month + 1)}-${pad(day)}` };
    }
    case 'week': {
      const startMs = wallMidnight(year, month, day - weekday, offsetMinutes);
      const monday = wallFields(startMs, offsetMinutes);
      return {
        kind,
        startMs,
        endMs: startMs + 7 * DAY_MS,
        key: `${monday.year}-${pad(monday.month + 1)}-${pad(monday.day)}/w`,
      };
    }
    case 'month': {
      const startMs = wallMidnight(year, month, 1, offsetMinutes);
      return { kind, startMs, endMs: wallMidnight(year, month + 1, 1, offsetMinutes), key: `${year}-${pad(month + 1)}` };
    }
  }
}

/** The period right after `period`. */
export function nextPeriod(period: Period, offsetMinutes = PLATFORM_OFFSET_MINUTES): Period {
  return periodOf(period.kind, period.endMs, offsetMinutes);
}

/** RFC 3339 with the platform offset and whole seconds, as the billing queries take: 2026-01-01T00:00:00+08:00. */
export function formatPlatformTime(instantMs: number, offsetMinutes = PLATFORM_OFFSET_MINUTES): string {
  const shifted = new Date(Math.floor(instantMs / 1000) * 1000 + offsetMinutes * MINUTE_MS);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const iso = shifted.toISOString().slice(0, 19);
  return `${iso}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

const TIME_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))? ?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * Parses the time formats the platform sends (RFC 3339 with an offset or Z, optionally with
 * fractions, and the job list's "2026-04-21 09:04:20.500576 +08:00"). Undefined for anything else,
 * including a time without an offset (its zone would be a guess). Input longer than 64 characters
 * is refused before matching.
 */
export function parsePlatformTime(text: string): number | undefined {
  if (text.length > 64) return undefined;
  const match = TIME_PATTERN.exec(text.trim());
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, fraction, zone] = match;
  const fields = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  const [year, month, day, hour, minute, second] = fields;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
  let offset = 0;
  if (zone && zone !== 'Z') {
    const digits = zone.replace(':', '');
    offset = (digits.startsWith('-') ? -1 : 1) * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)));
  }
  const ms = fraction ? Math.floor(Number(`0.${fraction}`) * 1000) : 0;
  return Date.UTC(year, month - 1, day, hour, minute, second, ms) - offset * MINUTE_MS;
}
