import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import {
  compactJson,
  encryptBody,
  encryptBodyAsync,
  INLINE_ENCRYPTION_LIMIT_BYTES,
  segmentBytes,
  SEGMENT_BYTES_2048,
} from '../../../src/core/compute/encryption';
import { AbortedError, ConfigError } from '../../../src/core/errors';
import { decryptBlocks, rsaPair } from './helpers/keys';
import { OpenSslWorkspace } from './helpers/openssl';

const platform = rsaPair(2048, 0);

describe('compact JSON', () => {
  it('has no whitespace after separators and keeps non-ASCII as is', () => {
    assert.equal(compactJson({ task_name: '训练 任务', points: 2, nested: { a: [1, 2] } }), '{"task_name":"训练 任务","points":2,"nested":{"a":[1,2]}}');
    assert.equal(compactJson({ emoji: '😀' }), '{"emoji":"😀"}');
  });
  it('refuses a value JSON cannot represent', () => {
    assert.throws(() => compactJson(undefined), ConfigError);
  });
});

describe('segmenting (property)', () => {
  it('every segment ≤ 244 bytes, all full but the last, concatenation = input', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.integer({ min: 1, max: 300 }), (bytes, size) => {
        const segments = segmentBytes(bytes, size);
        assert.equal(segments.length, Math.ceil(bytes.length / size));
        segments.forEach((segment, i) => {
          assert.ok(segment.length <= size);
          if (i < segments.length - 1) assert.equal(segment.length, size);
        });
        assert.deepEqual(Buffer.concat(segments), Buffer.from(bytes));
      }),
    );
  });

  it('multi-byte characters may straddle a boundary yet the text round-trips', () => {
    // 300 bytes of 3-byte characters: byte 244 is a continuation byte (10xxxxxx), so the first
    // segment ends inside the 82nd character.
    const forced = '中'.repeat(100);
    const forcedBytes = Buffer.from(forced);
    const [first, second] = segmentBytes(forcedBytes);
    assert.equal(first?.length, 244);
    assert.equal((second?.[0] ?? 0) & 0xc0, 0x80, 'second segment starts mid-character');
    assert.equal(Buffer.concat(segmentBytes(forcedBytes)).toString('utf8'), forced);

    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 600 }), (text) => {
        const segments = segmentBytes(Buffer.from(text, 'utf8'), SEGMENT_BYTES_2048);
        assert.ok(segments.every((segment) => segment.length <= SEGMENT_BYTES_2048));
        assert.equal(Buffer.concat(segments).toString('utf8'), text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('body encryption', () => {
  it('gives ⌈n/244⌉ blocks of 256 bytes, one Base64 string, that decrypt to the plaintext', () => {
    for (const size of [0, 1, 243, 244, 245, 488, 489, 5000]) {
      const text = 'x'.repeat(size);
      const cipher = encryptBody(text, platform.publicKey);
      assert.match(cipher, /^[A-Za-z0-9+/]*={0,2}$/);
      assert.equal(Buffer.from(cipher, 'base64').length, Math.ceil(size / 244) * 256);
      assert.equal(decryptBlocks(cipher, platform.privateKey).toString('utf8'), text);
    }
  });

  it('is randomized (PKCS#1 v1.5 type-2 padding) yet always decrypts to the same text', () => {
    const a = encryptBody('{"a":1}', platform.publicKey);
    const b = encryptBody('{"a":1}', platform.publicKey);
    assert.notEqual(a, b);
    assert.equal(decryptBlocks(a, platform.privateKey).toString(), decryptBlocks(b, platform.privateKey).toString());
  });

  it('refuses a private key in place of the platform public key', () => {
    assert.throws(() => encryptBody('{}', platform.privateKey), /needs the platform public key/);
  });

  it('the async form matches the sync one for large bodies, yields to the event loop, and honours abort', async () => {
    const text = JSON.stringify({ data: '数据'.repeat(Math.ceil((INLINE_ENCRYPTION_LIMIT_BYTES * 1.5) / 6)) });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 0);
    const cipher = await encryptBodyAsync(text, platform.publicKey);
    clearInterval(ticker);
    assert.ok(ticks > 0, 'the event loop ran timers while a >256 KB body was encrypted');
    // Same segmenting as the sync path: ⌈bytes/244⌉ blocks of 256 (a 245-byte segment would still
    // decrypt, so only the block count shows the boundary).
    const plaintextBytes = Buffer.byteLength(text, 'utf8');
    assert.ok(plaintextBytes > INLINE_ENCRYPTION_LIMIT_BYTES, 'the body is large enough to take the sliced path');
    const cipherBytes = Buffer.from(cipher, 'base64').length;
    assert.equal(cipherBytes, Math.ceil(plaintextBytes / 244) * 256);
    assert.equal(cipherBytes, Buffer.from(encryptBody(text, platform.publicKey), 'base64').length);
    assert.equal(decryptBlocks(cipher, platform.privateKey).toString('utf8'), text);

    const controller = new AbortController();
    const pending = encryptBodyAsync(text, platform.publicKey, controller.signal);
    controller.abort();
    await assert.rejects(pending, AbortedError);
  });
});

describe('body encryption against `openssl pkeyutl -decrypt` (block by block)', () => {
  const ws = new OpenSslWorkspace();
  after(() => ws.cleanup());
  const privPath = ws.file('platform-priv.pem', platform.pkcs8Pem);

  it('random JSON bodies with non-ASCII and emoji reassemble to the plaintext', () => {
    const bodyArb = fc.record({
      task_name: fc.string({ unit: 'grapheme', maxLength: 120 }),
      points: fc.integer({ min: 1, max: 64 }),
      note: fc.constantFrom('', '模型服务 🚀', 'ümlaut – dash', '"quoted" \\ back\\slash'),
      tags: fc.array(fc.string({ unit: 'grapheme', maxLength: 20 }), { maxLength: 12 }),
    }, { noNullPrototype: true });
    const samples = fc.sample(bodyArb, { numRuns: 8, seed: 424242 });
    for (const body of samples) {
      const plaintext = compactJson(body);
      const cipher = Buffer.from(encryptBody(plaintext, platform.publicKey), 'base64');
      assert.equal(cipher.length % 256, 0);
      const blocks: Buffer[] = [];
      for (let offset = 0; offset < cipher.length; offset += 256) {
        const block = ws.decryptBlock(privPath, cipher.subarray(offset, offset + 256));
        assert.ok(block.length <= 244 && block.length > 0, `segment of ${block.length} bytes`);
        blocks.push(block);
      }
      assert.equal(Buffer.concat(blocks).toString('utf8'), plaintext);
      assert.deepEqual(JSON.parse(Buffer.concat(blocks).toString('utf8')), body);
    }
  });
});
