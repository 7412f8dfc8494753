import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { jsonLengthAtLeast, MAX_BODY_BYTES, MAX_BODY_VALUES, measureBody } from '../../../src/core/compute/bodySize';
import { compactJson } from '../../../src/core/compute/compactJson';
import { planOperation, planRaw } from '../../../src/core/compute/operations';
import { ConfigError } from '../../../src/core/errors';

function refusedForSize(error: unknown): boolean {
  return error instanceof ConfigError && error.words?.message.key === 'body.tooLarge' && error.words.hint?.key === 'body.tooLarge.hint' && /over 512 KiB/.test(error.message);
}

// Characters JSON escapes (quotes, backslashes, C0 controls, lone surrogates) beside plain and non-ASCII ones.
const hostileChar = fc.constantFrom('a', '"', '\\', '\n', '\u0001', '\u001f', '\ud800', '\udc00', '😀', '训', '\u2028', '\u007f');
const hostileString = fc.array(hostileChar, { maxLength: 40 }).map((chars) => chars.join(''));
const jsonish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.date({ noInvalidDate: true }),
    fc.array(tie('value'), { maxLength: 6 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 6 }),
  ),
})).value;

describe('request body size', () => {
  it('the walk never counts more than JSON.stringify writes, whatever the value (property)', () => {
    fc.assert(
      fc.property(jsonish, (value) => {
        const text = JSON.stringify(value);
        if (text === undefined) return;
        assert.ok(jsonLengthAtLeast(value, Number.MAX_SAFE_INTEGER) <= text.length, text);
      }),
      { numRuns: 500 },
    );
  });

  it('stops counting past the limit: a huge array is sized by its length, never walked', () => {
    const huge = new Array(50_000_000);
    assert.ok(jsonLengthAtLeast({ a: huge }, 1024) > 1024);
  });

  it('counts values exactly up to the limit, and a list or mapping too long by its size alone', () => {
    const value = { a: [1, 'x', null], b: { c: true } };
    assert.equal(measureBody(value, { bytes: 1_000, values: 1_000 }).values, 7);
    const list = new Array(MAX_BODY_VALUES + 1).fill(0);
    assert.ok(measureBody({ list }).values > MAX_BODY_VALUES);
    const wide = Object.fromEntries(Array.from({ length: MAX_BODY_VALUES + 1 }, (_, index) => [`k${index}`, 0]));
    assert.ok(measureBody({ wide }).values > MAX_BODY_VALUES);
  });

  it('a body of more values than the limit is refused with a clear error before it is written out', () => {
    let written = false;
    const later = { toJSON: () => ((written = true), 'x') };
    const refusedForValues = (error: unknown): boolean => error instanceof ConfigError && error.words?.message.key === 'body.tooManyValues' && error.message.includes(String(MAX_BODY_VALUES));
    // Many small lists, none too long alone.
    const lists = Array.from({ length: 200 }, () => new Array(MAX_BODY_VALUES / 100).fill(''));
    assert.throws(() => compactJson({ lists, later }), refusedForValues);
    assert.equal(written, false);
    assert.doesNotThrow(() => compactJson({ list: new Array(MAX_BODY_VALUES - 2).fill(0) }));
  });

  it('a 4 MB body is refused with a clear error before it is written out', () => {
    let written = false;
    const body = { env: 'E'.repeat(4 * 1024 * 1024), later: { toJSON: () => ((written = true), 'x') } };
    assert.throws(() => compactJson(body), refusedForSize);
    assert.equal(written, false, 'JSON.stringify never ran');
  });

  it('escapes count: a string of control characters under the cap by length but over it written out is refused unwritten', () => {
    let written = false;
    const body = { env: '\u0001'.repeat(MAX_BODY_BYTES / 2), later: { toJSON: () => ((written = true), 'x') } };
    assert.throws(() => compactJson(body), refusedForSize);
    assert.equal(written, false);
  });

  it('is exact at the cap, counted in UTF-8 bytes', () => {
    const overhead = '{"env":""}'.length;
    assert.equal(Buffer.byteLength(compactJson({ env: 'a'.repeat(MAX_BODY_BYTES - overhead) })), MAX_BODY_BYTES);
    assert.throws(() => compactJson({ env: 'a'.repeat(MAX_BODY_BYTES - overhead + 1) }), refusedForSize);
    // Three bytes each: under the cap in characters, over it in bytes.
    assert.throws(() => compactJson({ env: '训'.repeat(Math.ceil(MAX_BODY_BYTES / 3)) }), refusedForSize);
  });

  it('every way a body is planned goes through the cap: catalog operations and hand-written requests', () => {
    const env = 'E'.repeat(2 * MAX_BODY_BYTES);
    assert.throws(() => planRaw({ method: 'POST', path: '/api/x', body: { env } }, true), refusedForSize);
    assert.throws(
      () =>
        planOperation(
          'task.create',
          {
            task_name: 'x',
            points: 1,
            resources: [{ mark: 'm', region_name: 'r', resource: { device_name: 'd', region: 'r', gpu_name: 'g', gpu_count: 1, gpu_memory: 1, memory: 1, cpu_cores: 1 } }],
            services: [{ service_name: 'web', service_image: 'nginx:1.27', remote_ports: [{ service_port: 80 }], env }],
          },
          true,
        ),
      refusedForSize,
    );
  });
});
