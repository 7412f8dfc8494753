// Key pairs generated at test time (never committed), shared within one test file's process.
import * as crypto from 'node:crypto';

export interface TestKeyPair {
  privateKey: crypto.KeyObject;
  publicKey: crypto.KeyObject;
  pkcs8Pem: string;
  pkcs1Pem: string;
  spkiPem: string;
  pkcs1PublicPem: string;
  pkcs8Der: Buffer;
  pkcs1Der: Buffer;
  spkiDer: Buffer;
  pkcs1PublicDer: Buffer;
}

const pairs = new Map<number, TestKeyPair[]>();

export function rsaPair(bits = 2048, index = 0): TestKeyPair {
  const list = pairs.get(bits) ?? [];
  pairs.set(bits, list);
  while (list.length <= index) {
    const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: bits });
    list.push({
      privateKey,
      publicKey,
      pkcs8Pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      pkcs1Pem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
      spkiPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      pkcs1PublicPem: publicKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
      pkcs8Der: privateKey.export({ type: 'pkcs8', format: 'der' }),
      pkcs1Der: privateKey.export({ type: 'pkcs1', format: 'der' }),
      spkiDer: publicKey.export({ type: 'spki', format: 'der' }),
      pkcs1PublicDer: publicKey.export({ type: 'pkcs1', format: 'der' }),
    });
  }
  const pair = list[index];
  if (!pair) throw new Error('key pair generation failed');
  return pair;
}

/** PKCS#1 v1.5 decryption without Node's PKCS#1 private-decrypt (refused on Node 20, CVE-2023-46809). */
export function decryptBlocks(ciphertextBase64: string, privateKey: crypto.KeyObject): Buffer {
  const bytes = Buffer.from(ciphertextBase64, 'base64');
  const blockBytes = (privateKey.asymmetricKeyDetails?.modulusLength ?? 2048) / 8;
  const parts: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += blockBytes) {
    const raw = crypto.privateDecrypt(
      { key: privateKey, padding: crypto.constants.RSA_NO_PADDING },
      bytes.subarray(offset, offset + blockBytes),
    );
    // EME-PKCS1-v1_5: 00 02 PS (>= 8 non-zero bytes) 00 M
    if (raw[0] !== 0 || raw[1] !== 2) throw new Error('bad PKCS#1 type-2 padding');
    const separator = raw.indexOf(0, 2);
    if (separator < 10) throw new Error('bad PKCS#1 padding string');
    parts.push(raw.subarray(separator + 1));
  }
  return Buffer.concat(parts);
}
