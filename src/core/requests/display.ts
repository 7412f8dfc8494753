// Turns a built request into what the Sign Request command shows: the same bytes, with every
// secret (token, signature, secret body fields) masked 4+4, plus a hex dump and a curl command.

import { maskSecret, maskSecretsIn } from '../log';
import type { PreparedRequest } from '../compute/api';
import type { BuiltRequest } from '../compute/request';

const MASKED_BYTE = '**';

/** Byte ranges [start, end) of every occurrence of each secret's UTF-8 bytes in `bytes`. */
export function secretByteRanges(bytes: Buffer, secrets: readonly string[]): [number, number][] {
  const ranges: [number, number][] = [];
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    const needle = Buffer.from(secret, 'utf8');
    for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + needle.length)) {
      ranges.push([at, at + needle.length]);
    }
  }
  return ranges;
}

/**
 * Classic 16-bytes-per-line dump: offset, hex pairs, printable ASCII. Bytes inside `masked` ranges
 * show as "**" and "*", so a pasted dump reveals the layout (LFs at 0a) but no secret.
 */
export function hexDump(bytes: Buffer, masked: readonly [number, number][] = []): string {
  const isMasked = (index: number): boolean => masked.some(([start, end]) => index >= start && index < end);
  const lines: string[] = [];
  for (let offset = 0; offset < bytes.length; offset += 16) {
    const hex: string[] = [];
    let ascii = '';
    for (let i = offset; i < Math.min(offset + 16, bytes.length); i++) {
      const byte = bytes[i] ?? 0;
      if (isMasked(i)) {
        hex.push(MASKED_BYTE);
        ascii += '*';
      } else {
        hex.push(byte.toString(16).padStart(2, '0'));
        ascii += byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.';
      }
    }
    lines.push(`${offset.toString(16).padStart(8, '0')}  ${hex.join(' ').padEnd(47)}  |${ascii}|`);
  }
  return lines.join('\n');
}

/** POSIX shell single-quoting. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Body text with secret field values masked (the JSON text form of each value). */
function bodySecrets(built: BuiltRequest): string[] {
  // Values appear in the compact JSON with JSON escaping; mask that form.
  return built.plan.secretValues.map((value) => JSON.stringify(value).slice(1, -1));
}

export function curlCommand(built: BuiltRequest, displayBody: string): string {
  // --globoff: curl would otherwise expand [] and {} in the URL instead of sending them as signed.
  const parts: string[] = built.plan.method === 'GET' ? ['curl', '--globoff', shellQuote(built.url)] : ['curl', '--globoff', '-X', 'POST', shellQuote(built.url)];
  for (const [name, value] of Object.entries(built.headers)) {
    if (name === 'token') parts.push('-H', '"token: $COMPUTE_TOKEN"');
    else if (name === 'sign_str') parts.push('-H', '"sign_str: $SIGN_STR"');
    else parts.push('-H', shellQuote(`${name}: ${value}`));
  }
  if (built.plan.method === 'POST') parts.push('--data-raw', shellQuote(displayBody));
  return parts.join(' ');
}

/** The PreparedRequest for a built request. `selfVerified` is computed by the caller (it needs crypto). */
export function toPreparedRequest(built: BuiltRequest, selfVerified: boolean | undefined): PreparedRequest {
  const secretsInBody = built.plan.encrypt ? [] : bodySecrets(built);
  const displayBody = maskSecretsIn(built.body, secretsInBody);
  const displayHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(built.headers)) {
    displayHeaders[name] = name === 'token' || name === 'sign_str' ? maskSecret(value) : value;
  }
  const prepared: PreparedRequest = {
    method: built.plan.method,
    url: built.url,
    pathWithQuery: built.signedPath,
    displayHeaders,
    body: displayBody,
    encrypted: built.plan.encrypt,
    mode: built.mode,
    version: built.version,
    timestamp: built.timestamp,
    curl: curlCommand(built, displayBody),
  };
  if (built.plan.encrypt && built.plan.jsonBody !== undefined) {
    prepared.plaintextBody = maskSecretsIn(built.plan.jsonBody, bodySecrets(built));
  }
  if (built.stringToSign !== undefined && built.signature !== undefined) {
    const secrets = [built.token, ...secretsInBody];
    prepared.stringToSignForDisplay = maskSecretsIn(built.stringToSign, secrets);
    const bytes = Buffer.from(built.stringToSign, 'utf8');
    prepared.stringToSignHexForDisplay = hexDump(bytes, tokenAndSecretRanges(built, bytes, secretsInBody));
    prepared.signatureForDisplay = maskSecret(built.signature);
    if (selfVerified !== undefined) prepared.selfVerified = selfVerified;
  }
  return prepared;
}

/** The token's exact position (4th field) plus any secret body values. */
function tokenAndSecretRanges(built: BuiltRequest, bytes: Buffer, secretsInBody: string[]): [number, number][] {
  const tokenStart = Buffer.byteLength(`${built.signedPath}\n${built.version}\n${built.timestamp}\n`, 'utf8');
  const tokenEnd = tokenStart + Buffer.byteLength(built.token, 'utf8');
  const bodyStart = tokenEnd + 1;
  const bodyRanges = secretByteRanges(bytes.subarray(bodyStart), secretsInBody).map(
    ([start, end]): [number, number] => [start + bodyStart, end + bodyStart],
  );
  return [[tokenStart, tokenEnd], ...bodyRanges];
}
