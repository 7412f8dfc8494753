// Decrypts an encrypted request body the way the platform does: one Base64 text holding
// concatenated 256-byte RSA blocks, each PKCS#1 v1.5 (type 2) under the platform public key.

import { constants, privateDecrypt, type KeyObject } from 'node:crypto';
import { SandboxFailure } from './codes';

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Standard alphabet, padded, no whitespace: Node's own decoder silently skips junk, the platform's does not. */
export function isStrictBase64(text: string): boolean {
  return text.length > 0 && STRICT_BASE64.test(text);
}
/** PKCS#1 v1.5 asks for at least 8 bytes of non-zero padding. */
const MIN_PADDING_BYTES = 8;

function decryptionFailed(detail: string): SandboxFailure {
  return new SandboxFailure('C006', `body decryption failed: ${detail}`);
}

/**
 * Returns the plaintext bytes. Throws SandboxFailure C006 for anything that is not a well-formed
 * ciphertext under this platform key (wrong key, bad Base64, truncated block, bad padding).
 */
export function decryptBody(base64Text: string, platformPrivateKey: KeyObject): Buffer {
  const text = base64Text.trim();
  if (!isStrictBase64(text)) throw decryptionFailed('the body is not standard Base64');
  const blockSize = modulusBytes(platformPrivateKey);
  const cipher = Buffer.from(text, 'base64');
  if (cipher.length % blockSize !== 0) {
    throw decryptionFailed(`${cipher.length} bytes of ciphertext is not a whole number of ${blockSize}-byte RSA blocks`);
  }
  const parts: Buffer[] = [];
  for (let offset = 0; offset < cipher.length; offset += blockSize) {
    parts.push(decryptBlock(cipher.subarray(offset, offset + blockSize), platformPrivateKey, offset / blockSize));
  }
  return Buffer.concat(parts);
}

/**
 * Node 20 refuses privateDecrypt with RSA_PKCS1_PADDING (CVE-2023-46809, the Marvin timing attack)
 * unless started with --security-revert. So the sandbox decrypts the raw RSA block and checks the
 * type-2 padding `00 02 PS(>= 8 non-zero bytes) 00 M` by hand. This is not constant-time and is
 * acceptable only because it is a local test server; production code must never do this.
 */
function decryptBlock(block: Buffer, key: KeyObject, index: number): Buffer {
  let encoded: Buffer;
  try {
    encoded = privateDecrypt({ key, padding: constants.RSA_NO_PADDING }, block);
  } catch (error) {
    // OpenSSL rejects a block numerically larger than the modulus: not our key's ciphertext.
    throw decryptionFailed(`block ${index} is not an RSA ciphertext for the platform key (${(error as Error).message})`);
  }
  if (encoded[0] !== 0x00 || encoded[1] !== 0x02) throw decryptionFailed(`block ${index} has no PKCS#1 v1.5 padding (wrong platform key?)`);
  const separator = encoded.indexOf(0x00, 2);
  if (separator < 0 || separator - 2 < MIN_PADDING_BYTES) throw decryptionFailed(`block ${index} has malformed PKCS#1 v1.5 padding`);
  return encoded.subarray(separator + 1);
}

function modulusBytes(key: KeyObject): number {
  const bits = key.asymmetricKeyDetails?.modulusLength;
  if (bits === undefined) throw new Error('platform key has no modulus length');
  return Math.ceil(bits / 8);
}
