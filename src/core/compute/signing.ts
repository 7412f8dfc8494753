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
  const signature = crypto.sign('sha256', Buffer.from(data, 'utf8'), privateKey);
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
