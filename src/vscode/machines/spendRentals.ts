// The Spend page's rented machines (docs/machines.md "In the editor"): each rental's end, time left and
// auto-renew with the price of one renewal, formatted here (the machines area owns these words) and sent
// through the Spend page's protocol (src/shared/spendProtocol.ts). Server text is made safe before.
import * as vscode from 'vscode';
import { timeLeftMs, type RentedMachine } from '../../core/machines/machineState';
import { byRentalEnd, inWarningWindow } from '../../core/machines/rentalEvents';
import { formatPoints } from '../../core/spend/units';
import type { SpendRentalRow } from '../../shared/spendProtocol';
import { formatDateTime } from '../ui/dates';
import { machineName } from './machineKind';
import { gpuText, machineStatusLabel, packName, timeLeftText } from './machineText';

export function spendRentalRows(machines: readonly RentedMachine[], now: number, warnMs: number): SpendRentalRow[] {
  return byRentalEnd(machines).map((machine) => {
    const left = timeLeftMs(machine, now);
    const renew = machine.autoRenew
      ? machine.renewPrice === undefined
        ? vscode.l10n.t('{0} · price unknown', packName(machine.autoRenew))
        : vscode.l10n.t('{0} · {1} per renewal', packName(machine.autoRenew), formatPoints(machine.renewPrice))
      : vscode.l10n.t('Off');
    return {
      machine: `${machineName(machine)} · ${gpuText({ gpu_model: machine.gpuModel, gpu_count: machine.gpuCount })}`,
      ends: machine.endMs === undefined ? machineStatusLabel(machine.status) : formatDateTime(machine.endMs),
      timeLeft: left === undefined ? '' : timeLeftText(left),
      autoRenew: renew,
      endingSoon: inWarningWindow(machine, now, warnMs),
    };
  });
}

/** The note under the rentals: when the warning comes, or that it is off (the setting's value). */
export function rentalsNote(warnMs: number): string {
  return warnMs > 0
    ? vscode.l10n.t('You are warned {0} before a rental ends unless auto-renew is on (setting computeToolkit.machines.warnBeforeEndMinutes).', timeLeftText(warnMs))
    : vscode.l10n.t('Rental-end warnings are off (setting computeToolkit.machines.warnBeforeEndMinutes).');
}
