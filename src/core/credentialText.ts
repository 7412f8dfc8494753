// Credentials found by their shape rather than their value (docs/security.md): the value of a key that
// names a credential — password, Password, PASSWORD, passwd, pwd, pass, secret, token, api key, access
// key, private key, authorization, cookie, in any case and joined by `_`, `-` or `.` (HF_TOKEN,
// x-api-key, client.secret, accessToken) — in JSON (also JSON-escaped keys and JSON inside a JSON
// string), YAML, headers, env lines and query strings (also percent-encoded); and the password of a
// `user:password@` inside any URL. Keys are matched on the canonical text (redaction.ts: escapes
// decoded, case folded) and each value is cut in the original text. One pass for each, linear in the text.

import { canonicalize, type CanonicalText } from './redaction';

const MASK = '••••••';

/** A key segment that names a credential on its own (`HF_TOKEN`, `db.password`, `pass`). */
const CREDENTIAL_SEGMENTS = new Set(['password', 'passwd', 'passphrase', 'pwd', 'pass', 'secret', 'token', 'apikey', 'credential', 'credentials', 'auth', 'authorization', 'cookie']);
/** A key that ends with one of these once its separators are gone (`accessToken`, `x-api-key`, `s3_secret_key`). */
const CREDENTIAL_ENDINGS = ['password', 'passwd', 'passphrase', 'secret', 'token', 'apikey', 'accesskey', 'secretkey', 'privatekey', 'credentials'];
/** Keys whose value is a scheme and a credential (`Basic dXNlcjpwdw==`). */
const SCHEME_KEYS = new Set(['authorization', 'proxyauthorization']);

