// Turns a POST body into the JSON object the operation reads: plain JSON, or (detected by its
// first non-space character not being `{`/`[`) a Base64 ciphertext decrypted with the platform key.

import type { KeyObject } from 'node:crypto';
import type { KeyRecord } from './auth';
import { SandboxFailure, invalidParam } from './codes';
import { decryptBody } from './decrypt';
import type { JsonObject } from './params';
import type { Encryption } from './routes';

/** The spec sends encrypted bodies as application/json, the official script as text/plain. */
const ENCRYPTED_MEDIA_TYPES = ['application/json', 'text/plain'];
const utf8 = new TextDecoder('utf-8', { fatal: true });

export interface BodyInput {
  encryption: Encryption;
  mode: KeyRecord['mode'];
  contentType: string | undefined;
  rawBody: Buffer;
  platformPrivateKey: KeyObject;
  /** Narrower media types for an encrypted body (the NAS encrypt/s3 calls: text/plain only). */
  encryptedMediaTypes?: readonly string[];
}

export function parseRequestBody(input: BodyInput): JsonObject {
  const text = decodeUtf8(input.rawBody, () => invalidParam('body', 'is not valid UTF-8'));
  if (text.trim() === '') throw invalidParam('body', 'is required: a JSON object');
  const mediaType = (input.contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const firstChar = text.trimStart()[0];

  if (firstChar === '{' || firstChar === '[') {
    if (input.encryption === 'required') {
      throw new SandboxFailure('C006', 'this operation requires an encrypted body: send the Base64 ciphertext, not plain JSON');
    }
    if (mediaType !== 'application/json') throw invalidParam('Content-Type', `a JSON body needs application/json, got "${mediaType}"`);
    return asBodyObject(parseJson(text, () => invalidParam('body', 'is not valid JSON')), () => invalidParam('body', 'expected a JSON object'));
  }

  if (input.mode === 'token') {
    throw new SandboxFailure('C007', 'token-mode keys cannot send encrypted bodies: encryption needs an RSA-mode key');
  }
  if (input.encryption === 'never') throw new SandboxFailure('C006', 'this operation does not take an encrypted body: send plain JSON');
  const allowed = input.encryptedMediaTypes ?? ENCRYPTED_MEDIA_TYPES;
  if (!allowed.includes(mediaType)) {
    throw invalidParam('Content-Type', `an encrypted body needs ${allowed.join(' or ')}, got "${mediaType}"`);
  }
  const plaintext = decryptBody(text, input.platformPrivateKey);
  const decryptFailure = (detail: string) => (): SandboxFailure => new SandboxFailure('C006', `body decryption failed: ${detail}`);
  const json = parseJson(decodeUtf8(plaintext, decryptFailure('the plaintext is not UTF-8')), decryptFailure('the plaintext is not JSON'));
  return asBodyObject(json, decryptFailure('the plaintext is not a JSON object'));
}

function decodeUtf8(bytes: Buffer, failure: () => SandboxFailure): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw failure();
  }
}

function parseJson(text: string, failure: () => SandboxFailure): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw failure();
  }
}

function asBodyObject(value: unknown, failure: () => SandboxFailure): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw failure();
  return value as JsonObject;
}
