// The size cap of a request body (docs/signing.md, "Body size"): a body is measured before it is
// written out, so one of megabytes, or of a million values, is refused before any work on it holds up
// the extension host (docs/security.md).

/** The largest compact-JSON body (UTF-8 bytes) a request sends: the size cap of a spec file. */
export const MAX_BODY_BYTES = 512 * 1024;
/** The most values (strings, numbers, lists, mappings) a body holds: twice a spec's own limit (SPEC_LIMITS). */
export const MAX_BODY_VALUES = 20_000;

// A character JSON.stringify may write as more than one: `"`, `\`, C0 controls, surrogates.
const MAY_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
/** Shorter strings skip the regular expression: its call costs more than their characters. */
const SHORT = 32;

/** Extra characters the escapes of `text` take (at least one each), counted until past `room`. */
function escapes(text: string, room: number): number {
  let extra = 0;
  for (let index = 0; index < text.length && extra <= room; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x22 || code === 0x5c) extra++;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) index++;
    else if (code >= 0xd800 && code <= 0xdfff) extra++;
  }
  return extra;
}

function stringAtLeast(text: string, room: number): number {
  const quoted = text.length + 2;
  // Already past the cap: no need to look at its characters.
  if (quoted > room || (text.length >= SHORT && !MAY_ESCAPE.test(text))) return quoted;
  return quoted + escapes(text, room - quoted);
}

function dropped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

export interface BodyMeasure {
  /** A lower bound of `JSON.stringify(value).length`, exact or past `bytes` once over it. */
  atLeast: number;
  /** Values counted (each collection's size before its entries), exact or past `values` once over it. */
  values: number;
}

/**
 * Measures a body without writing it out, stopping once past either limit: the walk visits at most
 * `limits.values` + 1 values, a collection's size is counted before its entries are, and a string's
 * characters are looked at only while the total is within `limits.bytes`.
 */
export function measureBody(value: unknown, limits = { bytes: MAX_BODY_BYTES, values: MAX_BODY_VALUES }): BodyMeasure {
  let atLeast = 0;
  let values = 0;
  const stack: unknown[] = [value];
  const within = (): boolean => atLeast <= limits.bytes && values <= limits.values;
  while (stack.length > 0 && within()) {
    const item = stack.pop();
    values++;
    if (typeof item === 'string') {
      atLeast += stringAtLeast(item, limits.bytes - atLeast);
    } else if (Array.isArray(item)) {
      atLeast += item.length === 0 ? 2 : item.length + 1;
      // Entries count themselves when visited; a list too long to visit counts them all now (and ends the walk).
      if (values + item.length > limits.values) values += item.length;
      else if (within()) for (let index = item.length - 1; index >= 0; index--) stack.push(item[index]);
    } else if (item !== null && typeof item === 'object' && typeof (item as { toJSON?: unknown }).toJSON !== 'function' && !(item instanceof String || item instanceof Number || item instanceof Boolean)) {
      const record = item as Record<string, unknown>;
      const keys = Object.keys(record);
      atLeast += 2;
      if (values + keys.length > limits.values) values += keys.length;
      for (let index = 0; index < keys.length && within(); index++) {
        const member = record[keys[index]!];
        if (dropped(member)) continue;
        // "key": — the key's own escapes are left to the exact count after writing.
        atLeast += keys[index]!.length + 3;
        stack.push(member);
      }
    } else if (!dropped(item)) {
      // A number, boolean, null, or a value that writes itself (a Date's toJSON): at least one character.
      atLeast += 1;
    }
  }
  return { atLeast, values };
}

/** A lower bound of `JSON.stringify(value).length`, past `limit` once over it (no limit on values). */
export function jsonLengthAtLeast(value: unknown, limit: number): number {
  return measureBody(value, { bytes: limit, values: Number.MAX_SAFE_INTEGER }).atLeast;
}
