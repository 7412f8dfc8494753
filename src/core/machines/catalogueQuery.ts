// What the Machines view, Rent Machine… and the agent tools read from the bare-metal catalogue
// (docs/machines.md): a pack's price when it is one the platform can take (a whole number of points, not
// negative), how many packs one order may take (`max_buy_count` bounds `buy_count`, the packs), the filters (GPU model, count, zone, pack type), the facets a
// filter picker offers, and the total of an order. The catalogue is server text: every value is checked
// here before it is priced, and a row that cannot be priced is shown as such and cannot be rented.

import type { BillingType, MetalGroup, MetalProduct } from './operations';
import { shownText, unitPriceOf } from './catalogue';

/** The filters of the catalogue (all optional except the pack type, which decides the prices shown). */
export interface CatalogueFilter {
  billing: BillingType;
  gpuModel?: string;
  gpuCount?: number;
  zone?: string;
  /** Machines per network group listed (the group catalogue asks for one count: platform-storage-and-metal.md §6.3); default 2. */
  groupSize?: number;
}

/** The machine counts a network group can be listed by (Filter Machine Catalogue…), and the default. */
export const GROUP_SIZES: readonly number[] = [2, 4, 8, 16];
export const DEFAULT_GROUP_SIZE = 2;

/** One entry of the catalogue as shown: a single machine, or a network group of several. */
export type CatalogueEntry = { kind: 'single'; product: MetalProduct } | { kind: 'group'; group: MetalGroup };

/** Pack lengths in hours (docs/machines.md: Hour, Day = 24 h, Week = 7 days, Month = 30 days). */
export const PACK_HOURS: Record<BillingType, number> = { Hour: 1, Day: 24, Week: 168, Month: 720 };

/** The most packs one order takes in the editor and the tools (a year of hours; more is a typing slip). */
export const MAX_PACKS = 8760;

