// The one helper that makes a name from the platform or the workspace a local file name or a run folder
// (core/safeFileName.ts): non-ASCII stays, separators, Windows' refused characters and controls go.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isSafeEntryName } from '../../../src/core/nas/entryNames';
import { safeFileName, SAFE_NAME_MAX_BYTES } from '../../../src/core/safeFileName';

const FORBIDDEN = /[/\\:*?"<>|\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff\u2028\u2029]/;
const nameParts = fc.constantFrom('训练', '实验', 'comfyui', '-', '.', '..', '/', '\\', ':', '*', '?', '"', '<', '>', '|', ' ', '\u0000', '\u001b', '\u009b', '\u202e', '\ud800', 'CON', 'nul', 'a', '🙂', 'é');
const hostile = fc.oneof(fc.array(nameParts, { maxLength: 10 }).map((parts) => parts.join('')), fc.string({ unit: 'binary', maxLength: 60 }));

describe('safeFileName', () => {
  it('keeps non-ASCII names apart (two Chinese run folders were both "-")', () => {
    assert.equal(safeFileName('训练', 'project'), '训练');
    assert.equal(safeFileName('实验', 'project'), '实验');
    assert.notEqual(safeFileName('训练', 'project'), safeFileName('实验', 'project'));
    assert.equal(`${safeFileName('comfyui-中文', 'task')}.task.json`, 'comfyui-中文.task.json');
    assert.equal(safeFileName('my model v2.1', 'x'), 'my model v2.1');
  });

  it('replaces separators, refused characters and controls; dots only and empty take the fallback', () => {
    assert.equal(safeFileName('a/b\\c', 'x'), 'a-b-c');
    assert.equal(safeFileName('run:1*?', 'x'), 'run-1-');
    assert.equal(safeFileName('esc\u001b]0;title\u0007', 'x'), 'esc-]0;title-');
    assert.equal(safeFileName('..', 'volume-7'), 'volume-7');
    assert.equal(safeFileName('.', 'volume-7'), 'volume-7');
    assert.equal(safeFileName(' / ', 'volume-7'), 'volume-7');
    assert.equal(safeFileName('', '..'), 'unnamed');
    assert.equal(safeFileName('name. . ', 'x'), 'name');
    assert.equal(safeFileName('CON', 'x'), '_CON');
    assert.equal(safeFileName('nul.txt', 'x'), '_nul.txt');
    assert.equal(safeFileName('训'.repeat(100), 'x', 40), '训'.repeat(13));
  });

  it('always gives one safe path segment, within the byte limit, and is idempotent (property)', () => {
    fc.assert(
      fc.property(hostile, fc.integer({ min: 8, max: 200 }), (name, maxBytes) => {
        const made = safeFileName(name, 'fallback', maxBytes);
        assert.ok(isSafeEntryName(made), JSON.stringify(made));
        assert.doesNotMatch(made, FORBIDDEN);
        assert.doesNotMatch(made, /^\s|[.\s]$/);
        assert.doesNotMatch(made, /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.|$)/i);
        assert.ok(Buffer.byteLength(made) <= maxBytes, made);
        assert.equal(safeFileName(made, 'fallback', maxBytes), made);
      }),
      { numRuns: 3000 },
    );
  });

  it('leaves a name of letters and digits of any script as it is (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[\p{L}\p{N}][\p{L}\p{N} _-]{0,30}[\p{L}\p{N}]$/u), (name) => {
        if (Buffer.byteLength(name) > SAFE_NAME_MAX_BYTES || /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i.test(name)) return;
        assert.equal(safeFileName(name, 'x'), name);
      }),
    );
  });

  it('two different safe names stay different (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[\p{L}\p{N}]{1,12}$/u), fc.stringMatching(/^[\p{L}\p{N}]{1,12}$/u), (a, b) => {
        fc.pre(a !== b && !/^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i.test(a) && !/^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i.test(b));
        assert.notEqual(safeFileName(a, 'x'), safeFileName(b, 'x'));
      }),
    );
  });
});
