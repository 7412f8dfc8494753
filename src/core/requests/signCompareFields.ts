// Field-level checks of the comparison between a pasted request and ours: path and query, version,
// timestamp, token and body. Each returns the first difference it finds, explained for a person, or
// undefined when the field would sign the same. Every value shown is masked and cut short.

import { coreText, englishText, type CoreArg, type CoreMessageKey, type CoreText } from '../errors/messages';
import { maskSecret, maskSecretsIn } from '../log';

export type FieldName = 'path' | 'version' | 'timestamp' | 'token' | 'body';

export type DifferenceKind =
  | 'field-count'
  | 'field-order'
  | 'separator'
  | 'path'
  | 'query-order'
  | 'query-escape-case'
  | 'query-plus'
  | 'query-unencoded'
  | 'query-double-encoded'
  | 'query-value'
  | 'version-numeric'
  | 'version-value'
  | 'timestamp-seconds'
  | 'timestamp-format'
  | 'timestamp-expired'
  | 'token-whitespace'
  | 'token-bearer'
  | 'token-value'
  | 'body-empty-object'
  | 'body-missing'
  | 'body-json-whitespace'
  | 'body-key-order'
  | 'body-trailing-newline'
  | 'body-value'
  | 'header-name'
  | 'header-missing'
  | 'header-unexpected';

export interface SignDifference {
  kind: DifferenceKind;
  /** The field or header the difference is in. */
  where: string;
  /** The explanation in English (the log, the agents); `words` is the same as a message key the editor words. */
  explanation: string;
  words: CoreText;
  /** Short, masked excerpts of both sides at the difference. */
  theirs?: string;
  /** `theirs` when it is a word, not an excerpt ("(the token)"). */
  theirsWords?: CoreText;
  ours?: string;
}

/** What we would send, with the secrets to mask in anything shown. */
export interface ExpectedRequest {
  path: string;
  version: string;
  timestamp: string;
  token: string;
  body: string;
  mode: 'rsa' | 'token';
  method: 'GET' | 'POST';
  /** Secret values (token, secret body fields) masked wherever a value is shown. */
  secrets: readonly string[];
  /** The body is encrypted: its ciphertext differs on every build, so only its shape is checked. */
  encrypted?: boolean;
}

/** An explanation as a core message key, with its English text. */
export function explain(key: CoreMessageKey, ...args: CoreArg[]): { explanation: string; words: CoreText } {
  const words = coreText(key, ...args);
  return { explanation: englishText(words), words };
}

const EXCERPT_CHARS = 60;
const FIVE_MINUTES_MS = 5 * 60 * 1000;

/** A short, masked, printable excerpt (control characters shown as escapes, so CR and LF stay visible). */
export function excerpt(text: string, secrets: readonly string[], from = 0): string {
  const start = Math.max(0, from - 20);
  const slice = maskSecretsIn(text, secrets).slice(start, start + EXCERPT_CHARS);
  const shown = JSON.stringify(slice).slice(1, -1);
  return `${start > 0 ? '…' : ''}${shown}${start + EXCERPT_CHARS < text.length ? '…' : ''}`;
}

function firstDifferenceAt(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) if (a[index] !== b[index]) return index;
  return length;
}

