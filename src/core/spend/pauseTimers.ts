// "Pause after…" timers: when a task should be paused, parsed from what a person types (a duration
// such as "45m", "2h", "1h30m", "90" minutes, or a clock time such as "18:30", the next one to come
// in the user's local time), which timers are due, and how the time left reads. The platform has no
// server-side schedule: timers act only while VS Code runs (a timer that came due while it was closed
// acts at the next start). Pure: the caller passes the clock.

export interface PauseTimer {
  profileId: string;
  taskId: number;
  taskName: string;
  /** When to pause (epoch ms). */
  dueAt: number;
  createdAt: number;
}

const MINUTE_MS = 60_000;
/** Longest timer: a week (a longer one is more likely a typo than a plan). */
export const MAX_TIMER_MS = 7 * 24 * 60 * MINUTE_MS;

export type ParsedDue = { dueAt: number } | { error: 'empty' | 'format' | 'tooLong' | 'tooShort' };

/**
 * "45m", "2h", "1h30m", "1.5h", "90" (minutes) → now + duration; "18:30" / "7:05" → the next such
 * local clock time (tomorrow when it has passed today). `localOffsetMinutes(ms)` gives the user's UTC
 * offset at an instant (minutes east of UTC), so the result is testable in any zone.
 */
export function parseDue(text: string, nowMs: number, localOffsetMinutes: (ms: number) => number): ParsedDue {
  const value = text.trim().toLowerCase().replace(/\s+/g, '');
  if (value === '') return { error: 'empty' };
  if (value.length > 20) return { error: 'format' };
  const clock = /^(\d{1,2}):(\d{2})$/.exec(value);
  if (clock) {
    const hours = Number(clock[1]);
    const minutes = Number(clock[2]);
    if (hours > 23 || minutes > 59) return { error: 'format' };
    const offset = localOffsetMinutes(nowMs) * MINUTE_MS;
    const wall = new Date(nowMs + offset);
    let dueAt = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate(), hours, minutes) - offset;
    if (dueAt <= nowMs) dueAt += 24 * 60 * MINUTE_MS;
    // Across a daylight-saving change the offset tomorrow may differ: correct once.
    dueAt -= (localOffsetMinutes(dueAt) - localOffsetMinutes(nowMs)) * MINUTE_MS;
    return { dueAt };
  }
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(value)) {
    ms = Number(value) * MINUTE_MS;
  } else {
    const match = /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+)m(?:in)?)?$/.exec(value);
    if (!match || (match[1] === undefined && match[2] === undefined)) return { error: 'format' };
    ms = Number(match[1] ?? 0) * 60 * MINUTE_MS + Number(match[2] ?? 0) * MINUTE_MS;
  }
  if (ms < MINUTE_MS) return { error: 'tooShort' };
  if (ms > MAX_TIMER_MS) return { error: 'tooLong' };
  return { dueAt: nowMs + Math.round(ms) };
}

/** Timers due at `nowMs`, and those still waiting. */
export function splitDue(timers: readonly PauseTimer[], nowMs: number): { due: PauseTimer[]; waiting: PauseTimer[] } {
  const due: PauseTimer[] = [];
  const waiting: PauseTimer[] = [];
  for (const timer of timers) (timer.dueAt <= nowMs ? due : waiting).push(timer);
  return { due, waiting };
}

/** The earliest due time among the timers, or undefined. */
export function nextDue(timers: readonly PauseTimer[]): number | undefined {
  let next: number | undefined;
  for (const timer of timers) if (next === undefined || timer.dueAt < next) next = timer.dueAt;
  return next;
}

/** Reads stored timers defensively (globalState can hold anything after a downgrade or a hand edit). */
export function readTimers(value: unknown): PauseTimer[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (item): item is PauseTimer =>
      typeof item === 'object' &&
      item !== null &&
      typeof (item as PauseTimer).profileId === 'string' &&
      Number.isSafeInteger((item as PauseTimer).taskId) &&
      typeof (item as PauseTimer).taskName === 'string' &&
      Number.isFinite((item as PauseTimer).dueAt) &&
      Number.isFinite((item as PauseTimer).createdAt),
  );
}

/** A timer warns this long before it pauses, Keep Running first (docs/money.md, "What counts as active"). */
export const TIMER_WARNING_MS = 2 * MINUTE_MS;

/** One warning per timer as set (a timer set again warns again). */
export function warningKey(timer: PauseTimer): string {
  return `${timer.profileId}\n${timer.taskId}\n${timer.dueAt}`;
}

/** Timers inside their warning window at `nowMs`, not due yet and not warned. */
export function toWarn(timers: readonly PauseTimer[], nowMs: number, warned: ReadonlySet<string>, warningMs = TIMER_WARNING_MS): PauseTimer[] {
  return timers.filter((timer) => timer.dueAt > nowMs && timer.dueAt - warningMs <= nowMs && !warned.has(warningKey(timer)));
}

/** The next instant a timer warns or comes due. */
export function nextWake(timers: readonly PauseTimer[], warned: ReadonlySet<string>, warningMs = TIMER_WARNING_MS): number | undefined {
  let next: number | undefined;
  for (const timer of timers) {
    const at = warned.has(warningKey(timer)) ? timer.dueAt : timer.dueAt - warningMs;
    if (next === undefined || at < next) next = at;
  }
  return next;
}
