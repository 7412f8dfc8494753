// How platform numbers read in the trees and pickers, in the display language. Pure functions but for
// vscode.l10n.t (node unit tests load them with test/unit/helpers/englishL10n.ts).
import * as vscode from 'vscode';
import type { Device, Region, TaskStatus, TaskSummary } from '../../core/compute/api';
import { effectivePointsPerSecond, formatPoints, formatYuanPerHour, pointsPerSecondToYuanPerHour as yuanPerHour } from '../../core/spend/units';
import { counted } from './counts';
import { deviceLabel } from '../../core/deviceLabel';
import { shownValue } from '../../core/shownValue';

/** Money conversions and formats come from the one units module (core/spend/units.ts). */
export { formatPoints, formatYuan, formatYuanPerHour, pointsPerSecondToYuanPerHour as yuanPerHour } from '../../core/spend/units';

/** The price a task would be billed at: the discount when there is one. */
export function effectivePrice(region: Region): number | null {
  return effectivePointsPerSecond(region);
}

/** "¥2.304/h", "¥2.304/h (−20%, was ¥2.88/h)", or "price n/a" when the platform sends none. Rates are exact (units.ts). */
export function formatRegionPrice(region: Region): string {
  const effective = effectivePrice(region);
  if (effective === null) return vscode.l10n.t('price n/a');
  const text = formatYuanPerHour(yuanPerHour(effective));
  const discount = discountNote(region);
  return discount ? `${text} (${discount})` : text;
}

/** "−20%, was ¥2.88/h" when the region is discounted, else undefined. */
export function discountNote(region: Region): string | undefined {
  const effective = effectivePrice(region);
  const list = region.price;
  if (effective === null || list === null || list <= 0 || effective >= list) return undefined;
  return vscode.l10n.t('−{0}%, was {1}', Math.round((1 - effective / list) * 100), formatYuanPerHour(yuanPerHour(list)));
}

/**
 * Devices in price order: by their cheapest region in stock, then those sold out everywhere (by their
 * cheapest listed price), then those without any price; ties keep the platform's order.
 */
export function sortDevicesByPrice<T extends Device>(devices: readonly T[]): T[] {
  const key = (device: Device): [number, number] => {
    const inStock = cheapestInStock(device);
    const stockPrice = inStock ? effectivePrice(inStock) : null;
    if (stockPrice !== null) return [0, stockPrice];
    let listed = Number.POSITIVE_INFINITY;
    for (const region of device.regions) listed = Math.min(listed, effectivePrice(region) ?? Number.POSITIVE_INFINITY);
    return Number.isFinite(listed) ? [1, listed] : [2, 0];
  };
  const keyed = devices.map((device, index) => ({ device, index, key: key(device) }));
  keyed.sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.index - b.index);
  return keyed.map((entry) => entry.device);
}

export function isSoldOut(region: Region): boolean {
  return region.inventory <= 0;
}

export function formatInventory(region: Region): string {
  return isSoldOut(region) ? vscode.l10n.t('sold out') : vscode.l10n.t('{0} available', region.inventory);
}

/** Memory sizes arrive in MiB (24560 for one RTX 4090). */
export function formatMiB(mib: number): string {
  if (mib <= 0) return '0 GB';
  const gib = mib / 1024;
  return gib >= 10 ? `${Math.round(gib)} GB` : `${Number(gib.toFixed(1))} GB`;
}

/** "RTX 4090 × 2": the one device label (core/deviceLabel.ts), bounded and escaped. */
export { deviceLabel };

/** "24 GB VRAM · 16 CPU · 64 GB RAM" */
export function deviceSpecs(device: Pick<Device, 'gpu_memory' | 'gpu_count' | 'cpu_cores' | 'memory'>): string {
  const parts: string[] = [];
  if (device.gpu_count > 0 && device.gpu_memory > 0) parts.push(vscode.l10n.t('{0} VRAM', formatMiB(device.gpu_memory)));
  parts.push(vscode.l10n.t('{0} CPU', device.cpu_cores), vscode.l10n.t('{0} RAM', formatMiB(device.memory)));
  return parts.join(' · ');
}

/** The cheapest region that still has inventory, for the device row's summary. */
export function cheapestInStock(device: Device): Region | undefined {
  let best: Region | undefined;
  for (const region of device.regions) {
    const price = effectivePrice(region);
    if (isSoldOut(region) || price === null) continue;
    const bestPrice = best ? effectivePrice(best) : null;
    if (bestPrice === null || price < bestPrice) best = region;
  }
  return best;
}

/** Codicon id per task status (Pending spins while the platform schedules it). */
export function taskStatusIcon(status: TaskStatus): string {
  switch (status) {
    case 'Pending':
      return 'sync~spin';
    case 'Running':
      return 'pass';
    case 'Paused':
      return 'debug-pause';
    case 'End':
      return 'circle-slash';
    default:
      return 'question';
  }
}

/** Theme colour per task status, so a glance at the tree tells running from stopped. */
export function taskStatusColor(status: TaskStatus): string | undefined {
  switch (status) {
    case 'Running':
      return 'testing.iconPassed';
    case 'Pending':
      return 'charts.yellow';
    case 'End':
      return 'disabledForeground';
    default:
      return undefined;
  }
}

/** A task status in the display language (the platform's values are English words). */
/** A task's (or job's) lifecycle status in words; a status the platform adds later reads "Other". */
export function taskStatusLabel(status: TaskStatus | string): string {
  switch (status) {
    case 'Pending':
      return vscode.l10n.t('Pending');
    case 'Running':
      return vscode.l10n.t('Running');
    case 'Paused':
      return vscode.l10n.t('Paused');
    case 'End':
      return vscode.l10n.t('Ended');
    default:
      return vscode.l10n.t('Other');
  }
}

/** "Paused · 1/2 nodes · ¥0.12 billed" */
export function taskDescription(task: TaskSummary): string {
  const nodes = `${task.runing_points}/${counted(task.points, 'node')}`;
  return `${taskStatusLabel(task.status)} · ${nodes} · ${vscode.l10n.t('{0} billed', formatPoints(task.billing_value))}`;
}

/** Device and region of a task's first resource, e.g. "RTX 4090 × 1 · 北京一区". */
export function taskPlacement(task: TaskSummary): string | undefined {
  const first = task.resources[0];
  if (!first) return undefined;
  return `${deviceLabel(first.resource)} · ${shownValue(String(first.region_name ?? ''), 60)}`;
}

/** A profile's key mode as shown: "RSA" or "Token" in the display language. */
export function modeName(mode: 'token' | 'rsa'): string {
  return mode === 'rsa' ? 'RSA' : vscode.l10n.t('Token');
}

/** dev / test / prod / sandbox in the display language. */
export function environmentName(environment: string): string {
  switch (environment) {
    case 'prod':
      return vscode.l10n.t('production');
    case 'test':
      return vscode.l10n.t('test');
    case 'sandbox':
      return vscode.l10n.t('sandbox');
    default:
      return vscode.l10n.t('development');
  }
}
