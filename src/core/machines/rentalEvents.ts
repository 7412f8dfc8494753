// What the rented machines' changes mean to the user (docs/machines.md): a machine that became Serving
// (its login exists now), rentals about to end (warned once per rental end, a set time before it), and a
// machine that stays Waiting far longer than machines take (told once per rental).
// Pure: the editor follows the store's changes and its own timer, and asks these.

import type { StateChange } from '../state/definition';
import type { RentedMachine } from './machineState';

/**
 * The machines that became Serving since the last poll: seen not Serving before, or first seen Serving
 * (rented and served between two polls). Never on a first look, which only learns what exists.
 */
export function servingIn(change: Pick<StateChange<RentedMachine>, 'first' | 'added' | 'changed'>): RentedMachine[] {
  if (change.first) return [];
  return [
    ...change.changed.filter(({ before, after }) => before.status !== 'Serving' && after.status === 'Serving').map(({ after }) => after),
    ...change.added.filter((machine) => machine.status === 'Serving'),
  ];
}

/** The identity of one rental end: a renewal moves the end, and the new end is warned about again. */
export function rentalEndKey(machine: RentedMachine): string {
  return `${machine.deviceId}@${machine.endMs ?? ''}`;
}

/**
 * The Serving machines whose rental ends within `warnMs` of `now` and has not ended, not warned yet
 * (`warned` holds rentalEndKey of those already warned). A machine with auto-renew on is not warned.
 */
export function endingSoon(machines: readonly RentedMachine[], now: number, warnMs: number, warned: ReadonlySet<string>): RentedMachine[] {
  if (!(warnMs > 0)) return [];
  return machines.filter(
    (machine) => machine.status === 'Serving' && machine.autoRenew === undefined && machine.endMs !== undefined && machine.endMs > now && machine.endMs - now <= warnMs && !warned.has(rentalEndKey(machine)),
  );
}

/**
 * When to look again: the earliest moment a rental enters its warning window or ends (after `now`),
 * undefined when none will. The editor sets one timer for it (the store is at rest meanwhile).
 */
export function nextRentalMoment(machines: readonly RentedMachine[], now: number, warnMs: number): number | undefined {
  let next: number | undefined;
  for (const machine of machines) {
    if (machine.status !== 'Serving' || machine.endMs === undefined) continue;
    for (const moment of [machine.endMs - Math.max(0, warnMs), machine.endMs]) {
      if (moment > now && (next === undefined || moment < next)) next = moment;
    }
  }
  return next;
}

/** The machines by rental end, soonest first; Waiting ones (no window yet) last, each group by device id. */
export function byRentalEnd(machines: readonly RentedMachine[]): RentedMachine[] {
  const end = (machine: RentedMachine): number => machine.endMs ?? Number.POSITIVE_INFINITY;
  return [...machines].sort((a, b) => end(a) - end(b) || a.deviceId - b.deviceId);
}

/** Whether a rental is inside its warning window now (the same rule as the warning, before it is warned). */
export function inWarningWindow(machine: RentedMachine, now: number, warnMs: number): boolean {
  return endingSoon([machine], now, warnMs, new Set()).length === 1;
}

/**
 * How long a machine may stay Waiting before the user is told: Proxy and Direct machines take about 30
 * minutes to be powered on (platform-storage-and-metal.md §7); the same bound as MachineService.waitForServing.
 */
export const WAITING_LIMIT_MS = 45 * 60_000;

/** The identity of one wait: the machine's rental (a new rental of the same device is a new wait). */
export function waitKey(machine: RentedMachine): string {
  return `wait:${machine.deviceId}#${machine.orderDetailsId ?? ''}`;
}

/**
 * Notes in `since` when each machine was first seen Waiting (and forgets the ones no longer Waiting); the
 * machines Waiting for `limitMs` or more whose wait is not in `warned` yet.
 */
export function waitingTooLong(machines: readonly RentedMachine[], since: Map<string, number>, now: number, limitMs: number, warned: ReadonlySet<string>): RentedMachine[] {
  const waiting = machines.filter((machine) => machine.status === 'Waiting' || machine.status === 'Default');
  const keys = new Set(waiting.map(waitKey));
  for (const key of [...since.keys()]) if (!keys.has(key)) since.delete(key);
  for (const key of keys) if (!since.has(key)) since.set(key, now);
  return waiting.filter((machine) => now - (since.get(waitKey(machine)) ?? now) >= limitMs && !warned.has(waitKey(machine)));
}

/** The next moment a wait noted in `since` reaches `limitMs` (after `now`), undefined when none will. */
export function nextWaitMoment(since: ReadonlyMap<string, number>, now: number, limitMs: number, warned: ReadonlySet<string>): number | undefined {
  let next: number | undefined;
  for (const [key, first] of since) {
    const moment = first + limitMs;
    if (!warned.has(key) && moment > now && (next === undefined || moment < next)) next = moment;
  }
  return next;
}
