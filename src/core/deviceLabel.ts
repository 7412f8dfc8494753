// The one label of a platform device as people read it (docs/localization.md glossary: "RTX 4090 × 1",
// never the platform's "x 1"): the lists, pickers, hovers, reviews, diagnostics and the agent tools all
// show it. Server text: bounded and with hidden characters escaped (core/shownValue.ts); a site that
// renders Markdown still escapes it there.
import { shownValue } from './shownValue';

/** Longest GPU or device name shown; a real one is ~30 characters. */
export const MAX_DEVICE_LABEL_CHARS = 80;

/** The fields a label reads; a task's resource carries them too (gpu_name may be null there). */
export interface DeviceLabelFields {
  readonly gpu_name?: string | null | undefined;
  /** A number in resource search; typed a string in the node list, seen as a number (platform-more-apis.md §9). */
  readonly gpu_count?: number | string | null | undefined;
  readonly device_name?: string | null | undefined;
}

/**
 * A count the platform may send as a number or as its text (the node list types `gpu_count` and `cpu_cores`
 * as strings and sends numbers: parse leniently, platform-more-apis.md §9): a whole number 0–9999, else undefined.
 */
export function countOf(value: unknown): number | undefined {
  const count = typeof value === 'string' && /^\s*\d{1,4}\s*$/.test(value) ? Number(value) : value;
  return typeof count === 'number' && Number.isSafeInteger(count) && count >= 0 && count < 10_000 ? count : undefined;
}

/**
 * "RTX 4090 × 2" from the GPU fields; a CPU-only device (or one without GPU fields) keeps the platform's
 * device name, its trailing "x 8" written "× 8". A count that is not a whole number 1–9999 is no count.
 */
export function deviceLabel(device: DeviceLabelFields): string {
  const gpu = typeof device.gpu_name === 'string' ? device.gpu_name.trim() : '';
  const count = countOf(device.gpu_count);
  if (gpu !== '' && count !== undefined && count > 0) {
    return `${shownValue(gpu, MAX_DEVICE_LABEL_CHARS)} × ${count}`;
  }
  const name = typeof device.device_name === 'string' ? device.device_name.trim() : '';
  // The name is cut to the bound first, so the pattern runs on a short string.
  return shownValue(name, MAX_DEVICE_LABEL_CHARS).replace(/ [xX×] ?(\d{1,4})$/, ' × $1');
}
