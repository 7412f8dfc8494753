// A minimal interface A client built by hand on node:crypto and fetch, for the sandbox's own
// contract tests. It is deliberately independent of src/core/compute (the code under test
// elsewhere), and every step can be bent to produce exactly the malformed request a test needs.

import { constants, createPrivateKey, createPublicKey, publicEncrypt, sign, type KeyObject } from 'node:crypto';

export const VERSION = '1.0.0';
const SEGMENT_BYTES = 244;

let lastTimestamp = 0;

/**
 * A fresh 13-digit ms timestamp, never reused within this process: two calls in the same
 * millisecond get consecutive values. A test that moved far off (a skewed clock) and back
 * starts again from the clock, since the values in between were never used.
 */
export function freshTimestamp(clockOffsetMs = 0): string {
  const candidate = Date.now() + clockOffsetMs;
  lastTimestamp = candidate > lastTimestamp || lastTimestamp - candidate > 60_000 ? candidate : lastTimestamp + 1;
  return String(lastTimestamp);
}

export function stringToSign(pathWithQuery: string, version: string, timestamp: string, token: string, body: string): string {
  return [pathWithQuery, version, timestamp, token, body].join('\n');
}

export function signText(privateKey: KeyObject | string, text: string): string {
  const key = typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey;
  return sign('sha256', Buffer.from(text, 'utf8'), { key, padding: constants.RSA_PKCS1_PADDING }).toString('base64');
}

/** docs/signing.md: compact JSON, UTF-8, 244-byte segments, PKCS#1 v1.5 each, concatenated, one Base64. */
export function encryptJson(platformPublicKey: KeyObject | string, value: unknown): string {
  const key = typeof platformPublicKey === 'string' ? createPublicKey(platformPublicKey) : platformPublicKey;
  const plain = Buffer.from(JSON.stringify(value), 'utf8');
  const blocks: Buffer[] = [];
  for (let offset = 0; offset < plain.length; offset += SEGMENT_BYTES) {
    blocks.push(publicEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, plain.subarray(offset, offset + SEGMENT_BYTES)));
  }
  return Buffer.concat(blocks).toString('base64');
}

export interface HandResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or undefined when it is not JSON. */
  json: Record<string, unknown> | undefined;
  code: unknown;
  data: unknown;
  message: unknown;
}

export interface HandRequest {
  method?: string;
  /** Path with ?query, sent exactly as given. */
  path: string;
  body?: string;
  /** Header values; `undefined` leaves a header out. */
  headers?: Record<string, string | undefined>;
  signal?: AbortSignal;
}

export async function sendRaw(baseUrl: string, request: HandRequest): Promise<HandResponse> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) if (value !== undefined) headers[name] = value;
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: request.method ?? 'GET',
    headers,
    ...(request.body !== undefined ? { body: request.body } : {}),
    ...(request.signal ? { signal: request.signal } : {}),
  });
  const text = await response.text();
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = undefined; // HTML pages and empty bodies are legitimate answers here
  }
  return {
    status: response.status,
    headers: response.headers,
    text,
    json,
    code: json?.code,
    data: json?.data,
    message: json?.message ?? json?.msg,
  };
}

export interface RsaRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: string;
  contentType?: string;
  timestamp?: string;
  version?: string;
  /** Replace what is signed (the request itself is sent unchanged). */
  signedPath?: string;
  signedBody?: string;
  signingKey?: KeyObject | string;
  /** Header names to leave out, e.g. ['sign_str']. */
  omit?: string[];
  signature?: string;
}

export interface RsaCredentials {
  token: string;
  privateKeyPem: string;
}

/** Builds and sends an RSA-mode request; every part can be overridden to make it wrong. */
export async function sendRsa(baseUrl: string, credentials: RsaCredentials, request: RsaRequest): Promise<HandResponse> {
  const version = request.version ?? VERSION;
  const timestamp = request.timestamp ?? freshTimestamp();
  const body = request.body ?? '';
  const signed = stringToSign(request.signedPath ?? request.path, version, timestamp, credentials.token, request.signedBody ?? body);
  const headers: Record<string, string | undefined> = {
    token: credentials.token,
    version,
    timestamp,
    sign_str: request.signature ?? signText(request.signingKey ?? credentials.privateKeyPem, signed),
  };
  if (request.body !== undefined) headers['content-type'] = request.contentType ?? 'application/json';
  for (const name of request.omit ?? []) headers[name] = undefined;
  return sendRaw(baseUrl, { method: request.method ?? (request.body === undefined ? 'GET' : 'POST'), path: request.path, body: request.body, headers });
}

/** A token-mode request: token, version and timestamp as the platform's own script sends them. */
export async function sendToken(
  baseUrl: string,
  token: string,
  request: { method?: string; path: string; body?: string; contentType?: string; headers?: Record<string, string | undefined> },
): Promise<HandResponse> {
  const headers: Record<string, string | undefined> = { token, version: VERSION, timestamp: freshTimestamp(), ...request.headers };
  if (request.body !== undefined) headers['content-type'] = request.contentType ?? 'application/json';
  return sendRaw(baseUrl, { method: request.method ?? (request.body === undefined ? 'GET' : 'POST'), path: request.path, body: request.body, headers });
}