function splitQuery(pathWithQuery: string): { path: string; query: string } {
  const at = pathWithQuery.indexOf('?');
  return at === -1 ? { path: pathWithQuery, query: '' } : { path: pathWithQuery.slice(0, at), query: pathWithQuery.slice(at + 1) };
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

export function comparePath(theirs: string, expected: ExpectedRequest): SignDifference | undefined {
  const mine = splitQuery(expected.path);
  const other = splitQuery(theirs.trim());
  const show = (kind: DifferenceKind, key: CoreMessageKey): SignDifference => ({
    kind,
    where: 'path',
    ...explain(key),
    theirs: excerpt(theirs, expected.secrets, firstDifferenceAt(theirs, expected.path)),
    ours: excerpt(expected.path, expected.secrets, firstDifferenceAt(theirs, expected.path)),
  });
  if (mine.path !== other.path) {
    return show('path', 'compare.path');
  }
  if (mine.query === other.query) return undefined;
  if (other.query.includes('%25') && !mine.query.includes('%25')) {
    return show('query-double-encoded', 'compare.query.doubleEncoded');
  }
  if (/%(?:[0-9a-f][a-f]|[a-f][0-9a-f])/.test(other.query) && other.query.replace(/%[0-9a-fA-F]{2}/g, (escape) => escape.toUpperCase()) === mine.query) {
    return show('query-escape-case', 'compare.query.escapeCase');
  }
  if (other.query.includes('+') && other.query.replace(/\+/g, '%20') === mine.query) {
    return show('query-plus', 'compare.query.plus');
  }
  const theirPairs = other.query === '' ? [] : other.query.split('&');
  const myPairs = mine.query === '' ? [] : mine.query.split('&');
  if (theirPairs.length === myPairs.length && [...theirPairs].sort().join('&') === [...myPairs].sort().join('&')) {
    return show('query-order', 'compare.query.order');
  }
  const decodedTheirs = theirPairs.map(safeDecode);
  const decodedMine = myPairs.map(safeDecode);
  if (decodedTheirs.length === decodedMine.length && decodedTheirs.every((pair, index) => pair === decodedMine[index])) {
    return show('query-unencoded', 'compare.query.unencoded');
  }
  return show('query-value', 'compare.query.value');
}

export function compareVersion(theirs: string, expected: ExpectedRequest): SignDifference | undefined {
  if (theirs === expected.version) return undefined;
  const trimmed = theirs.trim().replace(/^"(.*)"$/, '$1');
  const base = { where: 'version', theirs: excerpt(theirs, []), ours: expected.version };
  if (/^\d+(\.0+)?$/.test(trimmed)) {
    return {
      ...base,
      kind: 'version-numeric',
      ...explain('compare.version.numeric', trimmed, expected.version),
    };
  }
  return { ...base, kind: 'version-value', ...explain('compare.version.value', expected.version) };
}

export function compareTimestamp(theirs: string, nowMs: number): SignDifference | undefined {
  const trimmed = theirs.trim();
  const base = { where: 'timestamp', theirs: excerpt(theirs, []) };
  if (/^\d{10}$/.test(trimmed)) {
    return { ...base, kind: 'timestamp-seconds', ...explain('compare.timestamp.seconds') };
  }
  if (!/^\d{13}$/.test(theirs)) {
    return { ...base, kind: 'timestamp-format', ...explain('compare.timestamp.format') };
  }
  const age = nowMs - Number(theirs);
  if (Math.abs(age) > FIVE_MINUTES_MS) {
    const minutes = Math.round(Math.abs(age) / 60_000);
    return {
      ...base,
      kind: 'timestamp-expired',
      ...explain(age > 0 ? 'compare.timestamp.old' : 'compare.timestamp.future', minutes),
    };
  }
  return undefined;
}

export function compareToken(theirs: string, expected: ExpectedRequest): SignDifference | undefined {
  if (theirs === expected.token) return undefined;
  const mine = maskSecret(expected.token);
  const base = { where: 'token', theirs: maskSecret(theirs.trim()), ours: mine };
  // A masked token pasted from our own display ("abcd…wxyz") matches when the masks match.
  if (theirs === mine) return undefined;
  if (theirs.trim() === expected.token) {
    return { ...base, kind: 'token-whitespace', ...explain('compare.token.whitespace') };
  }
  if (/^bearer\s+/i.test(theirs.trim()) && theirs.trim().replace(/^bearer\s+/i, '') === expected.token) {
    return { ...base, kind: 'token-bearer', ...explain('compare.token.bearer') };
  }
  return { ...base, kind: 'token-value', ...explain('compare.token.value') };
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A pasted JSON nested deeper than the stack allows is simply "different". */
function sameJson(test: () => boolean): boolean {
  try {
    return test();
  } catch {
    return false;
  }
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

export function compareBody(theirs: string, expected: ExpectedRequest): SignDifference | undefined {
  const mine = expected.body;
  if (theirs === mine) return undefined;
  const at = firstDifferenceAt(theirs, mine);
  const base = { where: 'body', theirs: excerpt(theirs, expected.secrets, at), ours: excerpt(mine, expected.secrets, at) };
  if (mine === '' && /^\s*(\{\s*\}|null|""|\[\s*\])\s*$/.test(theirs)) {
    return { ...base, kind: 'body-empty-object', ...explain('compare.body.emptyObject', theirs.trim()) };
  }
  if (theirs === '' && mine !== '') {
    return { ...base, kind: 'body-missing', ...explain('compare.body.missing') };
  }
  if (theirs.replace(/\r?\n$/, '') === mine) {
    return { ...base, kind: 'body-trailing-newline', ...explain('compare.body.trailingNewline') };
  }
  if (expected.encrypted) {
    return /^[A-Za-z0-9+/]+=*$/.test(theirs.trim())
      ? undefined
      : { ...base, kind: 'body-value', ...explain('compare.body.encrypted') };
  }
  const parsedTheirs = parseJson(theirs);
  const parsedMine = parseJson(mine);
  if (parsedTheirs.ok && parsedMine.ok) {
    if (sameJson(() => JSON.stringify(parsedTheirs.value) === mine)) {
      return { ...base, kind: 'body-json-whitespace', ...explain('compare.body.jsonWhitespace') };
    }
    if (sameJson(() => canonicalJson(parsedTheirs.value) === canonicalJson(parsedMine.value))) {
      return { ...base, kind: 'body-key-order', ...explain('compare.body.keyOrder') };
    }
  }
  return { ...base, kind: 'body-value', ...explain('compare.body.value') };
}
