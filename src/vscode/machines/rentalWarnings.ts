// Warnings before a rented machine's rental ends (docs/machines.md): the rented machines come from the
// store (no listing here); one timer waits for the next moment a rental enters its warning window
// (`computeToolkit.machines.warnBeforeEndMinutes` before `use_end_time`) or ends, then warns once per
// rental end through the NotificationCenter, and wakes the store at an end (the store is at rest while
// every machine is Serving, so nothing else would read that the machine left). A machine still Waiting
// WAITING_LIMIT_MS after it was first seen so is told once (the store keeps looking; nothing hangs).
import * as vscode from 'vscode';
import { MACHINE_STATE, timeLeftMs, type RentedMachine } from '../../core/machines/machineState';
import { endingSoon, nextRentalMoment, nextWaitMoment, rentalEndKey, WAITING_LIMIT_MS, waitingTooLong, waitKey } from '../../core/machines/rentalEvents';
import { durationText } from '../ui/duration';
import { Config } from '../config';
import type { ExtensionServices } from '../services';
import type { RemoteState } from '../state/index';
import type { NotificationAction, NotificationCenter } from '../ui/notificationCenter';
import { plain } from '../ui/notificationCenter';
import { machineName } from './machineKind';
import { timeLeftText } from './machineText';

/** Longest single wait of the timer (setTimeout's limit is about 24.8 days). */
const MAX_WAIT_MS = 2 ** 31 - 1;

export class RentalWarnings implements vscode.Disposable {
  private readonly warned = new Set<string>();
  /** When each Waiting machine was first seen Waiting (by waitKey). */
  private readonly waitingSince = new Map<string, number>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  /** The clock (the in-host tests move it). */
  now: () => number = Date.now;

  constructor(
    private readonly services: ExtensionServices,
    private readonly state: RemoteState,
    private readonly center: NotificationCenter,
    private readonly actions: (machine: RentedMachine) => NotificationAction[],
  ) {
    this.disposables.push(
      state.follow(MACHINE_STATE, (_change, profile) => {
        if (profile.id === services.profiles.active?.id) this.check();
      }),
      services.config.onDidChange((event) => {
        if (Config.affects(event, 'machines')) this.check();
      }),
    );
  }

  private machines(): readonly RentedMachine[] {
    return (this.state.store(MACHINE_STATE)?.items ?? []) as readonly RentedMachine[];
  }

  /** Warns about rentals in their window now, and sets the timer for the next moment. */
  check(): void {
    const now = this.now();
    const warnMs = this.services.config.machineEndWarningMs;
    const machines = this.machines();
    for (const machine of endingSoon(machines, now, warnMs, this.warned)) {
      this.warned.add(rentalEndKey(machine));
      const text = vscode.l10n.t('The rental of {0} ends in {1}; its files go with it unless you renew.', plain(machineName(machine)), timeLeftText(timeLeftMs(machine, now) ?? 0));
      this.center.show('machineEnding', 'warning', text, this.actions(machine));
    }
    for (const machine of waitingTooLong(machines, this.waitingSince, now, WAITING_LIMIT_MS, this.warned)) {
      this.warned.add(waitKey(machine));
      const text = vscode.l10n.t(
        '{0} is still Waiting after {1}: Proxy and Direct machines usually take about 30 minutes. Its login appears once it is Serving; if it stays Waiting, look at the order in the console.',
        plain(machineName(machine)),
        durationText(WAITING_LIMIT_MS / 1000),
      );
      this.center.show('machineWaitingLong', 'warning', text);
    }
    if (machines.some((machine) => machine.status === 'Serving' && machine.endMs !== undefined && machine.endMs <= now)) this.state.wake();
    const moments = [nextRentalMoment(machines, now, warnMs), nextWaitMoment(this.waitingSince, now, WAITING_LIMIT_MS, this.warned)].filter((moment): moment is number => moment !== undefined);
    this.schedule(moments.length > 0 ? Math.min(...moments) : undefined, now);
  }

  private schedule(moment: number | undefined, now: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (moment === undefined) return;
    this.timer = setTimeout(() => this.check(), Math.min(MAX_WAIT_MS, Math.max(0, moment - now) + 1000));
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const disposable of this.disposables) disposable.dispose();
  }
}
