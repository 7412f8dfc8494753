// Key input names what was given and how to convert it: binary DER files (read), OpenSSH public key lines,
// unpadded Base64 (read), plain text, PuTTY .ppk and OpenSSH private keys; "an EC key", not "a EC key".
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { keyFileText, withArticle } from '../../../src/core/compute/keyInput';
import { parsePlatformPublicKey, parsePrivateKey } from '../../../src/core/compute/keys';
import { ConfigError } from '../../../src/core/errors';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });

function configError(run: () => unknown, message: RegExp, hint?: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof ConfigError, String(error));
    assert.match(error.message, message);
    if (hint) assert.match(error.hint ?? '', hint);
    return true;
  });
}

describe('key files read as bytes', () => {
  for (const [name, der, parse] of [
    ['PKCS#8 private DER', rsa.privateKey.export({ type: 'pkcs8', format: 'der' }), parsePrivateKey],
    ['PKCS#1 private DER', rsa.privateKey.export({ type: 'pkcs1', format: 'der' }), parsePrivateKey],
    ['SPKI public DER', rsa.publicKey.export({ type: 'spki', format: 'der' }), parsePlatformPublicKey],
    ['PKCS#1 public DER', rsa.publicKey.export({ type: 'pkcs1', format: 'der' }), parsePlatformPublicKey],
  ] as const) {
    it(`reads a binary ${name} file`, () => {
      const parsed = parse(keyFileText(new Uint8Array(der)));
      assert.equal(parsed.modulusBits, 2048);
    });
  }
  it('reads a PEM file as text', () => {
    const pem = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    assert.equal(keyFileText(Buffer.from(pem)), pem);
  });
  it('a DER file pasted as text is named binary, with how to convert it', () => {
    const der = rsa.privateKey.export({ type: 'pkcs8', format: 'der' });
    configError(() => parsePrivateKey(new TextDecoder().decode(der)), /binary data/, /openssl pkey -inform DER/);
  });
});

describe('inputs that are not keys are named, with how to convert them', () => {
  const sshLine = `ssh-rsa ${Buffer.from('x'.repeat(60)).toString('base64')} user@host`;
  it('an ssh-rsa line for the platform public key: ssh-keygen -e -m pem', () => {
    configError(() => parsePlatformPublicKey(sshLine), /OpenSSH public key line \(ssh-rsa/, /ssh-keygen -f key\.pub -e -m pem/);
  });
  it('an ssh-rsa line for the private key: a public key, not the private one', () => {
    configError(() => parsePrivateKey(sshLine), /OpenSSH public key line .*not a private key/);
  });
  it('an ssh-ed25519 line: not RSA', () => {
    configError(() => parsePlatformPublicKey(`ssh-ed25519 ${'A'.repeat(68)}`), /an SSH-ED25519 key; .*RSA only/);
  });
  it('a PuTTY .ppk file: puttygen', () => {
    configError(() => parsePrivateKey('PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nPublic-Lines: 6\nAAAA\n'), /PuTTY key file \(\.ppk\)/, /puttygen key\.ppk -O private-openssh/);
  });
  it('an OpenSSH private key: ssh-keygen -p -m PKCS8', () => {
    configError(
      () => parsePrivateKey('-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n'),
      /OpenSSH format/,
      /ssh-keygen -p -m PKCS8/,
    );
  });
  it('plain text', () => {
    configError(() => parsePrivateKey('this is my secret key, please!'), /plain text/, /BEGIN line/);
  });
  it('unpadded Base64 of a key is read', () => {
    // A PKCS#8 key whose DER length is not a multiple of 3 has "=" padding to strip (most keys; retry otherwise).
    let der = rsa.privateKey.export({ type: 'pkcs8', format: 'der' });
    while (der.length % 3 === 0) der = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'der' });
    const padded = der.toString('base64');
    const unpadded = padded.replace(/=+$/, '');
    assert.notEqual(unpadded, padded);
    assert.equal(parsePrivateKey(unpadded).modulusBits, 2048);
    configError(() => parsePrivateKey(unpadded.slice(0, -5)), /truncated/);
  });
  it('an EC key: "an EC key"', () => {
    configError(() => parsePrivateKey(ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()), /is an EC key/);
    assert.equal(withArticle('EC'), 'an EC');
    assert.equal(withArticle('DSA'), 'a DSA');
    assert.equal(withArticle('RSA'), 'an RSA');
    assert.equal(withArticle('unknown'), 'an unknown');
  });
});
