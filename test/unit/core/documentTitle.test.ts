// A server's name in a read-only document's title stays one plain, bounded URI segment (issue 26).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_TITLE_CHARS, documentTitleSegment } from '../../../src/core/documentTitle';

describe('documentTitleSegment', () => {
  it('keeps a plain title, non-ASCII included', () => {
    assert.equal(documentTitleSegment('Task 1229831 · 训练'), 'Task 1229831 · 训练');
  });

  it('no separator, control, escape or bidi character; no "." or ".." segment', () => {
    assert.equal(documentTitleSegment('a/b\\c'), 'a∕b∕c');
    assert.equal(documentTitleSegment('job\u001b]52;c;eA==\u0007\u202e\nx'), 'job x');
    assert.equal(documentTitleSegment('..'), 'document');
    assert.equal(documentTitleSegment(' . '), 'document');
  });

  it('is bounded, whatever the name', () => {
    const title = documentTitleSegment('训'.repeat(1_000_000));
    assert.equal([...title].length, MAX_TITLE_CHARS);
    assert.ok(title.endsWith('…'));
  });
});
