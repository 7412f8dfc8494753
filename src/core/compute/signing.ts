// The request signature of RSA mode (docs/signing.md): five fields joined by LF, signed with
// RSA-SHA256 PKCS#1 v1.5, standard Base64. PKCS#1 v1.5 signing is deterministic, which is what lets
// tests compare our bytes with OpenSSL's.

import * as crypto from 'node:crypto';
import { ConfigError, coreText } from '../errors';
import { modulusBytes } from './keys';

export interface StringToSignFields {
  /** Path starting with '/', with `?query` exactly as sent. */
  path: string;
  version: string;
  /** 13-digit milliseconds, as in the header. */
  timestamp: string;
  token: string;
  /** The exact body text sent; "" when there is none; the Base64 ciphertext when encrypted. */
  body: string;
}

/**
 * `path\nversion\ntimestamp\ntoken\nbody`: all four separators always present, so an empty body
 * ends the string with "\n". A header field containing LF would shift every later field, so it is
 * refused rather than signed.
 */
export function stringToSign(fields: StringToSignFields): string {
  for (const name of ['path', 'version', 'timestamp', 'token'] as const) {
    const value = fields[name];
    if (typeof value !== 'string') {
      throw new ConfigError(coreText('sign.notString', name, typeof value));
    }
    if (value.includes('\n') || value.includes('\r')) {
      throw new ConfigError(coreText('sign.lineBreak', name), name === 'token' ? coreText('sign.lineBreak.hint') : undefined);
    }
  }
  if (!fields.path.startsWith('/')) {
    throw new ConfigError(coreText('sign.path', fields.path));
  }
  return `${fields.path}\n${fields.version}\n${fields.timestamp}\n${fields.token}\n${fields.body}`;
}

/** Signs the UTF-8 bytes of `data`; returns the standard-Base64 signature for header `sign_str`. */
export function sign(data: string, privateKey: crypto.KeyObject): string {
  return checkedSignature(crypto.sign('sha256', Buffer.from(data, 'utf8'), privateKey), privateKey);
}

/** Strings up to this many characters are signed in one go; longer ones are hashed in slices of this size. */
export const SIGN_SLICE_CHARS = 256 * 1024;

/**
 * The same signature as `sign`, but a long string (an encrypted body of megabytes) is hashed in slices
 * with a turn of the event loop between them, so no single turn hashes it all (docs/security.md).
 */
export async function signAsync(data: string, privateKey: crypto.KeyObject): Promise<string> {
  if (data.length <= SIGN_SLICE_CHARS) return sign(data, privateKey);
  const signer = crypto.createSign('sha256');
  // The first slice flattens `data` (the joined ciphertext): not on the turn that joined it.
  await new Promise<void>((resolve) => setImmediate(resolve));
  for (let start = 0; start < data.length; ) {
    let end = Math.min(start + SIGN_SLICE_CHARS, data.length);
    // Never between the halves of a surrogate pair: each half alone would be encoded as U+FFFD.
    const last = data.charCodeAt(end - 1);
    if (end < data.length && last >= 0xd800 && last <= 0xdbff) end--;
    signer.update(data.slice(start, end), 'utf8');
    start = end;
    if (start < data.length) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return checkedSignature(signer.sign(privateKey), privateKey);
}

function checkedSignature(signature: Buffer, privateKey: crypto.KeyObject): string {
  // The platform's web client re-signs unless the signature is exactly one modulus long (256 B for
  // 2048-bit keys). OpenSSL always pads to that length; this guards against a surprising backend.
  const expected = modulusBytes(privateKey);
  if (signature.length !== expected) {
    throw new ConfigError(coreText('sign.length', signature.length, expected * 8, expected));
  }
  return signature.toString('base64');
}

/** Checks a Base64 signature against `data` with a public key (our own self-check). */
export function verify(data: string, signatureBase64: string, publicKey: crypto.KeyObject): boolean {
  return crypto.verify('sha256', Buffer.from(data, 'utf8'), publicKey, Buffer.from(signatureBase64, 'base64'));
}
