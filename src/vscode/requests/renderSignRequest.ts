// The Sign Request document: everything needed to compare our request with a failing one, field by
// field. Pure text from a PreparedRequest whose secrets the core has already masked (4+4).

import type { ClockSkew, PreparedRequest } from '../../core/compute/api';
import type { Profile } from '../services';
import { fence } from './markdownBlocks';

export interface SignRequestView {
  title: string;
  profile: Profile;
  prepared: PreparedRequest;
  /** The measured clock skew, or why it could not be measured. */
  skew: { ok: true; value: ClockSkew } | { ok: false; error: string };
  generatedAt: Date;
  /** Why the method differs from the catalog's (task detail: see methodNote). */
  note?: string;
}

/**
 * Task detail is a POST in the platform's spec, but the platform answers only GET ?task_id= (docs/platform.md).
 * The client tries the POST once per profile and signs GET after the refusal: say so wherever the two differ.
 */
export function methodNote(operation: string | undefined, catalogMethod: string | undefined, signedMethod: string): string | undefined {
  if (operation !== 'task.detail') return undefined;
  if (catalogMethod === signedMethod) {
    return 'The spec says POST; the platform answers only GET ?task_id=. This profile has not been refused yet, so POST is signed; after the first refusal it signs GET.';
  }
  return `The catalog lists ${catalogMethod ?? 'POST'} (the spec), but this profile's platform refused it and answers only GET ?task_id=, so GET is signed and sent.`;
}

const FIELD_NAMES = ['path', 'version', 'timestamp', 'token', 'body'] as const;
const WINDOW_MS = 5 * 60 * 1000;

/** Heading above the JSON literal of the string to sign; tests and users search for it. */
export const STRING_LITERAL_HEADING = 'The string to sign as one JSON string literal';

export function renderSignRequest(view: SignRequestView): string {
  const { prepared, profile } = view;
  const out: string[] = [];
  out.push(`# Sign Request: ${view.title}`, '');
  out.push(
    `Profile **${profile.label}** (${profile.environment}, ${prepared.mode === 'rsa' ? 'RSA signature' : 'token'} mode) · ` +
      `generated ${view.generatedAt.toISOString()} · nothing was sent except the clock measurement.`,
    '',
  );
  out.push('## Request', '', fence('text', `${prepared.method} ${prepared.url}`), '');
  if (view.note) out.push(`> ${view.note}`, '');
  out.push(`- Path as sent and signed: \`${inline(prepared.pathWithQuery)}\``);
  out.push(`- Body encrypted: ${prepared.encrypted ? 'yes (platform public key, 244-byte segments, one Base64)' : 'no'}`, '');

  if (prepared.mode === 'rsa' && prepared.stringToSignForDisplay !== undefined) {
    out.push(...renderStringToSign(prepared, prepared.stringToSignForDisplay));
  } else {
    out.push(
      '## String to sign',
      '',
      'Token mode does not sign: the platform checks the `token` header (sent with `version` and `timestamp`). ' +
        'Use an RSA-mode profile to see a signature.',
      '',
    );
  }

  out.push('## Headers', '', 'Token and signature masked (first 4 + last 4 characters).', '');
  out.push(fence('http', Object.entries(prepared.displayHeaders).map(([name, value]) => `${name}: ${value}`).join('\n')), '');

  out.push('## Body', '');
  if (prepared.body === '') {
    out.push('No body: the string to sign ends with the separator before the (empty) body field, never `{}` or `null`.', '');
  } else {
    out.push(prepared.encrypted ? 'As sent (Base64 ciphertext):' : 'As sent (compact JSON, secret fields masked):', '');
    out.push(fence(prepared.encrypted ? 'text' : 'json', prepared.body), '');
    if (prepared.plaintextBody !== undefined) {
      out.push('Plaintext before encryption (secret fields masked):', '', fence('json', prepared.plaintextBody), '');
    }
  }

  if (prepared.mode === 'rsa') {
    out.push('## Signature', '');
    out.push('RSA SHA-256, PKCS#1 v1.5 padding, standard Base64, sent in header `sign_str`.', '');
    out.push(`- \`sign_str\`: \`${inline(prepared.signatureForDisplay ?? '(none)')}\``);
    out.push(`- Self-verification: ${describeSelfVerification(prepared.selfVerified)}`, '');
  }

  out.push('## Clock', '');
  out.push(...renderClock(view), '');

  out.push('## curl', '');
  out.push(...renderCurl(prepared), '');
  out.push('## A failing request', '');
  out.push(
    'Copy its string to sign, `sign_str`, headers, curl command or the server reply, then run **Compare with a Failing Request…**: ' +
      'it compares them with this request field by field and points at the first difference.',
    '',
  );
  return out.join('\n');
}

