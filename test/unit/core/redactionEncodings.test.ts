// Property tests: a secret (token, model API key) is redacted when it travels encoded as a whole —
// Base64 and Base64url at any byte alignment inside a longer encoded value (a Basic header, a blob),
// and hex in lower or upper case — by the Redactor (logs) and by maskSecretsIn (server text, displays);
// and text that holds no secret comes out unchanged. Random cases from a fixed seed (reproducible).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { maskSecretsIn, Redactor } from '../../../src/core/log';
import { encodedForms } from '../../../src/core/redaction';
import { assertLinearTime, flat } from '../../helpers/linearTime';
import { seededRandom } from '../../helpers/seededRandom';

const random = seededRandom(18);
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~+/=';

function randomToken(): string {
  const length = 12 + Math.floor(random() * 52);
  let token = '';
  for (let index = 0; index < length; index++) token += ALPHABET[Math.floor(random() * ALPHABET.length)];
  return token;
}

function randomWords(count: number): string {
  const words = ['GET', 'task', 'list', '200', 'ok', 'header', 'value', '云', '算力', 'x'];
  return Array.from({ length: count }, () => words[Math.floor(random() * words.length)]).join(' ');
}

/** The secret's encodings as they appear in transit, each with a prefix and suffix of other bytes. */
function carriers(token: string): [string, string][] {
  const prefix = Buffer.from(randomWords(1 + Math.floor(random() * 3)), 'utf8');
  const suffix = Buffer.from(randomWords(1 + Math.floor(random() * 3)), 'utf8');
  const wrapped = Buffer.concat([prefix, Buffer.from(token, 'utf8'), suffix]);
  return [
    ['Base64, whole', Buffer.from(token).toString('base64')],
    ['Base64url, whole', Buffer.from(token).toString('base64url')],
    ['Base64 inside a longer value', wrapped.toString('base64')],
    ['Base64url inside a longer value', wrapped.toString('base64url')],
    ['Basic header', `Authorization: Basic ${Buffer.from(`user:${token}`).toString('base64')}`],
    ['hex, lower case', Buffer.from(token).toString('hex')],
    ['hex, upper case', Buffer.from(token).toString('hex').toUpperCase()],
    ['hex inside a longer value', wrapped.toString('hex')],
  ];
}

/** No 12-character window of the token's bytes, in the carrier's own encoding, survives. */
function assertNoEncodedTrace(out: string, token: string, what: string): void {
  for (const form of [...encodedForms(token), token]) {
    for (let at = 0; at + 12 <= form.length; at += 4) {
      const window = form.slice(at, at + 12).toLowerCase();
      assert.ok(!out.toLowerCase().includes(window), `${what}: "${window}" of an encoded form survived in ${out}`);
    }
  }
}

describe('redaction of secrets encoded whole', () => {
  it('Redactor: 150 random tokens × 8 carriers', () => {
    for (let round = 0; round < 150; round++) {
      const token = randomToken();
      const redactor = new Redactor();
      redactor.setSecrets([token]);
      for (const [what, carrier] of carriers(token)) {
        const text = `${randomWords(3)} ${carrier} ${randomWords(2)}`;
        assertNoEncodedTrace(redactor.redact(text), token, `${what} (${token})`);
      }
    }
  });

  it('maskSecretsIn: 150 random tokens × 8 carriers', () => {
    for (let round = 0; round < 150; round++) {
      const token = randomToken();
      for (const [what, carrier] of carriers(token)) {
        assertNoEncodedTrace(maskSecretsIn(`{"echo":"${carrier}"}`, [token]), token, `${what} (${token})`);
      }
    }
  });

  it('text without the secret is unchanged (random texts, random tokens)', () => {
    for (let round = 0; round < 200; round++) {
      const token = randomToken();
      const redactor = new Redactor();
      redactor.setSecrets([token]);
      const other = randomToken();
      const text = `${randomWords(5)} ${Buffer.from(other).toString('base64')} ${Buffer.from(other).toString('hex')} ${randomWords(5)}`;
      if (text.includes(token)) continue;
      assert.equal(redactor.redact(text), text);
      assert.equal(maskSecretsIn(text, [token]), text);
    }
  });

  it('stays linear with the encoded forms (n vs 32n)', () => {
    const token = randomToken();
    const redactor = new Redactor();
    redactor.setSecrets([token]);
    const near = Buffer.from(token).toString('hex').slice(0, -2);
    assertLinearTime('encoded near-misses', (n) => flat(`${near} `.repeat(Math.ceil(n / (near.length + 1)))), (text) => redactor.redact(text), { n: 4_000 });
  });
});
