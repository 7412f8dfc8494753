// Compares what a user pastes from a failing request (a string to sign, its JSON literal, raw headers,
// a curl command, a signature or the server's reply) with what this extension would send, field by
// field, and names the first difference with an explanation. Pasted text is untrusted: it is cut to
// MAX_PASTE_CHARS, scanned in linear time, and every value shown is masked and short.

import { coreText, englishText, type CoreText } from '../errors/messages';
import { maskSecretsIn } from '../log';
import { trimEnd } from '../textTrim';
import {
  compareBody,
  comparePath,
  compareTimestamp,
  compareToken,
  compareVersion,
  excerpt,
  explain,
  type ExpectedRequest,
  type FieldName,
  type SignDifference,
} from './signCompareFields';

export type { DifferenceKind, ExpectedRequest, FieldName, SignDifference } from './signCompareFields';

export type PastedKind = 'string-to-sign' | 'headers' | 'reply' | 'signature' | 'empty';

export interface SignComparison {
  pastedKind: PastedKind;
  /** The first difference, in the order the platform reads the request; undefined when none was found. */
  first: SignDifference | undefined;
  differences: SignDifference[];
  /** What could not be compared, or what the paste tells besides differences (English, for the log and the agents). */
  notes: string[];
  /** The same notes as message keys, worded by the editor in the display language. */
  noteWords: CoreText[];
  /** The paste was longer than MAX_PASTE_CHARS and only its beginning was read. */
  truncated: boolean;
}

export const MAX_PASTE_CHARS = 256 * 1024;
const MAX_SHOWN_MESSAGE = 300;
const FIELD_ORDER: readonly FieldName[] = ['path', 'version', 'timestamp', 'token', 'body'];

export function comparePasted(pasted: string, expected: ExpectedRequest, nowMs: number): SignComparison {
  const truncated = pasted.length > MAX_PASTE_CHARS;
  const text = truncated ? pasted.slice(0, MAX_PASTE_CHARS) : pasted;
  const result = (pastedKind: PastedKind, differences: SignDifference[], notes: CoreText[] = []): SignComparison => {
    const noteWords = truncated ? [...notes, coreText('compare.note.truncated', MAX_PASTE_CHARS)] : notes;
    return { pastedKind, first: differences[0], differences, notes: noteWords.map(englishText), noteWords, truncated };
  };
  const trimmed = text.trim();
  if (trimmed === '') return result('empty', [], [coreText('compare.note.empty')]);

  const reply = asReply(trimmed, expected.secrets);
  if (reply) return result('reply', [], reply);
  const literal = asJsonString(trimmed);
  if (literal !== undefined) return result('string-to-sign', compareStringToSign(literal, expected, nowMs));
  const headers = asHeaders(text);
  if (headers) return result('headers', compareHeaders(headers, expected, nowMs), headers.notes);
  if (/^(sign_str\s*:\s*)?[A-Za-z0-9+/_-]{40,}={0,2}$/.test(trimmed)) return result('signature', [], signatureNotes(trimmed.replace(/^sign_str\s*:\s*/, '')));
  return result('string-to-sign', compareStringToSign(text, expected, nowMs));
}

// ---- the string to sign ----

export function compareStringToSign(text: string, expected: ExpectedRequest, nowMs: number): SignDifference[] {
  const differences: SignDifference[] = [];
  let separator = '\n';
  if (text.includes('\r\n')) {
    separator = '\r\n';
    differences.push({
      kind: 'separator',
      where: 'separator',
      ...explain('compare.separator.crlf'),
      theirs: '\\r\\n',
      ours: '\\n',
    });
  } else if (!text.includes('\n') && text.includes('\\n')) {
    separator = '\\n';
    differences.push({
      kind: 'separator',
      where: 'separator',
      ...explain('compare.separator.escaped'),
      theirs: '\\\\n',
      ours: '\\n',
    });
  }
  const fields = splitFields(text, separator);
  if (fields.length < FIELD_ORDER.length) {
    differences.push({
      kind: 'field-count',
      where: 'separator',
      ...explain(fields.length === 1 ? 'compare.fieldCount.one' : 'compare.fieldCount', fields.length),
      theirs: excerpt(text, expected.secrets),
    });
  }
  const misplaced = findMisplacedField(fields, expected);
  if (misplaced) {
    differences.push(misplaced);
    return differences;
  }
  const checks: ((value: string) => SignDifference | undefined)[] = [
    (value) => comparePath(value, expected),
    (value) => compareVersion(value, expected),
    (value) => compareTimestamp(value, nowMs),
    (value) => compareToken(value, expected),
    (value) => compareBody(value, expected),
  ];
  fields.forEach((value, index) => {
    const difference = checks[index]?.(value);
    if (difference) differences.push(difference);
  });
  return differences;
}

