// Authentication of interface A requests, strict in the way the platform is: every key sends
// `token`, `version` "1.0.0" and a 13-digit ms `timestamp` inside the 5-minute window (the
// platform's docs mark all three headers required, and its own token-mode script sends them);
// RSA-mode keys also send sign_str over the exact bytes received, with a timestamp never used
// before with that token.

import { constants, verify, type KeyObject } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { SandboxFailure } from './codes';
import { isStrictBase64 } from './decrypt';
import { TimestampLedger } from './timestampLedger';

export const API_VERSION = '1.0.0';
export const TIMESTAMP_WINDOW_MS = 5 * 60 * 1000;

export type KeyRecord = { mode: 'token' } | { mode: 'rsa'; clientPublicKey: KeyObject };

export interface Authenticated {
  token: string;
  mode: KeyRecord['mode'];
}

export interface AuthRequest {
  headers: IncomingHttpHeaders;
  /** Request target exactly as received (path?query), e.g. req.url. */
  rawPathWithQuery: string;
  rawBody: Buffer;
}

export class Authenticator {
  private readonly usedTimestamps: TimestampLedger;

  constructor(
    private readonly keys: ReadonlyMap<string, KeyRecord>,
    private readonly now: () => number,
  ) {
    this.usedTimestamps = new TimestampLedger(now, TIMESTAMP_WINDOW_MS);
  }

  authenticate(request: AuthRequest): Authenticated {
    const token = singleHeader(request.headers, 'token');
    if (token === undefined || token === '') throw new SandboxFailure('C001', 'missing header token');
    const key = this.keys.get(token);
    if (!key) throw new SandboxFailure('C001', 'unknown token: no API key with this token exists');

    const version = singleHeader(request.headers, 'version');
    const timestamp = singleHeader(request.headers, 'timestamp');
    if (key.mode === 'token') {
      // Token mode signs nothing, so a repeated timestamp proves nothing and is not refused.
      checkVersion(requireVersion(version));
      this.checkTimestamp(requireTimestamp(timestamp));
      return { token, mode: 'token' };
    }

    const signature = singleHeader(request.headers, 'sign_str');
    if (signature === undefined || signature === '') {
      throw new SandboxFailure('C007', 'this key is an RSA-mode key: header sign_str is required');
    }
    checkVersion(requireVersion(version));
    const timestampMs = this.checkTimestamp(requireTimestamp(timestamp));

    const signed = stringToSign(request.rawPathWithQuery, version ?? '', timestamp ?? '', token, request.rawBody);
    if (!isStrictBase64(signature)) throw new SandboxFailure('C002', 'signature verification failed: sign_str is not standard Base64');
    const signatureBytes = Buffer.from(signature, 'base64');
    const verified = verify('sha256', signed, { key: key.clientPublicKey, padding: constants.RSA_PKCS1_PADDING }, signatureBytes);
    if (!verified) {
      throw new SandboxFailure(
        'C002',
        'signature verification failed: sign_str does not match path?query, version, timestamp, token and body as received',
      );
    }
    // Checked after the signature so that a forged request cannot burn a client's timestamps.
    if (!this.usedTimestamps.use(token, timestampMs)) {
      throw new SandboxFailure('C004', 'timestamp already used with this token: send a fresh one per request');
    }
    return { token, mode: 'rsa' };
  }

  private checkTimestamp(timestamp: string): number {
    if (!/^\d{13}$/.test(timestamp)) {
      throw new SandboxFailure('C004', `timestamp must be 13-digit Unix time in milliseconds, got "${timestamp.slice(0, 40)}"`);
    }
    const timestampMs = Number(timestamp);
    const skewMs = timestampMs - this.now();
    if (Math.abs(skewMs) >= TIMESTAMP_WINDOW_MS) {
      throw new SandboxFailure('C004', `timestamp expired: ${Math.round(skewMs / 1000)} s from server time, allowed under 300 s`);
    }
    return timestampMs;
  }
}

function requireVersion(version: string | undefined): string {
  if (version === undefined) throw new SandboxFailure('C005', 'missing header version (expected the string "1.0.0")');
  return version;
}

function requireTimestamp(timestamp: string | undefined): string {
  if (timestamp === undefined) throw new SandboxFailure('C004', 'missing header timestamp (13-digit Unix time in ms)');
  return timestamp;
}

function checkVersion(version: string): void {
  if (version !== API_VERSION) throw new SandboxFailure('C005', `unsupported version "${version}": expected the string "1.0.0"`);
}

/**
 * `path?query \n version \n timestamp \n token \n body`, built from bytes as received. Node hands
 * header values and the request target over as latin1 strings, so latin1 gives back the raw bytes.
 */
export function stringToSign(rawPathWithQuery: string, version: string, timestamp: string, token: string, rawBody: Buffer): Buffer {
  const head = Buffer.from(`${rawPathWithQuery}\n${version}\n${timestamp}\n${token}\n`, 'latin1');
  return Buffer.concat([head, rawBody]);
}

function singleHeader(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
