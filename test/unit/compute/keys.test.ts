import assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import { after, describe, it } from 'node:test';
import {
  clearKeyCache,
  generateKeyPair,
  keyFingerprint,
  parsePlatformPublicKey,
  parsePrivateKey,
} from '../../../src/core/compute/keys';
import { ConfigError } from '../../../src/core/errors';
import { rsaPair } from './helpers/keys';
import { OpenSslWorkspace } from './helpers/openssl';

const pair = rsaPair();

/** Bare Base64 the way people paste it: wrapped at 64 with Windows line ends and stray spaces. */
function messyBase64(der: Buffer): string {
  return `  ${der.toString('base64').replace(/(.{64})/g, '$1\r\n')}  \r\n`;
}

function assertConfigError(fn: () => unknown, message: RegExp, hint?: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof ConfigError, `expected ConfigError, got ${String(error)}`);
    assert.match(error.message, message);
    if (hint) assert.match(error.hint ?? '', hint);
    // No key material in messages, ever.
    assert.ok(!/MII[A-Za-z0-9+/]{20}/.test(`${error.message} ${error.hint ?? ''}`), 'message leaks key material');
    return true;
  });
}

describe('private key: every accepted encoding', () => {
  const expectedFingerprint = keyFingerprint(pair.publicKey);
  const cases: [string, string, string][] = [
    ['PKCS#8 PEM', pair.pkcs8Pem, 'pkcs8-pem'],
    ['PKCS#1 PEM', pair.pkcs1Pem, 'pkcs1-pem'],
    ['PKCS#8 PEM with CRLF and indentation', pair.pkcs8Pem.replace(/\n/g, '\r\n').replace(/^/gm, '  '), 'pkcs8-pem'],
    ['PKCS#1 PEM on one line', pair.pkcs1Pem.replace(/\n/g, ' '), 'pkcs1-pem'],
    ['bare Base64 PKCS#8', pair.pkcs8Der.toString('base64'), 'pkcs8-base64'],
    ['bare Base64 PKCS#8, wrapped with CRLF', messyBase64(pair.pkcs8Der), 'pkcs8-base64'],
    ['bare Base64 PKCS#1', pair.pkcs1Der.toString('base64'), 'pkcs1-base64'],
    ['bare Base64 PKCS#1, wrapped with CRLF', messyBase64(pair.pkcs1Der), 'pkcs1-base64'],
    ['PKCS#8 PEM after a BOM, with a certificate block after it', `\uFEFF${pair.pkcs8Pem}\n-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n`, 'pkcs8-pem'],
  ];
  for (const [name, input, encoding] of cases) {
    it(`accepts ${name}`, () => {
      const parsed = parsePrivateKey(input);
      assert.equal(parsed.encoding, encoding);
      assert.equal(parsed.modulusBits, 2048);
      assert.equal(parsed.warning, undefined);
      assert.equal(parsed.fingerprint, expectedFingerprint);
      // The parsed key signs like the original.
      const data = Buffer.from('probe');
      assert.ok(crypto.verify('sha256', data, pair.publicKey, crypto.sign('sha256', data, parsed.privateKey)));
    });
  }

  it('caches: the same text gives the same KeyObject until the cache is cleared', () => {
    const a = parsePrivateKey(pair.pkcs8Pem);
    assert.equal(parsePrivateKey(pair.pkcs8Pem), a);
    clearKeyCache();
    assert.notEqual(parsePrivateKey(pair.pkcs8Pem), a);
  });
});

describe('platform public key: every accepted encoding', () => {
  const cases: [string, string, string][] = [
    ['SPKI PEM', pair.spkiPem, 'spki-pem'],
    ['PKCS#1 PEM', pair.pkcs1PublicPem, 'pkcs1-pem'],
    ['SPKI PEM with CRLF', pair.spkiPem.replace(/\n/g, '\r\n'), 'spki-pem'],
    ['bare Base64 SPKI', pair.spkiDer.toString('base64'), 'spki-base64'],
    ['bare Base64 SPKI, wrapped with CRLF', messyBase64(pair.spkiDer), 'spki-base64'],
    ['bare Base64 PKCS#1', pair.pkcs1PublicDer.toString('base64'), 'pkcs1-base64'],
  ];
  for (const [name, input, encoding] of cases) {
    it(`accepts ${name}`, () => {
      const parsed = parsePlatformPublicKey(input);
      assert.equal(parsed.encoding, encoding);
      assert.equal(parsed.modulusBits, 2048);
      assert.equal(parsed.fingerprint, keyFingerprint(pair.publicKey));
      assert.equal(parsed.publicKey.type, 'public');
    });
  }
});

