// Reading the bare-metal catalogue (docs/machines.md): the unit price a buy sends (the discounted price
// when there is one), the total (unit × packs × machines), and the catalogue's text made safe to show
// (it is server text: no control characters, bounded length).

import { plainTerminalText } from '../terminalText';
import type { BillingType, MetalProduct } from './operations';

const PRICE_KEY = { Hour: 'hour', Day: 'day', Week: 'week', Month: 'month' } as const;
/** Points per yuan (docs/machines.md: metal prices are points). */
export const POINTS_PER_YUAN = 1_000_000;
const SHOWN_CHARS = 80;

/** What a buy sends as `unit_price` for `billing`: the discounted price, else the list price. */
export function unitPriceOf(product: MetalProduct, billing: BillingType): number {
  const key = PRICE_KEY[billing];
  return product[`${key}_price_discount`] ?? product[`${key}_price`];
}

/** The order's total in points: unit price × packs, × machines for a group. */
export function totalPoints(products: readonly MetalProduct[], billing: BillingType, packs: number): number {
  return products.reduce((sum, product) => sum + unitPriceOf(product, billing) * packs, 0);
}

/** Server text as one bounded plain line (escapes and controls removed, white space folded). */
export function shownText(value: unknown): string {
  if (typeof value !== 'string' && typeof value !== 'number') return '';
  const plain = plainTerminalText(String(value).slice(0, 4 * SHOWN_CHARS))
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > SHOWN_CHARS ? `${plain.slice(0, SHOWN_CHARS - 1)}…` : plain;
}

/** A catalogue row's label: "8 × NVIDIA A100 · 华东一区" (every part server text, made safe). */
export function productLabel(product: MetalProduct): string {
  const count = Number.isInteger(product.gpu_count) && product.gpu_count >= 0 && product.gpu_count < 1000 ? product.gpu_count : 0;
  const zone = shownText(product.zone_name);
  return `${count} × ${shownText(product.gpu_model)}${zone ? ` · ${zone}` : ''}`;
}
