// ed25519 key pairs in OpenSSH format, from ssh2's generator. ssh2 1.17 strips leading zero bytes from
// the 32-byte public key when it writes the OpenSSH blobs, so about one pair in 256 comes out with a
// 31-byte key that nothing (ssh2 itself, OpenSSH) can read. Such a pair is dropped and a new one made.

import { utils } from 'ssh2';

/** An OpenSSH private key text and its public line (`ssh-ed25519 AAAA… comment`). */
export interface SshKeyPair {
  privateKey: string;
  publicKey: string;
}

type Generate = (comment: string) => { private: string; public: string };

const ED25519_PUBLIC_BLOB = 4 + 'ssh-ed25519'.length + 4 + 32;
const MAX_ATTEMPTS = 16;

const ssh2Generate: Generate = (comment) => utils.generateKeyPairSync('ed25519', comment ? { comment } : {});

/** A pair that parses back with a whole 32-byte public key; `generate` is replaceable for tests. */
export function generateEd25519Pair(comment = '', generate: Generate = ssh2Generate): SshKeyPair {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const pair = generate(comment);
    if (isWholeEd25519(pair.private, pair.public)) return { privateKey: pair.private, publicKey: pair.public };
  }
  // (1/256)^16: only a generator that is broken outright gets here.
  throw new Error('Could not generate a valid ed25519 key pair.');
}

function isWholeEd25519(privateText: string, publicLine: string): boolean {
  const parsed = utils.parseKey(privateText);
  if (parsed instanceof Error || Array.isArray(parsed) || parsed.type !== 'ssh-ed25519') return false;
  const blob = parsed.getPublicSSH();
  const line = publicLine.split(' ')[1];
  return blob.length === ED25519_PUBLIC_BLOB && line !== undefined && Buffer.from(line, 'base64').equals(blob);
}
