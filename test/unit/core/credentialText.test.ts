// Secrets in every shape: credentials found by their key or their place in a URL (credentialText.ts),
// and a registered token written in the other Base64 alphabet (redaction.ts) — through the Redactor
// (logs, documents, errors, request history, Sign Request), the request debugger's exchange record and
// tool results. Property tests from fast-check; linear-time guards on hostile text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { answeredExchange } from '../../../src/core/compute/exchange';
import type { BuiltRequest } from '../../../src/core/compute/request';
import { maskCredentials } from '../../../src/core/credentialText';
import { maskSecretsIn, Redactor } from '../../../src/core/log';
import { finalText } from '../../../src/core/tools/format';
import { assertLinearTime, flat } from '../../helpers/linearTime';

const redactor = new Redactor();

/** The key spellings a server, a config file or a library uses for a credential. */
const KEYS = ['password', 'Password', 'PASSWORD', 'passwd', 'pwd', 'pass', 'secret', 'token', 'access_token', 'accessToken', 'HF_TOKEN', 'api_key', 'apiKey', 'X-Api-Key', 'client_secret', 's3_secret_key', 'db.password', 'DB_PASSWORD', 'private_key', 'passphrase'];

/** A JSON-escaped spelling of `key`: one letter as \u00XX (what some encoders write). */
function escapedKey(key: string): string {
  return `${key.slice(0, 1)}\\u00${key.charCodeAt(1).toString(16)}${key.slice(2)}`;
}

/** Every shape a credential travels in, as text around `value` under `key`. */
const SHAPES: Record<string, (key: string, value: string) => string> = {
  'JSON': (key, value) => JSON.stringify({ user: 'u', [key]: value, port: 22 }),
  'JSON, pretty': (key, value) => JSON.stringify({ sftp: { [key]: value } }, null, 2),
  'JSON, escaped key': (key, value) => `{"${escapedKey(key)}":${JSON.stringify(value)}}`,
  'JSON inside a JSON string': (key, value) => JSON.stringify({ body: JSON.stringify({ [key]: value }) }),
  'YAML': (key, value) => `user: u\n${key}: ${value}\nport: 22\n`,
  'YAML, quoted': (key, value) => `${key}: '${value}'\n`,
  'env line': (key, value) => `export ${key}=${value}\n`,
  'header': (key, value) => `GET /x\n${key}: ${value}\nAccept: */*`,
  'query string': (key, value) => `https://h.invalid/p?a=1&${key}=${encodeURIComponent(value)}&b=2`,
  'query string, percent-encoded': (key, value) => `next=${encodeURIComponent(`/p?${key}=${encodeURIComponent(value)}&b=2`)}`,
  'Python repr': (key, value) => `{'${key}': '${value}', 'n': 1}`,
};

/** Characters a password may hold, minus those each shape would have to encode (the shapes above do). */
const password = fc.string({ unit: fc.constantFrom(...'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789-_.~+/=!*$'), minLength: 8, maxLength: 40 });