/** Up to five fields; the body is everything after the fourth separator (it may contain line feeds). */
function splitFields(text: string, separator: string): string[] {
  const fields: string[] = [];
  let rest = text;
  for (let index = 0; index < FIELD_ORDER.length - 1; index++) {
    const at = rest.indexOf(separator);
    if (at === -1) break;
    fields.push(rest.slice(0, at));
    rest = rest.slice(at + separator.length);
  }
  fields.push(rest);
  return fields;
}

/** What a pasted field most likely is, from its shape; undefined when it could be anything. */
function classify(value: string, expected: ExpectedRequest): FieldName | undefined {
  const trimmed = value.trim();
  if (trimmed.startsWith('/')) return 'path';
  if (/^\d{10,13}$/.test(trimmed)) return 'timestamp';
  if (/^"?\d+(\.\d+){0,2}"?$/.test(trimmed)) return 'version';
  if (trimmed !== '' && (trimmed === expected.token || trimmed.replace(/^bearer\s+/i, '') === expected.token)) return 'token';
  if (/^[[{]/.test(trimmed)) return 'body';
  return undefined;
}

function findMisplacedField(fields: readonly string[], expected: ExpectedRequest): SignDifference | undefined {
  for (let index = 0; index < Math.min(fields.length, FIELD_ORDER.length - 1); index++) {
    const value = fields[index] ?? '';
    const kind = classify(value, expected);
    const wanted = FIELD_ORDER[index] ?? 'body';
    if (kind === undefined || kind === wanted) continue;
    return {
      kind: 'field-order',
      where: wanted,
      ...explain('compare.fieldOrder', index + 1, fieldWords(kind), fieldWords(wanted)),
      ...(kind === 'token' ? { theirs: englishText(coreText('compare.theToken')), theirsWords: coreText('compare.theToken') } : { theirs: excerpt(value, expected.secrets) }),
    };
  }
  return undefined;
}

/** A field's name as a message ("the timestamp", worded in the display language by the editor). */
export function fieldWords(field: FieldName | 'separator'): CoreText {
  return coreText(`compare.field.${field}`);
}

// ---- headers, curl commands ----

interface PastedHeaders {
  /** Lower-cased name → value (first occurrence). */
  values: Map<string, { name: string; value: string }>;
  path?: string;
  body?: string;
  notes: CoreText[];
}

const REQUEST_LINE = /^(GET|POST|PUT|DELETE)\s+(\S+)(\s+HTTP\/[\d.]+)?$/;
const HEADER_LINE = /^([A-Za-z0-9_-]{1,64})\s*:\s?(.*)$/;
const KNOWN_HEADERS = ['token', 'version', 'timestamp', 'sign_str'];

function asHeaders(text: string): PastedHeaders | undefined {
  const trimmed = text.trim();
  if (/^curl\s/.test(trimmed)) return curlHeaders(trimmed);
  const values = new Map<string, { name: string; value: string }>();
  let path: string | undefined;
  let body: string | undefined;
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const request = REQUEST_LINE.exec(line.trim());
    if (request && path === undefined && values.size === 0) {
      path = pathOf(request[2] ?? '');
      continue;
    }
    if (line.trim() === '' && values.size > 0) {
      body = lines.slice(index + 1).join('\n');
      break;
    }
    const pseudoPath = /^:path:\s*(\S+)$/.exec(line.trim());
    if (pseudoPath && path === undefined) {
      // HTTP/2 as browsers' developer tools show it.
      path = pathOf(pseudoPath[1] ?? '');
      continue;
    }
    const header = HEADER_LINE.exec(line.trim());
    if (header && !values.has((header[1] ?? '').toLowerCase())) values.set((header[1] ?? '').toLowerCase(), { name: header[1] ?? '', value: header[2] ?? '' });
  }
  const known = [...values.keys()].filter((name) => KNOWN_HEADERS.includes(normalizeName(name)));
  if (known.length < 2 && path === undefined) return undefined;
  return { values, ...(path !== undefined ? { path } : {}), ...(body !== undefined && body.trim() !== '' ? { body } : {}), notes: [] };
}

/** `-H 'name: value'`, the URL and `--data-raw`/`-d` of a curl command (single- or double-quoted). */
function curlHeaders(text: string): PastedHeaders {
  const values = new Map<string, { name: string; value: string }>();
  const notes: CoreText[] = [];
  let path: string | undefined;
  let body: string | undefined;
  // The flag and its spaces are matched only where a flag starts, so a long run of spaces stays linear.
  // Browsers' "Copy as cURL" writes bodies with escapes as $'…'.
  const argument = /(?:(-H|--header|--data-raw|--data-binary|--data|-d)\s+\$?)?(?:'([^']*)'|"([^"]*)")/g;
  for (const match of text.matchAll(argument)) {
    const value = match[2] ?? match[3] ?? '';
    if (match[1] === '-H' || match[1] === '--header') {
      const header = HEADER_LINE.exec(value);
      if (header && !values.has((header[1] ?? '').toLowerCase())) values.set((header[1] ?? '').toLowerCase(), { name: header[1] ?? '', value: header[2] ?? '' });
    } else if (match[1] !== undefined) {
      body = value;
    } else if (/^https?:\/\//.test(value) && path === undefined) {
      path = pathOf(value);
    }
  }
  if ([...values.values()].some(({ value }) => value.includes('$'))) notes.push(coreText('compare.note.shellVariables'));
  return { values, ...(path !== undefined ? { path } : {}), ...(body !== undefined ? { body } : {}), notes };
}

