// Key handling for RSA mode: the client's private key (signing) and the platform's public key
// (body encryption). Parsing a PEM costs more than a signature (docs/budgets.md), so each input is
// parsed once and its KeyObject cached under a SHA-256 of the text, never under the text itself.

import * as crypto from 'node:crypto';
import { promisify } from 'node:util';
import { ConfigError, coreText, type CoreText } from '../errors';
import { englishText } from '../errors/messages';
import {
  decodeKeyInput,
  nonRsa,
  privateGivenForPublic,
  publicGivenForPrivate,
  roleWord,
  type KeyRole,
} from './keyInput';

/** Below this the platform's recommendation is not met: usable, with a warning. */
export const RECOMMENDED_KEY_BITS = 2048;
/** Below this a key is refused: factorable with public tooling. */
export const MINIMUM_KEY_BITS = 1024;

export type PrivateKeyEncoding = 'pkcs8-pem' | 'pkcs1-pem' | 'pkcs8-base64' | 'pkcs1-base64';
export type PublicKeyEncoding = 'spki-pem' | 'pkcs1-pem' | 'spki-base64' | 'pkcs1-base64';

interface ParsedKeyBase {
  modulusBits: number;
  /** SHA-256 of the public key's SPKI DER; see keyFingerprint. */
  fingerprint: string;
  /** Set when the key is usable but shorter than the recommended 2048 bits (English, for the log). */
  warning?: string;
  /** The same warning as a message key, for the editor to word in the display language. */
  warningWords?: CoreText;
}

export interface ParsedPrivateKey extends ParsedKeyBase {
  privateKey: crypto.KeyObject;
  /** The public half, derived locally: used to self-verify every signature we make. */
  publicKey: crypto.KeyObject;
  encoding: PrivateKeyEncoding;
}

export interface ParsedPublicKey extends ParsedKeyBase {
  publicKey: crypto.KeyObject;
  encoding: PublicKeyEncoding;
}

const CACHE_LIMIT = 16;
const cache = new Map<string, ParsedPrivateKey | ParsedPublicKey>();

function cacheKey(role: KeyRole, input: string): string {
  return `${role}:${crypto.createHash('sha256').update(input).digest('base64')}`;
}

function remember<T extends ParsedPrivateKey | ParsedPublicKey>(key: string, value: T): T {
  if (cache.size >= CACHE_LIMIT) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(key, value);
  return value;
}

/** Drops every cached KeyObject (after a secret changes, or on profile switch). */
export function clearKeyCache(): void {
  cache.clear();
}

/**
 * The last key text one client used and what it parsed to. A client signs with the same key text
 * request after request; comparing the text is far cheaper than hashing it for the shared cache, and
 * keeps the per-request cost at the signature itself (docs/budgets.md). Holds nothing the client's own
 * credentials callback does not already hold.
 */
export class LastParsedKeys {
  private lastPrivate: { input: string; parsed: ParsedPrivateKey } | undefined;
  private lastPublic: { input: string; parsed: ParsedPublicKey } | undefined;

  privateKey(input: string): ParsedPrivateKey {
    if (this.lastPrivate?.input !== input) this.lastPrivate = { input, parsed: parsePrivateKey(input) };
    return this.lastPrivate.parsed;
  }

  platformPublicKey(input: string): ParsedPublicKey {
    if (this.lastPublic?.input !== input) this.lastPublic = { input, parsed: parsePlatformPublicKey(input) };
    return this.lastPublic.parsed;
  }

  clear(): void {
    this.lastPrivate = undefined;
    this.lastPublic = undefined;
  }
}

/**
 * Parses the client's private key: PKCS#8 PEM, PKCS#1 PEM, or either as bare Base64 DER.
 * Throws ConfigError with a specific message and hint for every input it cannot use.
 */
