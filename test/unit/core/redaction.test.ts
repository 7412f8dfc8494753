// Redaction of a secret in every encoding a server or a log may carry it in, and in linear time.
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { maskSecretsIn, Redactor } from '../../../src/core/log';
import { assertLinearTime } from '../../helpers/linearTime';
import { pemBegin } from '../../helpers/pemArmor';

/** A token generated at test time, with the characters encodings touch: / + = and mixed case. */
function makeToken(): string {
  return `Tk/${randomBytes(18).toString('base64')}+Ab=`;
}

function redactorFor(...secrets: string[]): Redactor {
  const redactor = new Redactor();
  redactor.setSecrets(secrets);
  return redactor;
}

/** No 8-character window of the secret survives (case-insensitively). */
function assertGone(out: string, secret: string): void {
  const plain = secret.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
  const flat = out.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
  for (let at = 4; at + 8 <= plain.length - 4; at++) {
    assert.ok(!flat.includes(plain.slice(at, at + 8)), `"${plain.slice(at, at + 8)}" of the secret survived in: ${out}`);
  }
}

describe('redaction of encoded secrets', () => {
  const token = makeToken();
  const redactor = redactorFor(token);

  it('exact', () => assertGone(redactor.redact(`token=${token}.`), token));
  it('URL-encoded, upper- and lower-case hex', () => {
    const encoded = encodeURIComponent(token);
    assert.notEqual(encoded, token);
    assertGone(redactor.redact(`GET /x?t=${encoded}&a=1`), token);
    assertGone(redactor.redact(`GET /x?t=${encoded.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())}`), token);
  });
  it('JSON-escaped slash', () => {
    const escaped = token.replace(/\//g, '\\/');
    assert.notEqual(escaped, token);
    assertGone(redactor.redact(`{"echo":"${escaped}"}`), token);
  });
  it('JSON \\u00xx escapes', () => {
    const escaped = token.replace(/[/+=]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    assert.match(escaped, /\\u002f/);
    assertGone(redactor.redact(`{"echo":"${escaped}"}`), token);
  });
  it('upper-cased and lower-cased', () => {
    assertGone(redactor.redact(`AUTH ${token.toUpperCase()}`), token);
    assertGone(redactor.redact(`auth ${token.toLowerCase()}`), token);
  });
  it('split across lines with LF, CRLF and indentation', () => {
    const half = Math.floor(token.length / 2);
    assertGone(redactor.redact(`${token.slice(0, half)}\n${token.slice(half)}`), token);
    assertGone(redactor.redact(`${token.slice(0, 10)}\r\n  ${token.slice(10, 20)}\n\t${token.slice(20)}`), token);
  });
  it('keeps the text around a match, and leaves text without secrets untouched', () => {
    assert.equal(redactor.redact(`before ${token} after`), `before ${token.slice(0, 4)}…${token.slice(-4)} after`);
    const plain = 'Nothing secret here: %2F \\u0041 \\/ UPPER\nlower';
    assert.equal(redactor.redact(plain), plain);
  });
  it('maskSecretsIn recognises the same encodings', () => {
    assertGone(maskSecretsIn(`{"e":"${encodeURIComponent(token).toLowerCase()}"}`, [token]), token);
    assertGone(maskSecretsIn(token.replace(/\//g, '\\/').toUpperCase(), [token]), token);
  });
});

describe('redaction of PEM bodies', () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const body = pem.split('\n').filter((line) => line !== '' && !line.startsWith('-----')).join('');
  const redactor = redactorFor(pem);

  for (const width of [1, 17, 64, 76, body.length]) {
    it(`re-wrapped at width ${width}, without its header`, () => {
      const lines: string[] = [];
      for (let at = 0; at < body.length; at += width) lines.push(body.slice(at, at + width));
      assertGone(redactor.redact(`key body:\n${lines.join('\n')}\nend`), body);
      assertGone(redactor.redact(`key body:\r\n${lines.join('\r\n')}`), body);
    });
  }
  it('as a JSON string with escaped line breaks', () => {
    assertGone(redactor.redact(JSON.stringify({ key: pem.replace(/-----[^-]+-----/g, '') })), body);
  });
});

describe('redaction runs in linear time', () => {
  const token = makeToken();
  const redactor = redactorFor(token, 'second-secret-value-123456');
  const adversarial: Record<string, (n: number) => string> = {
    'near misses of the token': (n) => token.slice(0, -1).repeat(Math.ceil(n / token.length)),
    'percent signs and backslashes': (n) => '%\\u%2\\'.repeat(n / 6),
    'line breaks': (n) => '\r\n '.repeat(n / 3),
    'unclosed private key headers': (n) => pemBegin('RSA PRIVATE KEY').repeat(n / 31),
    'Bearer without a value': (n) => `Bearer ${' '.repeat(n)}!`,
    'many matches': (n) => `${token} `.repeat(Math.ceil(n / (token.length + 1))),
  };
  for (const [name, input] of Object.entries(adversarial)) {
    it(name, () => assertLinearTime(name, input, (text) => redactor.redact(text), { n: 4_000 }));
  }
  it('maskSecretsIn on near misses', () => {
    assertLinearTime('maskSecretsIn', (n) => token.slice(0, -2).toUpperCase().repeat(Math.ceil(n / token.length)), (text) => maskSecretsIn(text, [token]), { n: 4_000 });
  });
});
