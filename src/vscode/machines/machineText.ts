// The Machines view's words (docs/machines.md): pack types, order and machine statuses, time left, a
// catalogue entry's hardware and price. Server text arrives made safe (core/machines shownText) and is
// never read as Markdown or icon syntax.
import * as vscode from 'vscode';
import { PACK_HOURS, gpuCountOf, maxPacksOf, megabytes, packPrice, productsOf, zoneOf, type CatalogueEntry } from '../../core/machines/catalogueQuery';
import { shownText } from '../../core/machines/catalogue';
import type { BillingType, OrderDetailStatus } from '../../core/machines/operations';
import type { RentedMachine } from '../../core/machines/machineState';
import { formatPoints } from '../../core/spend/units';
import { durationText } from '../ui/duration';

/** "Hour pack" / "Day pack" …, as the console says 小时包/天包/周包/月包. */
export function packName(billing: BillingType): string {
  switch (billing) {
    case 'Hour':
      return vscode.l10n.t('Hour pack');
    case 'Day':
      return vscode.l10n.t('Day pack');
    case 'Week':
      return vscode.l10n.t('Week pack');
    default:
      return vscode.l10n.t('Month pack');
  }
}

/** "1 h", "1 d", "7 d", "30 d": what one pack lasts. */
export function packLength(billing: BillingType): string {
  return durationText(PACK_HOURS[billing] * 3600);
}

export function machineStatusLabel(status: OrderDetailStatus | string): string {
  switch (status) {
    case 'Default':
    case 'Waiting':
      return vscode.l10n.t('Waiting');
    case 'Serving':
      return vscode.l10n.t('Serving');
    case 'Finished':
      return vscode.l10n.t('Finished');
    case 'Canceled':
    case 'CanceledRefunded':
      return vscode.l10n.t('Canceled');
    default:
      return vscode.l10n.t('Other');
  }
}

/** Time left as "2 d 3 h", "3 h 05 min", "12 min", "< 1 min" (ui/duration.ts); "ended" at 0. */
export function timeLeftText(ms: number): string {
  if (ms <= 0) return vscode.l10n.t('ended');
  return durationText(ms / 1000, { precision: 'minute' });
}

/** A rented machine's price as the platform gives it: "¥12.00 per Hour pack"; undefined when not a price. */
export function rentalPriceText(machine: Pick<RentedMachine, 'price' | 'billingType'>): string | undefined {
  return machine.price === undefined ? undefined : vscode.l10n.t('{0} per {1}', formatPoints(machine.price), packName(machine.billingType));
}

/** "8 × NVIDIA A100" (count and model made safe; "?" for a count that is not one). */
export function gpuText(product: { gpu_model: unknown; gpu_count: unknown }): string {
  const count = gpuCountOf(product as never);
  return `${count ?? '?'} × ${shownText(product.gpu_model) || vscode.l10n.t('unknown GPU')}`;
}

/** A catalogue entry's label: a single machine's GPUs, or "Group of 3 (Ib) · 8 × A100 each". */
export function entryLabel(entry: CatalogueEntry): string {
  const first = productsOf(entry)[0];
  const gpus = first ? gpuText(first) : vscode.l10n.t('unknown GPU');
  if (entry.kind === 'single') return gpus;
  return vscode.l10n.t('Group of {0} ({1}) · {2} each', entry.group.inner.length, shownText(entry.group.network_type), gpus);
}

/** Price per pack of one machine, or "no price" when the catalogue's value is not a price. */
export function packPriceText(entry: CatalogueEntry, billing: BillingType): string {
  const products = productsOf(entry);
  const prices = products.map((product) => packPrice(product, billing));
  if (prices.length === 0 || prices.some((price) => price === undefined)) return vscode.l10n.t('no price for a {0}', packName(billing));
  const first = prices[0] as number;
  const each = prices.every((price) => price === first);
  return each
    ? vscode.l10n.t('{0} per {1} per machine', formatPoints(first), packName(billing))
    : vscode.l10n.t('{0} per {1} for the group', formatPoints((prices as number[]).reduce((a, b) => a + b, 0)), packName(billing));
}

/** The row's description: zone, price per pack, how many packs one order may take. */
export function entryDescription(entry: CatalogueEntry, billing: BillingType): string {
  const zone = zoneOf(entry);
  const most = maxPacksOf(productsOf(entry));
  const buyable = most > 0 ? vscode.l10n.t('up to {0} packs', most) : vscode.l10n.t('not available');
  return [zone, packPriceText(entry, billing), buyable].filter((part) => part !== '').join(' · ');
}

/** The hardware, one fact per line (for a tooltip or the review): memory, CUDA/driver, disk, CPU, OS. */
export function entryFacts(entry: CatalogueEntry): string[] {
  const first = productsOf(entry)[0];
  if (!first) return [];
  const facts = [
    vscode.l10n.t('GPU: {0}, {1} memory each', gpuText(first), megabytes(first.gpu_memory) || '?'),
    vscode.l10n.t('Memory: {0}', megabytes(first.memory_size) || '?'),
    vscode.l10n.t('CUDA {0} · driver {1}', shownText(first.cuda_version) || '?', shownText(first.gpu_driver_version) || '?'),
    vscode.l10n.t('Disk: {0} {1}', megabytes(first.system_disk_size) || '?', shownText(first.system_disk_type)),
    vscode.l10n.t('CPU: {0} cores, {1}', typeof first.cores === 'number' && Number.isSafeInteger(first.cores) ? first.cores : '?', shownText(first.cpu_model)),
    vscode.l10n.t('System: {0}', shownText(first.operating_system) || '?'),
  ];
  const zone = zoneOf(entry);
  if (zone) facts.push(vscode.l10n.t('Zone: {0}', zone));
  if (entry.kind === 'single' && (entry.product.listing_mode === 'Proxy' || entry.product.listing_mode === 'Direct')) facts.push(slowStartNote());
  return facts;
}

/** Whether the machines take about 30 minutes to become usable (docs/machines.md: Proxy and Direct listings). */
export function slowStart(entry: CatalogueEntry): boolean {
  return entry.kind === 'single' && (entry.product.listing_mode === 'Proxy' || entry.product.listing_mode === 'Direct');
}

export function slowStartNote(): string {
  return vscode.l10n.t('Proxy and Direct machines become usable about 30 minutes after ordering.');
}
