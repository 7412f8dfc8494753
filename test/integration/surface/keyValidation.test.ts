// What the Set Private Key / Set Platform Public Key boxes accept, refuse and warn about.
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import { keyFingerprint } from '../../../src/core/compute/index';
import { checkPlatformPublicKey, checkPrivateKey, checkToken } from '../../../src/vscode/profiles/keyValidation';

function pair(bits: number): { privatePkcs1: string; privatePkcs8: string; publicSpki: string; publicKey: crypto.KeyObject } {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: bits });
  return {
    privatePkcs1: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    privatePkcs8: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicSpki: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    publicKey,
  };
}

describe('surface: key validation before storing', () => {
  const client = pair(2048);
  const platform = pair(2048);

  it('a PKCS#1 PEM joined into one line (as an input box pastes it) is stored as canonical PKCS#8 PEM', () => {
    const checked = checkPrivateKey(client.privatePkcs1.replace(/\r?\n/g, ''), platform.publicSpki);
    assert.equal(checked.pem, client.privatePkcs8);
    assert.equal(checked.fingerprint, keyFingerprint(client.publicKey));
    assert.equal(checked.modulusBits, 2048);
    assert.deepEqual(checked.warnings, []);
  });

  it('a public key pasted as the private key is refused with a specific message', () => {
    assert.throws(() => checkPrivateKey(client.publicSpki, undefined), /public key, but the client private key belongs here/);
  });

  it('your own public key pasted as the platform key is refused (fingerprints compared)', () => {
    assert.throws(() => checkPlatformPublicKey(client.publicSpki, client.privatePkcs8), /public half of your own private key/);
    const accepted = checkPlatformPublicKey(platform.publicSpki, client.privatePkcs8);
    assert.equal(accepted.fingerprint, keyFingerprint(platform.publicKey));
  });

  it('a private key whose public half already sits in the platform slot is stored with a warning', () => {
    const checked = checkPrivateKey(client.privatePkcs8, client.publicSpki);
    assert.equal(checked.warnings.length, 1);
    assert.match(checked.warnings[0] ?? '', /platform key slot holds your own public key/);
  });

  it('a 1024-bit key is usable but warned about', () => {
    const short = pair(1024);
    const checked = checkPrivateKey(short.privatePkcs8, undefined);
    assert.equal(checked.modulusBits, 1024);
    assert.match(checked.warnings.join(' '), /1024-bit/);
  });

  it('tokens: no whitespace, printable ASCII, not a key', () => {
    assert.equal(checkToken('sk-abc123_DEF'), undefined);
    assert.match(checkToken('abc def') ?? '', /contains a space/);
    assert.match(checkToken('abc\r\ndef', 'apiToken') ?? '', /API token contains a line break \(CR or LF\)/);
    assert.match(checkToken('tökén') ?? '', /printable ASCII/);
    assert.match(checkToken(client.privatePkcs8, 'modelApiKey') ?? '', /PEM key, not the model API key/);
    assert.match(checkToken('   ') ?? '', /empty/);
  });
});