function pathOf(target: string): string {
  const match = /^https?:\/\/[^/?#]*(.*)$/.exec(target);
  const path = match ? match[1] ?? '' : target;
  return path === '' ? '/' : path;
}

function normalizeName(name: string): string {
  const compact = name.toLowerCase().replace(/[-_\s]/g, '');
  return compact === 'signstr' || compact === 'sign' || compact === 'signature' ? 'sign_str' : compact;
}

function compareHeaders(pasted: PastedHeaders, expected: ExpectedRequest, nowMs: number): SignDifference[] {
  const differences: SignDifference[] = [];
  if (pasted.path !== undefined) pushIf(differences, comparePath(pasted.path, expected));
  const wanted = expected.mode === 'rsa' ? KNOWN_HEADERS : KNOWN_HEADERS.filter((name) => name !== 'sign_str');
  for (const name of wanted) {
    const exact = pasted.values.get(name);
    const variant = exact ?? [...pasted.values.values()].find((header) => normalizeName(header.name) === name);
    if (!variant) {
      differences.push({ kind: 'header-missing', where: name, ...explain('compare.header.missing', name) });
      continue;
    }
    if (!exact) {
      differences.push({
        kind: 'header-name',
        where: name,
        ...explain('compare.header.name', variant.name, name),
        theirs: excerpt(variant.name, []),
        ours: name,
      });
    }
    if (variant.value.includes('$')) continue;
    if (name === 'version') pushIf(differences, compareVersion(variant.value, expected));
    if (name === 'timestamp') pushIf(differences, compareTimestamp(variant.value, nowMs));
    if (name === 'token') pushIf(differences, compareToken(variant.value, expected));
  }
  if (expected.mode === 'token' && [...pasted.values.values()].some((header) => normalizeName(header.name) === 'sign_str')) {
    differences.push({
      kind: 'header-unexpected',
      where: 'sign_str',
      ...explain('compare.header.unexpected'),
    });
  }
  if (pasted.body !== undefined) pushIf(differences, compareBody(pasted.body, expected));
  return differences;
}

function pushIf(list: SignDifference[], difference: SignDifference | undefined): void {
  if (difference) list.push(difference);
}

// ---- replies, signatures, JSON literals ----

function asJsonString(text: string): string | undefined {
  if (!text.startsWith('"') || !text.endsWith('"')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

function asReply(text: string, secrets: readonly string[]): CoreText[] | undefined {
  if (!text.startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (!('code' in record) && !('msg' in record) && !('message' in record) && !('success' in record)) return undefined;
  const message = record.msg ?? record.message;
  const shown = (item: unknown): CoreText | string => {
    if (item === undefined || item === null) return coreText('compare.none');
    const textValue = maskSecretsIn(typeof item === 'string' ? item : JSON.stringify(item) ?? '', secrets);
    return textValue.length > MAX_SHOWN_MESSAGE ? `${textValue.slice(0, MAX_SHOWN_MESSAGE)}…` : textValue;
  };
  return [
    coreText('compare.note.reply', shown(record.code), shown(message)),
    coreText('compare.note.reply.hint'),
  ];
}

function signatureNotes(signature: string): CoreText[] {
  const notes = [coreText('compare.note.signatureAlone')];
  if (/[-_]/.test(signature)) notes.push(coreText('compare.note.urlSafe'));
  const bytes = Math.floor((trimEnd(signature, '=').length * 3) / 4);
  if (bytes !== 256 && bytes !== 384 && bytes !== 512) notes.push(coreText('compare.note.signatureBytes', bytes));
  return notes;
}