export function parsePrivateKey(input: string): ParsedPrivateKey {
  const key = cacheKey('private', input);
  const cached = cache.get(key);
  if (cached && 'privateKey' in cached) return cached;

  const decoded = decodeKeyInput(input, 'private');
  let privateKey: crypto.KeyObject;
  let encoding: PrivateKeyEncoding;
  if (decoded.pemKind === 'pkcs8-private' || decoded.pemKind === 'pkcs1-private') {
    const type = decoded.pemKind === 'pkcs8-private' ? 'pkcs8' : 'pkcs1';
    privateKey = createPrivateKeyOrExplain(decoded.der, type, 'private');
    encoding = `${type}-pem`;
  } else {
    ({ privateKey, encoding } = detectBarePrivateKey(decoded.der));
  }
  const modulusBits = checkRsa(privateKey, 'private');
  const publicKey = crypto.createPublicKey(privateKey);
  return remember(key, {
    privateKey,
    publicKey,
    encoding,
    modulusBits,
    fingerprint: keyFingerprint(publicKey),
    ...shortKeyWarning(modulusBits, 'private'),
  });
}

/** Parses the platform public key: SPKI PEM, PKCS#1 PEM, or either as bare Base64 DER. */
export function parsePlatformPublicKey(input: string): ParsedPublicKey {
  const key = cacheKey('public', input);
  const cached = cache.get(key);
  if (cached && !('privateKey' in cached)) return cached;

  const decoded = decodeKeyInput(input, 'public');
  let publicKey: crypto.KeyObject;
  let encoding: PublicKeyEncoding;
  if (decoded.pemKind === 'spki-public' || decoded.pemKind === 'pkcs1-public') {
    const type = decoded.pemKind === 'spki-public' ? 'spki' : 'pkcs1';
    publicKey = createPublicKeyOrExplain(decoded.der, type);
    encoding = `${type}-pem`;
  } else {
    ({ publicKey, encoding } = detectBarePublicKey(decoded.der));
  }
  const modulusBits = checkRsa(publicKey, 'public');
  return remember(key, {
    publicKey,
    encoding,
    modulusBits,
    fingerprint: keyFingerprint(publicKey),
    ...shortKeyWarning(modulusBits, 'public'),
  });
}

function detectBarePrivateKey(der: Buffer): { privateKey: crypto.KeyObject; encoding: PrivateKeyEncoding } {
  const pkcs8 = tryCreate(() => crypto.createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }));
  if (pkcs8.key) return { privateKey: pkcs8.key, encoding: 'pkcs8-base64' };
  if (pkcs8.code === 'ERR_MISSING_PASSPHRASE') throw encryptedDer('private');
  const pkcs1 = tryCreate(() => crypto.createPrivateKey({ key: der, format: 'der', type: 'pkcs1' }));
  if (pkcs1.key) return { privateKey: pkcs1.key, encoding: 'pkcs1-base64' };
  if (looksLikePublicKey(der)) throw publicGivenForPrivate();
  if (tryCreate(() => crypto.createPrivateKey({ key: der, format: 'der', type: 'sec1' })).key) throw nonRsa('EC', 'private');
  throw notAKey('private', der.length);
}

function detectBarePublicKey(der: Buffer): { publicKey: crypto.KeyObject; encoding: PublicKeyEncoding } {
  // A PKCS#1 private key also parses as a "pkcs1 public key" (Node derives the public half), so
  // the private-key check must come first or a pasted private key would be silently accepted.
  const asPrivate =
    tryCreate(() => crypto.createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })).code === undefined ||
    tryCreate(() => crypto.createPrivateKey({ key: der, format: 'der', type: 'pkcs1' })).code === undefined;
  if (asPrivate) throw privateGivenForPublic();
  const spki = tryCreate(() => crypto.createPublicKey({ key: der, format: 'der', type: 'spki' }));
  if (spki.key) return { publicKey: spki.key, encoding: 'spki-base64' };
  const pkcs1 = tryCreate(() => crypto.createPublicKey({ key: der, format: 'der', type: 'pkcs1' }));
  if (pkcs1.key) return { publicKey: pkcs1.key, encoding: 'pkcs1-base64' };
  throw notAKey('public', der.length);
}

function looksLikePublicKey(der: Buffer): boolean {
  return (
    tryCreate(() => crypto.createPublicKey({ key: der, format: 'der', type: 'spki' })).key !== undefined ||
    tryCreate(() => crypto.createPublicKey({ key: der, format: 'der', type: 'pkcs1' })).key !== undefined
  );
}

/** Runs a KeyObject factory; failure is an expected outcome of format detection, reported by code. */
function tryCreate(create: () => crypto.KeyObject): { key?: crypto.KeyObject; code?: string } {
  try {
    return { key: create() };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return { code: typeof code === 'string' ? code : 'UNKNOWN' };
  }
}

