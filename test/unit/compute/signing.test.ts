import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { ConfigError } from '../../../src/core/errors';
import { encodeQuery } from '../../../src/core/compute/operations';
import { sign, signAsync, SIGN_SLICE_CHARS, stringToSign, verify, type StringToSignFields } from '../../../src/core/compute/signing';
import { rsaPair } from './helpers/keys';
import { OpenSslWorkspace } from './helpers/openssl';

describe('stringToSign known-answer vectors (docs/signing.md)', () => {
  it('keeps all four separators with an empty body, ending in LF', () => {
    const text = stringToSign({
      path: '/api/deployment/resource/search',
      version: '1.0.0',
      timestamp: '1700000000000',
      token: 'tok_abc123',
      body: '',
    });
    assert.equal(text, '/api/deployment/resource/search\n1.0.0\n1700000000000\ntok_abc123\n');
    assert.ok(text.endsWith('\n'));
    assert.equal(text.split('\n').length, 5);
  });

  it('signs the query exactly as encoded and sent', () => {
    const query = encodeQuery([
      ['task_type', 'Deployment'],
      ['search_value', "my task/α & 'β' (1)*!"],
    ]);
    assert.equal(query, 'task_type=Deployment&search_value=my%20task%2F%CE%B1%20%26%20%27%CE%B2%27%20%281%29%2A%21');
    const text = stringToSign({
      path: `/api/deployment/task/search?${query}`,
      version: '1.0.0',
      timestamp: '1700000000123',
      token: 'T',
      body: '',
    });
    assert.equal(
      text,
      '/api/deployment/task/search?task_type=Deployment&search_value=my%20task%2F%CE%B1%20%26%20%27%CE%B2%27%20%281%29%2A%21\n1.0.0\n1700000000123\nT\n',
    );
  });

  it('keeps a non-ASCII body as UTF-8 bytes', () => {
    const body = JSON.stringify({ task_name: '训练-🚀', points: 1 });
    const text = stringToSign({ path: '/api/deployment/task/create', version: '1.0.0', timestamp: '1700000000000', token: 'k', body });
    assert.equal(text, '/api/deployment/task/create\n1.0.0\n1700000000000\nk\n{"task_name":"训练-🚀","points":1}');
    const bytes = Buffer.from(text, 'utf8');
    // 训 = e8 ae ad, 🚀 = f0 9f 9a 80: no \u escapes, raw UTF-8.
    assert.ok(bytes.includes(Buffer.from([0xe8, 0xae, 0xad])));
    assert.ok(bytes.includes(Buffer.from([0xf0, 0x9f, 0x9a, 0x80])));
    assert.equal(bytes.length, 88);
  });

  it('refuses a line break inside a header field, and a relative path', () => {
    const base: StringToSignFields = { path: '/api/x', version: '1.0.0', timestamp: '1700000000000', token: 't', body: '' };
    assert.throws(() => stringToSign({ ...base, token: 'abc\n' }), (e: unknown) => e instanceof ConfigError && /token contains a line break/.test(e.message));
    assert.throws(() => stringToSign({ ...base, version: '1.0.0\r' }), ConfigError);
    assert.throws(() => stringToSign({ ...base, path: 'api/x' }), /must start with "\/"/);
  });
});

/** Splits at the first four LFs only: the body may itself contain LFs. */
function parseStringToSign(text: string): StringToSignFields {
  const parts: string[] = [];
  let rest = text;
  for (let i = 0; i < 4; i++) {
    const at = rest.indexOf('\n');
    assert.notEqual(at, -1, 'fewer than four separators');
    parts.push(rest.slice(0, at));
    rest = rest.slice(at + 1);
  }
  const [path = '', version = '', timestamp = '', token = ''] = parts;
  return { path, version, timestamp, token, body: rest };
}

describe('stringToSign properties', () => {
  const headerField = fc.string({ unit: 'grapheme' }).filter((s) => !s.includes('\n') && !s.includes('\r'));
  const fields = fc.record({
    path: headerField.map((s) => `/${s}`),
    version: headerField,
    timestamp: fc.bigInt({ min: 10n ** 12n, max: 10n ** 13n - 1n }).map(String),
    token: headerField,
    body: fc.string({ unit: 'grapheme' }),
  }, { noNullPrototype: true });

  it('parses back into exactly the five fields, whatever the body holds', () => {
    fc.assert(
      fc.property(fields, (f) => {
        const text = stringToSign(f);
        assert.deepEqual(parseStringToSign(text), f);
        // LF count = the four separators + the body's own.
        const bodyLfs = f.body.split('\n').length - 1;
        assert.equal(text.split('\n').length - 1, 4 + bodyLfs);
        assert.ok(text.endsWith(`\n${f.body}`));
      }),
      { numRuns: 500 },
    );
  });

  it('is injective: different fields never give the same string', () => {
    fc.assert(
      fc.property(fields, fields, (a, b) => {
        fc.pre(JSON.stringify(a) !== JSON.stringify(b));
        assert.notEqual(stringToSign(a), stringToSign(b));
      }),
      { numRuns: 300 },
    );
  });
});