/** A key (canonical: lower case, escapes decoded) before `:` or `=`, optionally quoted. Bounded: no backtracking beyond 64 characters. */
const KEY = /(?<![a-z0-9_.-])([a-z0-9][a-z0-9_.-]{0,63})(["']?)[ \t]*[:=]/g;
/** A value the Redactor already masked (log.ts: a 4+4 mask, dots, "[redacted]"), after an optional scheme. */
const ALREADY_MASKED = /^(?:[A-Za-z]+ )?(?:[^\s…]{0,4}…[^\s…]{0,4}|•+|\[(?:[a-z]+ )?redacted\]?)$/;
/** Cheap test on the raw text: nothing to look at when none of these occur. */
const PROBE = /pass|pwd|secret|token|key|auth|cookie|credential|:\/\/|:\\\/\\\/|%|\\u/i;

/** True for a key or header name that names a credential (any case): `Password`, `X-Api-Key`, `Set-Cookie`. */
export function isCredentialKey(name: string): boolean {
  const segments = name.toLowerCase().split(/[_.-]/);
  if (segments.some((segment) => CREDENTIAL_SEGMENTS.has(segment))) return true;
  const joined = segments.join('');
  return CREDENTIAL_ENDINGS.some((ending) => joined.endsWith(ending));
}

/** End of a bare value: whitespace, a delimiter of JSON, a query or a list, or one of them percent-encoded. */
function bareEnd(text: string, from: number): number {
  let index = from;
  while (index < text.length) {
    const character = text[index] as string;
    if (/[\s&,;"'}\])<>#\\]/.test(character)) break;
    if (character === '%' && /^%(2[026C7]|3B)/i.test(text.slice(index, index + 3))) break;
    index++;
  }
  return index;
}

/** End of a JSON string's content starting after its opening quote at `from` (at its closing quote, or the line's end). */
function jsonStringEnd(text: string, from: number): number {
  let index = from;
  while (index < text.length) {
    const character = text[index];
    if (character === '\\') index += 2;
    else if (character === '"' || character === '\n') break;
    else index++;
  }
  return Math.min(index, text.length);
}

/**
 * End of a string inside a JSON string (`\"…\"`), content starting at `from`: its closing `\"` is a quote
 * after 4k+1 backslashes (one level of escaping; `\\\"` is an escaped quote inside it).
 */
function escapedStringEnd(text: string, from: number): number {
  let index = from;
  while (index < text.length) {
    if (text[index] === '\n') break;
    if (text[index] !== '\\') {
      index++;
      continue;
    }
    let run = 0;
    while (text[index + run] === '\\') run++;
    if (text[index + run] === '"' && run % 4 === 1) break;
    index += run + 1;
  }
  return Math.min(index, text.length);
}

/** The range of the value that starts at `at` (after the separator), or undefined when there is none to mask. */
function valueRange(text: string, at: number, key: string): [number, number] | undefined {
  let start = at;
  while (text[start] === ' ' || text[start] === '\t') start++;
  const first = text[start];
  let end: number;
  if (first === '"') end = jsonStringEnd(text, ++start);
  else if (first === '\\' && text[start + 1] === '"') end = escapedStringEnd(text, (start += 2));
  else if (first === "'") {
    end = ++start;
    while (end < text.length && text[end] !== "'" && text[end] !== '\n') end++;
  } else if (first === '{' || first === '[' || first === '«' || first === undefined) {
    return undefined; // a structure, a spec reference shown as «secret: name», or nothing: looked into on their own
  } else {
    end = bareEnd(text, start);
    const value = text.slice(start, end).toLowerCase();
    if (value === 'null' || value === 'true' || value === 'false') return undefined;
    // `Authorization: Basic dXNlcjpwdw==`: the scheme and its credential.
    if (SCHEME_KEYS.has(key.replace(/[_.-]/g, '')) && text[end] === ' ' && end > start) end = bareEnd(text, end + 1);
  }
  if (end <= start) return undefined;
  const value = text.slice(start, end);
  // A spec reference as YAML quotes it ("«secret: name»": the ": " needs quotes) names a secret, it is none.
  return ALREADY_MASKED.test(value) || SPEC_REFERENCE.test(value) ? undefined : [start, end];
}

/** How a plan shows a spec file's reference (src/core/specs/secrets.ts refText). */
const SPEC_REFERENCE = /^«(?:secret|env): [^»\n]{1,256}»$/;

/**
 * A spec file's reference names a stored secret; the name is not one: `«secret: name»` (how plans show
 * it, src/core/specs/secrets.ts) and YAML's `{secret: name}` with the key unquoted. A quoted
 * `{"secret": "…"}` is a server's or a library's field and is masked.
 */
function isSecretReference(canonical: string, keyStart: number, key: string): boolean {
  if (key !== 'secret') return false;
  let index = keyStart - 1;
  while (index >= 0 && (canonical[index] === ' ' || canonical[index] === '\t')) index--;
  return canonical[index] === '«' || canonical[index] === '{';
}

/**
 * Ranges (original text) of credential values after credential keys. A key inside a value already masked
 * is passed over, so no part of the text is scanned for a value twice (linear).
 */
function fieldRanges(text: string, canonical: CanonicalText): [number, number][] {
  const ranges: [number, number][] = [];
  let maskedUntil = 0;
  KEY.lastIndex = 0;
  for (let match = KEY.exec(canonical.text); match !== null; match = KEY.exec(canonical.text)) {
    const key = match[1] as string;
    const valueAt = canonical.ends[match.index + match[0].length - 1] ?? text.length;
    if (valueAt < maskedUntil || !isCredentialKey(key) || isSecretReference(canonical.text, match.index, key)) continue;
    const range = valueRange(text, valueAt, key);
    if (!range) continue;
    ranges.push(range);
    maskedUntil = range[1];
  }
  return ranges;
}

/** Ranges (original text) of the password in `scheme://user:password@host`. */
function userInfoRanges(canonical: CanonicalText): [number, number][] {
  const ranges: [number, number][] = [];
  const text = canonical.text;
  let search = 0;
  for (let scheme = text.indexOf('://', search); scheme !== -1; scheme = text.indexOf('://', search)) {
    const from = scheme + 3;
    let index = from;
    let at = -1;
    let colon = -1;
    while (index < text.length && !/[\s/?#"'<>\\)]/.test(text[index] as string)) {
      if (text[index] === '@') at = index;
      else if (text[index] === ':' && colon === -1) colon = index;
      index++;
    }
    if (at !== -1 && colon !== -1 && colon + 1 < at) ranges.push([canonical.starts[colon + 1] ?? 0, canonical.ends[at - 1] ?? 0]);
    search = Math.max(index, from);
  }
  return ranges;
}

/** `text` with every credential value found by its shape replaced by a mask. Linear in the text. */
export function maskCredentials(text: string): string {
  if (!PROBE.test(text)) return text;
  const canonical = canonicalize(text, true, true);
  const ranges = [...fieldRanges(text, canonical), ...userInfoRanges(canonical)].sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  if (ranges.length === 0) return text;
  let out = '';
  let position = 0;
  for (const [from, to] of ranges) {
    if (to <= position) continue;
    out += text.slice(position, Math.max(from, position)) + (from >= position ? MASK : '');
    position = to;
  }
  return out + text.slice(position);
}
