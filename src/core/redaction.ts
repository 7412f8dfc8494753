// Finding a secret in text that may carry it encoded: URL-encoded (%2F, %2f), JSON-escaped (\/, \u002F,
// \n inside a PEM), upper- or lower-cased, split across lines (CR, LF, CRLF, with indentation after the
// break), or a PEM body re-wrapped at another width. Both the text and each secret are brought to one
// canonical form and compared there; matches are mapped back to the original text. Every step is a
// single pass (linear in the text times the number of secrets): this runs over server-controlled text.
// A secret may also travel encoded as a whole: Base64 or Base64url (inside a Basic header, a JWT-like
// blob, a data: URL, at any byte alignment) or hex (lower- or upper-case): encodedForms lists those
// forms, which are searched for like the secret itself. A secret that is itself Base64 is found in the
// Base64url alphabet too (and the other way round), with or without its `=` padding.

const PERCENT = 37; // %
const BACKSLASH = 92; // \
const CR = 13;
const LF = 10;
const SPACE = 32;
const TAB = 9;

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20;
  if (lower >= 97 && lower <= 102) return lower - 87;
  return -1;
}

function hexAt(text: string, at: number, digits: number): number {
  if (at + digits > text.length) return -1;
  let value = 0;
  for (let index = 0; index < digits; index++) {
    const digit = hexValue(text.charCodeAt(at + index));
    if (digit === -1) return -1;
    value = value * 16 + digit;
  }
  return value;
}

const JSON_SIMPLE_ESCAPES: Record<number, number> = {
  47: 47, // \/ → /
  92: 92, // \\ → \
  34: 34, // \" → "
  110: LF, // \n
  114: CR, // \r
  116: TAB, // \t
};

/** The canonical text, and for each of its characters the range of the original it came from. */
export interface CanonicalText {
  text: string;
  starts: Int32Array;
  ends: Int32Array;
}

/**
 * One pass over `input`: decodes %XX and JSON escapes, lower-cases ASCII letters, drops line breaks and the
 * spaces or tabs that indent the line after a break (kept with `keepBreaks`: a key must start its line). With
 * `withMap`, records where each character came from.
 */
export function canonicalize(input: string, withMap: boolean, keepBreaks = false): CanonicalText {
  const length = input.length;
  const codes = new Uint16Array(length);
  const starts = withMap ? new Int32Array(length) : new Int32Array(0);
  const ends = withMap ? new Int32Array(length) : new Int32Array(0);
  let count = 0;
  let afterBreak = false;
  let index = 0;
  while (index < length) {
    const start = index;
    let code = input.charCodeAt(index);
    let consumed = 1;
    if (code === PERCENT) {
      const value = hexAt(input, index + 1, 2);
      if (value !== -1) {
        code = value;
        consumed = 3;
      }
    } else if (code === BACKSLASH && index + 1 < length) {
      const next = input.charCodeAt(index + 1);
      if (next === 117 /* u */) {
        const value = hexAt(input, index + 2, 4);
        if (value !== -1) {
          code = value;
          consumed = 6;
        }
      } else if (JSON_SIMPLE_ESCAPES[next] !== undefined) {
        code = JSON_SIMPLE_ESCAPES[next] ?? next;
        consumed = 2;
      }
    }
    index += consumed;
    if ((code === CR || code === LF) && !keepBreaks) {
      afterBreak = true;
      continue;
    }
    if (afterBreak && (code === SPACE || code === TAB)) continue;
    afterBreak = false;
    if (code >= 65 && code <= 90) code += 32;
    codes[count] = code;
    if (withMap) {
      starts[count] = start;
      ends[count] = index;
    }
    count++;
  }
  return { text: decodeUtf16(codes, count), starts, ends };
}

const utf16 = new TextDecoder('utf-16le');

function decodeUtf16(codes: Uint16Array, count: number): string {
  return utf16.decode(codes.subarray(0, count));
}

/** The canonical text without the position map; a native fast path for text with nothing to decode. */
function canonicalProbe(text: string): string {
  // ASCII text with nothing to decode: the engine's own lower-casing is the same mapping, and much faster.
  if (/[%\\\r\n\u0080-\uffff]/.test(text)) return canonicalize(text, false).text;
  return text.toLowerCase();
}

/**
 * `-` and `_` (the Base64url alphabet) read as `+` and `/` (Base64): a token written in either alphabet
 * is found. One character for one, so positions in the canonical text stay where they were.
 */
function foldAlphabet(text: string): string {
  return text.replace(/[-_]/g, (character) => (character === '-' ? '+' : '/'));
}

/** The form a secret is searched for in: canonical, alphabet folded, Base64 padding dropped (often left off in transit). */
export function secretNeedle(secret: string): string {
  return foldAlphabet(canonicalize(secret, false).text).replace(/=+$/, '');
}