describe('RSA-SHA256 PKCS#1 v1.5 signatures against the OpenSSL CLI', () => {
  const pair = rsaPair();
  const ws = new OpenSslWorkspace();
  after(() => ws.cleanup());
  const privPath = ws.file('priv.pem', pair.pkcs8Pem);
  const pubPath = ws.file('pub.pem', pair.spkiPem);

  const bodyArb = fc.oneof(
    fc.constant(''),
    fc.string({ unit: 'grapheme', maxLength: 400 }),
    fc.json({ maxDepth: 3 }),
    fc.constantFrom('{"task_name":"模型服务-😀","points":2}', '{"a":"\\u0000 \\n tab\\t"}'),
  );
  const queryArb = fc.array(fc.tuple(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }), fc.string({ unit: 'grapheme', maxLength: 12 })), {
    maxLength: 4,
  });

  it('our signature equals `openssl dgst -sha256 -sign` byte for byte and passes `-verify`', () => {
    const samples = fc.sample(fc.tuple(bodyArb, queryArb, fc.string({ minLength: 8, maxLength: 40 })), { numRuns: 24, seed: 20240611 });
    for (const [body, query, token] of samples) {
      const path = `/api/deployment/task/search${query.length ? `?${encodeQuery(query)}` : ''}`;
      const text = stringToSign({ path, version: '1.0.0', timestamp: '1718000000000', token: token.replace(/[\r\n]/g, ''), body });
      const data = Buffer.from(text, 'utf8');
      const ours = Buffer.from(sign(text, pair.privateKey), 'base64');
      assert.equal(ours.length, 256);
      assert.ok(ws.verify(pubPath, data, ours), `openssl -verify rejected our signature for ${JSON.stringify(text)}`);
      assert.deepEqual(ours, ws.sign(privPath, data), 'PKCS#1 v1.5 is deterministic: bytes must match OpenSSL');
      assert.equal(verify(text, ours.toString('base64'), pair.publicKey), true);
    }
  });

  it('a one-byte change in the signed text fails both verifiers', () => {
    const text = stringToSign({ path: '/api/x', version: '1.0.0', timestamp: '1718000000000', token: 'tok', body: '{"a":1}' });
    const signature = sign(text, pair.privateKey);
    const altered = text.replace('"a":1', '"a":2');
    assert.equal(verify(altered, signature, pair.publicKey), false);
    assert.equal(ws.verify(pubPath, Buffer.from(altered), Buffer.from(signature, 'base64')), false);
  });

  it('uses standard Base64 (not URL-safe) and a full-length signature', () => {
    for (let i = 0; i < 20; i++) {
      const signature = sign(`/api/x\n1.0.0\n17180000000${String(i).padStart(2, '0')}\ntok\n`, pair.privateKey);
      assert.match(signature, /^[A-Za-z0-9+/]{342}==$/);
    }
  });

  it('produces 128-byte signatures for a 1024-bit key (length follows the modulus)', () => {
    const small = rsaPair(1024);
    assert.equal(Buffer.from(sign('x', small.privateKey), 'base64').length, 128);
  });
});

describe('signing a long string in slices', () => {
  it('gives the same signature as one go, with surrogate pairs across a slice boundary, and lets the event loop run', async () => {
    const { privateKey } = rsaPair(2048);
    // A 😀 (two UTF-16 units) straddles the first slice boundary; the rest spans several slices.
    const data = `${'a'.repeat(SIGN_SLICE_CHARS - 1)}😀${'数据'.repeat(SIGN_SLICE_CHARS)}`;
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 0);
    const sliced = await signAsync(data, privateKey);
    clearInterval(ticker);
    assert.equal(sliced, sign(data, privateKey));
    assert.ok(ticks > 0, 'timers ran between the slices');
    assert.equal(await signAsync('short', privateKey), sign('short', privateKey));
  });
});