function renderStringToSign(prepared: PreparedRequest, display: string): string[] {
  const fields = splitFields(display);
  const out: string[] = ['## String to sign', ''];
  out.push('Five fields joined with LF (0x0a); the token is masked here, the real one is signed.', '');
  const width = Math.max(...FIELD_NAMES.map((name) => name.length)) + 2;
  const rows = FIELD_NAMES.map((name, index) => {
    const value = fields[index] ?? '';
    return `${String(index + 1)}. ${name.padEnd(width)}${value === '' ? '(empty string)' : value}${note(name, value)}`;
  });
  out.push(fence('text', rows.join('\n')), '');
  out.push('With visible `\\n` markers (each real line ends where a separator is):', '');
  out.push(fence('text', FIELD_NAMES.map((_, index) => (fields[index] ?? '') + (index < FIELD_NAMES.length - 1 ? '\\n' : '')).join('\n')), '');
  out.push(`${STRING_LITERAL_HEADING} (token masked):`, '', fence('json', JSON.stringify(display)), '');
  if (prepared.stringToSignHexForDisplay !== undefined) {
    out.push('UTF-8 bytes (token bytes shown as `**`):', '', fence('text', prepared.stringToSignHexForDisplay), '');
  }
  return out;
}

/** The five fields; the body is everything after the fourth LF (it may itself contain LF). */
export function splitFields(stringToSign: string): string[] {
  const fields: string[] = [];
  let rest = stringToSign;
  for (let index = 0; index < 4; index++) {
    const at = rest.indexOf('\n');
    if (at === -1) break;
    fields.push(rest.slice(0, at));
    rest = rest.slice(at + 1);
  }
  fields.push(rest);
  return fields;
}

function note(name: (typeof FIELD_NAMES)[number], value: string): string {
  if (name === 'timestamp') return /^\d{13}$/.test(value) ? `   (13 digits, ${new Date(Number(value)).toISOString()})` : '   (NOT 13 digits)';
  if (name === 'version') return value === '1.0.0' ? '   (string, as the header)' : '   (expected "1.0.0")';
  if (name === 'token') return '   (masked)';
  return '';
}

/**
 * Secrets stay shell variables. In RSA mode the signature is recomputed with OpenSSL from the same five
 * fields (printf adds no trailing newline, exactly like the string to sign), so the command is complete.
 */
function renderCurl(prepared: PreparedRequest): string[] {
  const note =
    prepared.mode === 'rsa'
      ? 'The timestamp is accepted once and for 5 minutes: run Sign Request again for a fresh one.'
      : 'Token mode: the token header is the only credential.';
  return [`Secrets are shell variables. ${note}`, '', fence('sh', curlScript(prepared))];
}

/** The shell lines that send `prepared` with curl, the token (and in RSA mode the signature) as variables. */
export function curlScript(prepared: PreparedRequest): string {
  const lines = ["export COMPUTE_TOKEN='<your API token>'"];
  if (prepared.mode === 'rsa') {
    const fields = [prepared.pathWithQuery, prepared.version, prepared.timestamp].map(shellQuote);
    lines.push(
      '# sign_str: the five fields with your token, signed with your private key (PEM file)',
      `export SIGN_STR="$(printf '%s\\n%s\\n%s\\n%s\\n%s' ${fields.join(' ')} "$COMPUTE_TOKEN" ${shellQuote(prepared.body)} | ` +
        'openssl dgst -sha256 -sign private-key.pem | openssl base64 -A)"',
    );
  }
  lines.push(prepared.curl);
  return lines.join('\n');
}

/** POSIX single quoting. */
function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function describeSelfVerification(selfVerified: boolean | undefined): string {
  if (selfVerified === true) return 'passed: the signature verifies with the public half of the stored private key.';
  if (selfVerified === false) return 'FAILED: the signature does not verify with the public half of the stored private key (damaged key?).';
  return 'not run.';
}

function renderClock(view: SignRequestView): string[] {
  if (!view.skew.ok) return [`Clock skew could not be measured: ${view.skew.error}`];
  const { offsetMs, rttMs, outsideWindow } = view.skew.value;
  const seconds = (Math.abs(offsetMs) / 1000).toFixed(1);
  const direction = offsetMs > 0 ? 'behind' : 'ahead of';
  return [
    `- This computer's clock is ${seconds} s ${direction} the server's (from its Date header; round trip ${rttMs} ms).`,
    outsideWindow || Math.abs(offsetMs) >= WINDOW_MS
      ? '- **Outside** the 5-minute window: the platform rejects these timestamps as expired. Fix the system clock; the client corrects by the measured offset meanwhile.'
      : '- Inside the 5-minute window.',
  ];
}


function inline(text: string): string {
  return text.replace(/`/g, "'");
}