/** A secret to find, with what replaces it. */
export interface SecretPattern {
  /** The form to search for (secretNeedle). */
  canonical: string;
  replacement: string;
}

/** Replaces every canonical occurrence of the patterns in `text`; overlapping matches merge, the longest pattern wins. */
export function replaceCanonical(text: string, patterns: readonly SecretPattern[]): string {
  if (patterns.length === 0 || text.length === 0) return text;
  // Most texts hold no secret: search once without the position map, and pay for the map only on a hit.
  const probe = foldAlphabet(canonicalProbe(text));
  if (!patterns.some((pattern) => pattern.canonical !== '' && probe.includes(pattern.canonical))) return text;
  const canonical = canonicalize(text, true);
  const folded = foldAlphabet(canonical.text);
  const ranges: { from: number; to: number; pattern: SecretPattern }[] = [];
  for (const pattern of patterns) {
    const needle = pattern.canonical;
    if (needle === '') continue;
    for (let at = folded.indexOf(needle); at !== -1; at = folded.indexOf(needle, at + needle.length)) {
      // Base64 padding is not part of the needle (secretNeedle): the match takes the text's own, if any.
      let to = canonical.ends[at + needle.length - 1] ?? 0;
      for (let pad = 0; pad < 2 && text[to] === '='; pad++) to++;
      ranges.push({ from: canonical.starts[at] ?? 0, to, pattern });
    }
  }
  ranges.sort((a, b) => a.from - b.from || b.to - a.to);
  let out = '';
  let position = 0;
  let index = 0;
  while (index < ranges.length) {
    const first = ranges[index] as (typeof ranges)[number];
    let to = first.to;
    let winner = first.pattern;
    index++;
    while (index < ranges.length && (ranges[index]?.from ?? Infinity) < to) {
      const next = ranges[index] as (typeof ranges)[number];
      if (next.pattern.canonical.length > winner.canonical.length) winner = next.pattern;
      to = Math.max(to, next.to);
      index++;
    }
    out += text.slice(position, first.from) + winner.replacement;
    position = to;
  }
  return out + text.slice(position);
}

/** The Base64 body of a PEM block (header, footer and line breaks removed), or undefined for other text. */
export function pemBody(value: string): string | undefined {
  const begin = value.indexOf('-----BEGIN ');
  if (begin === -1) return undefined;
  const headerEnd = value.indexOf('-----', begin + 11);
  if (headerEnd === -1) return undefined;
  const end = value.indexOf('-----END ', headerEnd + 5);
  if (end === -1) return undefined;
  const lines = value.slice(headerEnd + 5, end).split('\n');
  // Encrypted PKCS#1 keys carry "Proc-Type:" style header lines before the body.
  return lines
    .filter((line) => !line.includes(':'))
    .join('')
    .replace(/\s/g, '');
}

/**
 * Replaces private-key PEM blocks, registered or not: from `-----BEGIN … PRIVATE KEY-----` to its END line,
 * or to the end of the text when it was cut off. A single left-to-right scan.
 */
export function redactPrivateKeyBlocks(text: string, replacement: string): string {
  let out = '';
  let position = 0;
  let search = 0;
  for (;;) {
    const begin = text.indexOf('-----BEGIN ', search);
    if (begin === -1) break;
    const labelEnd = text.indexOf('-----', begin + 11);
    if (labelEnd === -1) break;
    const label = text.slice(begin + 11, labelEnd);
    if (label.length > 40 || !label.endsWith('PRIVATE KEY')) {
      search = begin + 11;
      continue;
    }
    const endLine = text.indexOf('-----END ', labelEnd + 5);
    const endLabel = endLine === -1 ? -1 : text.indexOf('-----', endLine + 9);
    const to = endLabel === -1 ? text.length : endLabel + 5;
    out += text.slice(position, begin) + replacement;
    position = to;
    search = to;
  }
  return position === 0 ? text : out + text.slice(position);
}

/**
 * The encoded forms a secret can travel in: its Base64 and Base64url text at each of the three byte
 * alignments (the characters that depend on the secret's bytes only, so a match is found inside a
 * longer encoded value too), and its hex (upper-case hex matches through the canonical lower-casing).
 */
export function encodedForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms = new Set<string>([bytes.toString('hex')]);
  for (let shift = 0; shift < 3; shift++) {
    const shifted = Buffer.concat([Buffer.alloc(shift), bytes]);
    // Characters fully inside the secret's bits: from bit 8·shift to bit 8·(shift + length).
    const from = Math.ceil((8 * shift) / 6);
    const to = Math.floor((8 * (shift + bytes.length)) / 6);
    for (const encoding of ['base64', 'base64url'] as const) {
      const inner = shifted.toString(encoding).slice(from, to);
      if (inner.length > 0) forms.add(inner);
    }
  }
  forms.delete(secret);
  return [...forms];
}
