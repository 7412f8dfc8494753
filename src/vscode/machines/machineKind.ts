// Rented machines as a kind (kinds/kindDescriptor.ts): the Machines view's machine rows from the store
// (core/machines/machineState.ts) — Waiting, then Serving with the rental window and the time left —
// and the "Serving" notification through the one NotificationCenter (docs/machines.md).
import * as vscode from 'vscode';
import { shownText } from '../../core/machines/catalogue';
import { MACHINE_STATE, timeLeftMs, type RentedMachine } from '../../core/machines/machineState';
import { servingIn } from '../../core/machines/rentalEvents';
import { Commands, Views } from '../commandIds';
import type { KindDescriptor, KindRow } from '../kinds/kindDescriptor';
import { formatDateTime } from '../ui/dates';
import { plain } from '../ui/notificationCenter';
import { gpuText, machineStatusLabel, packName, timeLeftText } from './machineText';

/** The context values machine rows carry (`viewItem` in package.json menus; a group's machines also run a group). */
export const MACHINE_CONTEXT = { serving: 'machine.Serving', servingInGroup: 'machine.Serving.group', waiting: 'machine.Waiting' } as const;

/** "Machine 9001" or "Machine 9101 · ib-7" (group name made safe). */
export function machineName(machine: RentedMachine): string {
  const group = machine.group ? shownText(machine.group.name) : '';
  return group ? vscode.l10n.t('Machine {0} · {1}', machine.deviceId, group) : vscode.l10n.t('Machine {0}', machine.deviceId);
}

/** "Order NO-1" (or its id when the order list did not hold it), and whether it was matched through the group. */
export function orderText(machine: RentedMachine): string {
  const order = machine.order;
  if (!order) return '';
  const name = shownText(order.orderNo) || String(order.orderId);
  return order.inferred ? vscode.l10n.t('Order: {0} (matched through its network group)', name) : vscode.l10n.t('Order: {0}', name);
}

export function machineRow(machine: RentedMachine, now: number): KindRow {
  const serving = machine.status === 'Serving';
  const left = timeLeftMs(machine, now);
  const parts = [machineStatusLabel(machine.status), gpuText({ gpu_model: machine.gpuModel, gpu_count: machine.gpuCount })];
  if (serving && left !== undefined) parts.push(vscode.l10n.t('{0} left', timeLeftText(left)));
  if (machine.autoRenew) parts.push(vscode.l10n.t('auto-renew: {0}', packName(machine.autoRenew)));
  const tooltip = new vscode.MarkdownString();
  tooltip.appendText(`${machineName(machine)}\n`);
  tooltip.appendText(vscode.l10n.t('Status: {0}', machineStatusLabel(machine.status)) + '\n');
  tooltip.appendText(vscode.l10n.t('Pack: {0}', packName(machine.billingType)) + '\n');
  if (machine.startMs !== undefined && machine.endMs !== undefined) {
    tooltip.appendText(vscode.l10n.t('Rental: {0} – {1}', formatDateTime(machine.startMs), formatDateTime(machine.endMs)) + '\n');
  } else {
    tooltip.appendText(vscode.l10n.t('Waiting to be powered on: the login appears once Serving.') + '\n');
  }
  const order = orderText(machine);
  if (order) tooltip.appendText(`${order}\n`);
  const ip = shownText(machine.publicIp);
  if (ip) tooltip.appendText(vscode.l10n.t('Public IP: {0}', ip) + '\n');
  return {
    id: `machine-${machine.deviceId}`,
    label: machineName(machine),
    description: parts.join(' · '),
    icon: serving ? new vscode.ThemeIcon('vm-running', new vscode.ThemeColor('testing.iconPassed')) : new vscode.ThemeIcon('loading~spin'),
    tooltip,
    contextValue: serving ? (machine.group ? MACHINE_CONTEXT.servingInGroup : MACHINE_CONTEXT.serving) : MACHINE_CONTEXT.waiting,
  };
}

export const MACHINE_KIND: KindDescriptor<RentedMachine> = {
  state: MACHINE_STATE as KindDescriptor<RentedMachine>['state'],
  viewId: Views.machines,
  refreshCommand: Commands.machinesRefresh,
  what: () => vscode.l10n.t('rented machines'),
  emptyText: () => vscode.l10n.t('No rented machines. Rent Machine… rents one from the catalogue below.'),
  row: machineRow,
  notices: (change, profile, own) =>
    servingIn(change).map((machine) => {
      const text = vscode.l10n.t('{0} is Serving: its login is ready.', plain(machineName(machine)));
      return { kind: 'machineServing', severity: 'info', message: own ? text : `${plain(profile.label, 40)}: ${text}`, actions: [] };
    }),
};
