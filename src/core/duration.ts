// The one way a length of time reads (docs/localization.md "Durations"): "42 s", "3 min 05 s",
// "1 h", "2 d 3 h". Its words are core message keys (errors/messages.ts), so the editor words them in
// the display language (vscode/ui/duration.ts) and the agent tools and the log read the English.
import { coreText, englishText, type CoreText } from './errors/messages';

export interface DurationShape {
  /** The smallest unit shown: seconds (time spent, a transfer's time left) or minutes (a countdown). Default: second. */
  readonly precision?: 'second' | 'minute';
  /** How a part of that unit rounds: down for time spent, up for time left (never "0" before it is over). Default: down. */
  readonly round?: 'down' | 'up' | 'nearest';
}

/** Beyond this a duration reads "over 9999 d" (an absurd number from a server never grows the text). */
export const MAX_DURATION_DAYS = 9999;

const ROUNDING = { down: Math.floor, up: Math.ceil, nearest: Math.round } as const;

/**
 * `seconds` as words in no language yet: the two largest units, the second one padded ("1 h 05 min"),
 * dropped when zero ("1 h"). A negative amount reads as zero; NaN, Infinity or a non-number from a
 * server reads "unknown"; under a minute at minute precision reads "< 1 min".
 */
export function duration(seconds: number, shape: DurationShape = {}): CoreText {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return coreText('duration.unknown');
  if (seconds >= (MAX_DURATION_DAYS + 1) * 86_400) return coreText('duration.over', MAX_DURATION_DAYS);
  const unit = shape.precision === 'minute' ? 60 : 1;
  if (unit === 60 && seconds < 60) return coreText('duration.underMinute');
  const total = Math.max(0, ROUNDING[shape.round ?? 'down'](seconds / unit)) * unit;
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  if (days > 0) return hours > 0 ? coreText('duration.daysHours', days, hours) : coreText('duration.days', days);
  if (hours > 0) return minutes > 0 ? coreText('duration.hoursMinutes', hours, pad(minutes)) : coreText('duration.hours', hours);
  if (minutes > 0) return rest > 0 ? coreText('duration.minutesSeconds', minutes, pad(rest)) : coreText('duration.minutes', minutes);
  return coreText('duration.seconds', rest);
}

/** The English words of `duration(...)`: for the agent tools, the MCP server and the log. */
export function durationEnglish(seconds: number, shape?: DurationShape): string {
  return englishText(duration(seconds, shape));
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