/** A price the platform can take: a whole number of points, 0 or more, below 2^53. */
function validPoints(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** The unit price of one pack of `billing` in points, or undefined when the catalogue's value is not a price. */
export function packPrice(product: MetalProduct, billing: BillingType): number | undefined {
  const price = unitPriceOf(product, billing);
  return validPoints(price) ? price : undefined;
}

/** The most packs one order of these machines may take (`max_buy_count`, the least of a group's; 0 when not a sane count). */
export function maxPacksOf(products: readonly MetalProduct[]): number {
  let most = MAX_PACKS;
  for (const product of products) {
    const count = product.max_buy_count;
    most = Math.min(most, typeof count === 'number' && Number.isSafeInteger(count) && count > 0 ? count : 0);
  }
  return products.length === 0 ? 0 : most;
}

/** GPUs per machine, when a sane count. */
export function gpuCountOf(product: MetalProduct): number | undefined {
  const count = product.gpu_count;
  return typeof count === 'number' && Number.isInteger(count) && count >= 0 && count <= 1024 ? count : undefined;
}

/** The machines an entry rents together. */
export function productsOf(entry: CatalogueEntry): readonly MetalProduct[] {
  return entry.kind === 'single' ? [entry.product] : entry.group.inner;
}

/** The entry's zone as shown (a group's inner items carry none; the group does). */
export function zoneOf(entry: CatalogueEntry): string {
  return shownText(entry.kind === 'single' ? entry.product.zone_name : entry.group.zone_name);
}

/** Whether an entry can be rented with `billing`: every machine priced, at least one pack, and a group not empty. */
export function rentable(entry: CatalogueEntry, billing: BillingType): boolean {
  const products = productsOf(entry);
  return maxPacksOf(products) > 0 && products.every((product) => packPrice(product, billing) !== undefined);
}

/**
 * The one unit price every machine of the order has, or undefined when they differ (a group's machines may
 * be priced apart) or one has no price: a total then reads "packs × the sum of the machines' prices".
 */
export function sharedUnitPrice(products: readonly MetalProduct[], billing: BillingType): number | undefined {
  const prices = new Set(products.map((product) => packPrice(product, billing)));
  const [only] = prices;
  return prices.size === 1 ? only : undefined;
}

/** The sum of one pack of each machine (what one pack of the whole order costs), undefined when one has no price. */
export function packOfAll(products: readonly MetalProduct[], billing: BillingType): number | undefined {
  return orderTotal(products, billing, 1);
}

/**
 * The order's total in points: unit price × packs, × machines for a group; undefined when a price is not
 * one, the pack count is not a whole number from 1 to MAX_PACKS, or the sum is not exact.
 */
export function orderTotal(products: readonly MetalProduct[], billing: BillingType, packs: number): number | undefined {
  if (!Number.isInteger(packs) || packs < 1 || packs > MAX_PACKS || products.length === 0) return undefined;
  let total = 0;
  for (const product of products) {
    const price = packPrice(product, billing);
    if (price === undefined) return undefined;
    total += price * packs;
  }
  return Number.isSafeInteger(total) ? total : undefined;
}

/** Whether an entry passes the filters (GPU model compared as shown, case-insensitive). */
export function matches(entry: CatalogueEntry, filter: CatalogueFilter): boolean {
  const products = productsOf(entry);
  const first = products[0];
  if (!first) return false;
  if (filter.gpuModel !== undefined && shownText(first.gpu_model).toLowerCase() !== filter.gpuModel.toLowerCase()) return false;
  if (filter.gpuCount !== undefined && gpuCountOf(first) !== filter.gpuCount) return false;
  if (filter.zone !== undefined && zoneOf(entry) !== filter.zone) return false;
  return true;
}

/** The entries that pass, rentable ones first, then by the cheapest total for one pack. */
export function filterCatalogue(entries: readonly CatalogueEntry[], filter: CatalogueFilter): CatalogueEntry[] {
  const onePack = (entry: CatalogueEntry): number => orderTotal(productsOf(entry), filter.billing, 1) ?? Number.POSITIVE_INFINITY;
  return entries
    .filter((entry) => matches(entry, filter))
    .map((entry) => ({ entry, price: onePack(entry) }))
    .sort((a, b) => a.price - b.price)
    .map(({ entry }) => entry);
}

/** The values a filter can take, from what the catalogue lists (each at most once, as shown). */
export function facetsOf(entries: readonly CatalogueEntry[]): { gpuModels: string[]; gpuCounts: number[]; zones: string[] } {
  const models = new Set<string>();
  const counts = new Set<number>();
  const zones = new Set<string>();
  for (const entry of entries) {
    const first = productsOf(entry)[0];
    if (!first) continue;
    const model = shownText(first.gpu_model);
    if (model) models.add(model);
    const count = gpuCountOf(first);
    if (count !== undefined) counts.add(count);
    const zone = zoneOf(entry);
    if (zone) zones.add(zone);
  }
  return { gpuModels: [...models].sort(), gpuCounts: [...counts].sort((a, b) => a - b), zones: [...zones].sort() };
}

/** A size in MB as GiB/TiB text ("80 GB", "1.5 TB"); empty when not a size. */
export function megabytes(mb: unknown): string {
  if (typeof mb !== 'number' || !Number.isFinite(mb) || mb < 0) return '';
  const gb = mb / 1024;
  if (gb >= 1024) return `${Number((gb / 1024).toFixed(1))} TB`;
  return `${Number(gb.toFixed(gb < 10 ? 1 : 0))} GB`;
}

/** The product as it costs now, after the platform refused an order naming `price` for `billing`. */
export function withPrice(product: MetalProduct, billing: BillingType, price: number): MetalProduct {
  const key = ({ Hour: 'hour', Day: 'day', Week: 'week', Month: 'month' } as const)[billing];
  return product[`${key}_price_discount`] !== null && product[`${key}_price_discount`] !== undefined ? { ...product, [`${key}_price_discount`]: price } : { ...product, [`${key}_price`]: price };
}