describe('credentials by their key', () => {
  it('masks the value under every credential key spelling in every shape (property)', () => {
    fc.assert(
      fc.property(password, fc.constantFrom(...KEYS), fc.constantFrom(...Object.keys(SHAPES)), (secret, key, shape) => {
        const text = (SHAPES[shape] as (k: string, v: string) => string)(key, secret);
        for (const [surface, out] of [['Redactor', redactor.redact(text)], ['maskCredentials', maskCredentials(text)], ['tool result', finalText(text, [], 10_000)]] as const) {
          assert.ok(!out.includes(secret) && !out.includes(encodeURIComponent(secret)) && !out.includes(encodeURIComponent(encodeURIComponent(secret))), `${surface} · ${shape} · ${key}: ${out}`);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('masks a JSON value holding quotes and backslashes, and keeps the JSON around it', () => {
    const secret = 'p"a\\s s"w:0,rd}';
    const text = JSON.stringify({ host: 'h', Password: secret, port: 22 });
    const out = maskCredentials(text);
    assert.equal(out, '{"host":"h","Password":"••••••","port":22}');
    const nested = JSON.stringify({ body: JSON.stringify({ pwd: secret, n: 1 }) });
    assert.equal(JSON.parse(JSON.parse(maskCredentials(nested)).body).n, 1);
    assert.ok(!JSON.parse(JSON.parse(maskCredentials(nested)).body).pwd.includes('a\\s'));
  });

  it('masks the scheme and credential of an Authorization header, and the password in a URL', () => {
    assert.equal(maskCredentials('Authorization: Basic dXNlcjpodW50ZXIy'), 'Authorization: ••••••');
    assert.equal(maskCredentials('clone https://alice:s3cr3t-pw@git.example.invalid/r.git done'), 'clone https://alice:••••••@git.example.invalid/r.git done');
    assert.equal(maskCredentials('{"url":"sftp:\\/\\/bob:hunter2x@h.invalid:22\\/"}'), '{"url":"sftp:\\/\\/bob:••••••@h.invalid:22\\/"}');
    assert.equal(maskCredentials('see https%3A%2F%2Fcarol%3Apw123456%40h.invalid%2F'), 'see https%3A%2F%2Fcarol%3A••••••%40h.invalid%2F');
    assert.equal(redactor.redact('postgres://u:pa55w0rd@[::1]:5432/db'), 'postgres://u:••••••@[::1]:5432/db');
  });

  it('leaves what is not a credential: counts of tokens, references to stored secrets, structures, null', () => {
    for (const text of [
      '{"max_tokens":512,"prompt_tokens":10,"usage":{"total_tokens":30}}',
      'env:\n  HF_TOKEN: {secret: hf}\n',
      'env:\n  HF_TOKEN: «secret: demo-token»\n  MODE: prod\n',
      '{"password":null,"token":true}',
      'GET https://h.invalid/path?page=2 200',
      'git@github.com:org/repo.git',
      'a plain sentence about passwords and tokens.',
    ]) {
      assert.equal(maskCredentials(text), text);
    }
  });

  it('masks the SFTP password the platform answers with in the request debugger, under any key spelling, and credential headers', () => {
    const built: BuiltRequest = {
      plan: { operation: 'raw', method: 'POST', pathWithQuery: '/nas/session', jsonBody: '{}', encrypt: false, idempotent: false, secretValues: [] },
      url: 'https://h.invalid/nas/session',
      signedPath: '/nas/session',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      mode: 'token',
      token: 'tok-1234567890',
      version: '1',
      timestamp: '0',
    };
    for (const key of ['password', 'Password', 'PASSWORD', 'passwd', 'pass\\u0077ord', 'sftp_password']) {
      const record = answeredExchange(built, 1, 200, { 'set-cookie': 'sid=abcdef123456', 'x-trace': 'ok' }, 5, `{"code":"0000","data":{"username":"u","${key}":"Sftp-Pa55-word"}}`);
      assert.doesNotMatch(record.responseBody, /Sftp-Pa55-word/, key);
      assert.match(record.responseBody, /"username":"u"/);
      assert.deepEqual(record.responseHeaders, [['set-cookie', '••••••'], ['x-trace', 'ok']]);
    }
  });

  it('is linear on hostile text', () => {
    const inputs: Record<string, (n: number) => string> = {
      'long identifier, no separator': (n) => 'a'.repeat(n),
      'keys and separators': (n) => 'password:'.repeat(n / 9),
      'unterminated JSON values': (n) => '"token":"x'.repeat(n / 10),
      'escaped quotes': (n) => `"password":"${'\\\\\\"'.repeat(n / 4)}`,
      'schemes without authority end': (n) => 'a://b:c'.repeat(n / 7),
      'percent noise': (n) => '%3D%26'.repeat(n / 6),
    };
    for (const [label, input] of Object.entries(inputs)) assertLinearTime(label, (size) => flat(input(size)), (text) => maskCredentials(text), { n: 8_000 });
  });
});

describe('a registered token in the other Base64 alphabet', () => {
  it('is masked by the Redactor and maskSecretsIn in Base64url when it is Base64, and the other way round, padded or not (property)', () => {
    const bytes = fc.uint8Array({ minLength: 9, maxLength: 48 });
    fc.assert(
      fc.property(bytes, fc.boolean(), (raw, registerUrl) => {
        const standard = Buffer.from(raw).toString('base64');
        const url = Buffer.from(raw).toString('base64url');
        const [registered, written] = registerUrl ? [url, standard] : [standard, url];
        const local = new Redactor();
        local.setSecrets([registered]);
        for (const text of [`token ${written} end`, `x=${written}&y=1`, `"${written.replace(/=+$/, '')}"`]) {
          const core = written.replace(/=+$/, '');
          assert.ok(!local.redact(text).includes(core), `Redactor: ${text}`);
          assert.ok(!maskSecretsIn(text, [registered]).includes(core), `maskSecretsIn: ${text}`);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a fixed example: +/ registered, -_ written', () => {
    const token = 'ab+cd/ef+gh/ij+kl/mn==';
    const local = new Redactor();
    local.setSecrets([token]);
    assert.doesNotMatch(local.redact('Authorization: Token ab-cd_ef-gh_ij-kl_mn'), /ab-cd_ef/);
    assert.doesNotMatch(maskSecretsIn('sent ab-cd_ef-gh_ij-kl_mn', [token]), /ab-cd_ef/);
  });
});