function createPrivateKeyOrExplain(der: Buffer, type: 'pkcs8' | 'pkcs1', role: KeyRole): crypto.KeyObject {
  try {
    return crypto.createPrivateKey({ key: der, format: 'der', type });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_MISSING_PASSPHRASE') throw encryptedDer(role);
    throw new ConfigError(coreText('key.invalidPrivateBlock', roleWord(role), type === 'pkcs8' ? 'PKCS#8' : 'PKCS#1'), coreText('key.invalidPrivateBlock.hint'), { cause: error });
  }
}

function createPublicKeyOrExplain(der: Buffer, type: 'spki' | 'pkcs1'): crypto.KeyObject {
  try {
    return crypto.createPublicKey({ key: der, format: 'der', type });
  } catch (error) {
    throw new ConfigError(coreText('key.invalidPublicBlock', type === 'spki' ? 'SPKI' : 'PKCS#1'), coreText('key.invalidPublicBlock.hint'), { cause: error });
  }
}

function encryptedDer(role: KeyRole): ConfigError {
  return new ConfigError(coreText('key.encrypted', roleWord(role)), coreText('key.decrypt.hint'));
}

function notAKey(role: KeyRole, bytes: number): ConfigError {
  return role === 'private'
    ? new ConfigError(coreText('key.notRsaDer.private', bytes), coreText('key.notRsaDer.hint.private'))
    : new ConfigError(coreText('key.notRsaDer.public', bytes), coreText('key.notRsaDer.hint.public'));
}

/** Confirms the key is RSA with a usable size; returns its modulus length in bits. */
function checkRsa(key: crypto.KeyObject, role: KeyRole): number {
  if (key.asymmetricKeyType !== 'rsa') {
    if (key.asymmetricKeyType === 'rsa-pss') {
      throw new ConfigError(coreText('key.pss', roleWord(role)), coreText('key.pss.hint'));
    }
    throw nonRsa(key.asymmetricKeyType ?? 'unknown', role);
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MINIMUM_KEY_BITS) {
    throw new ConfigError(coreText('key.tooShort', roleWord(role), bits, MINIMUM_KEY_BITS), coreText('key.tooShort.hint'));
  }
  return bits;
}

function shortKeyWarning(bits: number, role: KeyRole): { warning?: string; warningWords?: CoreText } {
  if (bits >= RECOMMENDED_KEY_BITS) return {};
  const warningWords = coreText('key.shortWarning', roleWord(role), bits, RECOMMENDED_KEY_BITS);
  return { warning: englishText(warningWords), warningWords };
}

/**
 * Fingerprint for display and comparison: SHA-256 of the SPKI DER, lowercase hex pairs joined by
 * colons. The same text as `openssl pkey -pubin -in pub.pem -outform DER | openssl dgst -sha256 -c`.
 */
export function keyFingerprint(key: crypto.KeyObject): string {
  const publicKey = key.type === 'private' ? crypto.createPublicKey(key) : key;
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  return crypto.createHash('sha256').update(spki).digest('hex').replace(/(..)(?=.)/g, '$1:');
}

/** Bytes in the key's modulus (= signature length and RSA block size). */
export function modulusBytes(key: crypto.KeyObject): number {
  return Math.ceil((key.asymmetricKeyDetails?.modulusLength ?? 0) / 8);
}

export interface GeneratedKeyPair {
  /** PKCS#8 PEM: goes straight into SecretStorage, never displayed. */
  privateKeyPem: string;
  /** SPKI PEM (BEGIN PUBLIC KEY): what the user uploads in the console. */
  publicKeyPem: string;
  fingerprint: string;
}

const generateRsaPair = promisify(crypto.generateKeyPair);

/** A fresh 2048-bit RSA pair, generated off the main thread (it takes ~100 ms). */
export async function generateKeyPair(): Promise<GeneratedKeyPair> {
  const { privateKey, publicKey } = await generateRsaPair('rsa', {
    modulusLength: RECOMMENDED_KEY_BITS,
    publicExponent: 0x10001,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return {
    privateKeyPem: privateKey,
    publicKeyPem: publicKey,
    fingerprint: keyFingerprint(crypto.createPublicKey(publicKey)),
  };
}
