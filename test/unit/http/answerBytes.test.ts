// A response body is kept in blocks of its own as chunks arrive (src/core/http/answerBytes.ts): the bytes
// come back exactly, no block is larger than 1 MiB (no body-sized copy in one turn), and each block owns
// its whole ArrayBuffer so the parsing worker can take it without a copy.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { AnswerBytes } from '../../../src/core/http/answerBytes';

describe('AnswerBytes', () => {
  it('keeps chunks of any size exactly, in blocks of at most 1 MiB that own their buffers', () => {
    const body = randomBytes(3 * 1024 * 1024 + 12_345);
    const answer = new AnswerBytes();
    // Network-like chunks of uneven sizes, some crossing block boundaries, one larger than a block.
    const sizes = [1, 70_000, 65_535, 2 * 1024 * 1024, 7, 333_333];
    let offset = 0;
    for (let i = 0; offset < body.length; i++) {
      const size = Math.min(sizes[i % sizes.length]!, body.length - offset);
      answer.append(body.subarray(offset, offset + size));
      offset += size;
    }
    assert.equal(answer.size, body.length);
    const parts = answer.parts();
    assert.ok(parts.length >= 4);
    for (const part of parts) {
      assert.ok(part.length <= 1024 * 1024, 'no block larger than 1 MiB');
      assert.equal(part.byteOffset, 0, 'each block starts its own buffer');
    }
    assert.equal(new Set(parts.map((part) => part.buffer)).size, parts.length, 'no two blocks share a buffer');
    assert.ok(Buffer.concat(parts).equals(body));
    assert.ok(answer.start().equals(body));
    assert.ok(answer.start(100_000).equals(body.subarray(0, 100_000)));
  });

  it('a small answer is one small block; an empty one has none', () => {
    const small = AnswerBytes.of(Buffer.from('{"code":"0000"}'));
    assert.equal(small.parts().length, 1);
    assert.equal(small.parts()[0]!.buffer.byteLength, 64 * 1024);
    assert.equal(small.start().toString(), '{"code":"0000"}');
    const empty = new AnswerBytes();
    assert.deepEqual(empty.parts(), []);
    assert.equal(empty.start().length, 0);
  });
});