describe('rejected keys name the problem', () => {
  const ec = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const ed = crypto.generateKeyPairSync('ed25519');
  const encryptedPkcs8 = pair.privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw' }).toString();
  const encryptedPkcs1 = pair.privateKey.export({ type: 'pkcs1', format: 'pem', cipher: 'aes-128-cbc', passphrase: 'pw' }).toString();
  const encryptedPkcs8Der = pair.privateKey.export({ type: 'pkcs8', format: 'der', cipher: 'aes-256-cbc', passphrase: 'pw' });

  it('empty input', () => {
    assertConfigError(() => parsePrivateKey('   \r\n '), /client private key is empty/, /generate/);
    assertConfigError(() => parsePlatformPublicKey(''), /platform public key is empty/, /console/);
  });
  it('a public key where the private key belongs (PEM and bare Base64)', () => {
    assertConfigError(() => parsePrivateKey(pair.spkiPem), /This is a public key, but the client private key belongs here/, /upload/);
    assertConfigError(() => parsePrivateKey(pair.pkcs1PublicPem), /This is a public key/);
    assertConfigError(() => parsePrivateKey(pair.spkiDer.toString('base64')), /This is a public key/);
    assertConfigError(() => parsePrivateKey(pair.pkcs1PublicDer.toString('base64')), /This is a public key/);
  });
  it('a private key where the platform public key belongs (PEM and bare Base64)', () => {
    assertConfigError(() => parsePlatformPublicKey(pair.pkcs8Pem), /This is a private key, but the platform public key belongs here/, /never shared/);
    assertConfigError(() => parsePlatformPublicKey(pair.pkcs1Pem), /This is a private key/);
    assertConfigError(() => parsePlatformPublicKey(pair.pkcs8Der.toString('base64')), /This is a private key/);
    // Node would happily derive a public key from PKCS#1 private DER; we must not.
    assertConfigError(() => parsePlatformPublicKey(pair.pkcs1Der.toString('base64')), /This is a private key/);
  });
  it('an encrypted PEM or DER', () => {
    assertConfigError(() => parsePrivateKey(encryptedPkcs8), /encrypted with a passphrase \(ENCRYPTED PRIVATE KEY/, /openssl pkey/);
    assertConfigError(() => parsePrivateKey(encryptedPkcs1), /encrypted with a passphrase \(RSA PRIVATE KEY, Proc-Type ENCRYPTED\)/);
    assertConfigError(() => parsePrivateKey(encryptedPkcs8Der.toString('base64')), /encrypted with a passphrase/);
  });
  it('non-RSA keys: EC (SEC1 and PKCS#8), ed25519, and an EC public key', () => {
    assertConfigError(() => parsePrivateKey(ec.privateKey.export({ type: 'sec1', format: 'pem' }).toString()), /is an EC key; the platform signs and encrypts with RSA only/, /2048-bit RSA/);
    assertConfigError(() => parsePrivateKey(ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()), /is an EC key/);
    assertConfigError(() => parsePrivateKey(ec.privateKey.export({ type: 'sec1', format: 'der' }).toString('base64')), /is an EC key/);
    assertConfigError(() => parsePrivateKey(ed.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()), /is an ED25519 key/);
    assertConfigError(() => parsePlatformPublicKey(ec.publicKey.export({ type: 'spki', format: 'pem' }).toString()), /platform public key is an EC key/);
  });
  it('truncated Base64 (cut mid-key) and a PEM without its END line', () => {
    const b64 = pair.pkcs8Der.toString('base64');
    assertConfigError(() => parsePrivateKey(b64.slice(0, 800)), /truncated: its structure declares 12\d\d bytes but only 600 are present/);
    assertConfigError(() => parsePrivateKey(b64.slice(0, 801)), /looks truncated: it has 801 Base64 characters, not a multiple of 4/);
    assertConfigError(() => parsePrivateKey(pair.pkcs8Pem.slice(0, 500)), /BEGIN PRIVATE KEY" line but no matching "END PRIVATE KEY" line/, /whole block/);
  });
  it('garbage: not Base64, and Base64 that is not a key', () => {
    assertConfigError(() => parsePrivateKey('hello, not a key!'), /neither a PEM block nor valid Base64 .*position 6/);
    assertConfigError(() => parsePrivateKey(Buffer.from('hello world, definitely not DER').toString('base64')), /decodes to 31 bytes that are not a DER-encoded key/);
    // A well-formed DER SEQUENCE that is no key.
    const sequence = Buffer.from([0x30, 0x03, 0x02, 0x01, 0x05]);
    assertConfigError(() => parsePrivateKey(sequence.toString('base64')), /decodes to 5 bytes of DER that are not an RSA private key/);
    assertConfigError(() => parsePlatformPublicKey(sequence.toString('base64')), /not an RSA public key/);
  });
  it('a certificate PEM', () => {
    assertConfigError(() => parsePlatformPublicKey('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----'), /is an X\.509 certificate/, /openssl x509 -pubkey/);
    assertConfigError(() => parsePrivateKey('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----'), /X\.509 certificate/);
  });
  it('an OpenSSH private key', () => {
    assertConfigError(() => parsePrivateKey('-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE=\n-----END OPENSSH PRIVATE KEY-----'), /OpenSSH format/, /ssh-keygen/);
  });
  it('a key under 1024 bits is refused; 1024–2047 bits is a warning with the size', () => {
    const tiny = crypto.generateKeyPairSync('rsa', { modulusLength: 768 });
    assertConfigError(() => parsePrivateKey(tiny.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()), /only 768-bit RSA; keys under 1024 bits are refused/);
    const small = rsaPair(1024);
    const parsed = parsePrivateKey(small.pkcs8Pem);
    assert.equal(parsed.modulusBits, 1024);
    assert.match(parsed.warning ?? '', /is 1024-bit RSA; the platform recommends 2048 bits/);
    assert.match(parsePlatformPublicKey(small.spkiPem).warning ?? '', /platform public key is 1024-bit/);
  });
});

describe('generateKeyPair and fingerprints', () => {
  const ws = new OpenSslWorkspace();
  after(() => ws.cleanup());

  it('generates a 2048-bit PKCS#8 / SPKI pair that parses and matches', async () => {
    const generated = await generateKeyPair();
    assert.match(generated.privateKeyPem, /^-{5}BEGIN PRIVATE KEY-{5}\n/);
    assert.match(generated.publicKeyPem, /^-----BEGIN PUBLIC KEY-----\n/);
    const parsedPrivate = parsePrivateKey(generated.privateKeyPem);
    const parsedPublic = parsePlatformPublicKey(generated.publicKeyPem);
    assert.equal(parsedPrivate.modulusBits, 2048);
    assert.equal(parsedPrivate.fingerprint, parsedPublic.fingerprint);
    assert.equal(generated.fingerprint, parsedPublic.fingerprint);
  });

  it('fingerprint = SHA-256 of the SPKI DER, as `openssl … | openssl dgst -sha256 -c` prints it', () => {
    const der = ws.run(['pkey', '-pubin', '-in', ws.file('pub.pem', pair.spkiPem), '-outform', 'DER']);
    const digest = ws.run(['dgst', '-sha256', '-c'], der).toString();
    const hex = /([0-9a-f]{2}(?::[0-9a-f]{2}){31})/.exec(digest)?.[1];
    assert.ok(hex, `unexpected openssl output: ${digest}`);
    assert.equal(keyFingerprint(pair.publicKey), hex);
    assert.equal(keyFingerprint(pair.privateKey), hex);
  });
});
