// The file a failed cell wanted (src/core/notebooks/missingFile.ts): only a FileNotFoundError's relative
// path is offered for upload; absolute, home, escaping, odd or huge values are not; only a bounded prefix is read.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { missingRelativeFile } from '../../../src/core/notebooks/missingFile';

const value = (path: string, quote = "'"): string => `[Errno 2] No such file or directory: ${quote}${path}${quote}`;

describe('notebooks: the local file a cell could not read', () => {
  it('names the relative path of a FileNotFoundError', () => {
    assert.equal(missingRelativeFile('FileNotFoundError', value('data.csv')), 'data.csv');
    assert.equal(missingRelativeFile('FileNotFoundError', value('./data/train.csv')), 'data/train.csv');
    assert.equal(missingRelativeFile('FileNotFoundError', value("it's.csv", '"')), "it's.csv");
  });

  it('offers nothing for other errors, absolute, home or escaping paths, or odd text', () => {
    assert.equal(missingRelativeFile('ValueError', value('data.csv')), undefined);
    assert.equal(missingRelativeFile('FileNotFoundError', value('/etc/passwd')), undefined);
    assert.equal(missingRelativeFile('FileNotFoundError', value('~/data.csv')), undefined);
    assert.equal(missingRelativeFile('FileNotFoundError', value('../secrets/key')), undefined);
    assert.equal(missingRelativeFile('FileNotFoundError', value('a/../../b')), undefined);
    assert.equal(missingRelativeFile('FileNotFoundError', value('a\\nb')), undefined);
    assert.equal(missingRelativeFile('FileNotFoundError', value('a\u0007b')), undefined);
    assert.equal(missingRelativeFile('FileNotFoundError', value('')), undefined);
    assert.equal(missingRelativeFile('FileNotFoundError', 'no path here'), undefined);
    assert.equal(missingRelativeFile('FileNotFoundError', value('x'.repeat(5_000))), undefined);
  });

  it('takes the last path named in a value of repeated prefixes, reading a bounded part of it', () => {
    assert.equal(missingRelativeFile('FileNotFoundError', `${value('a.csv')} ${value('b.csv')}`), 'b.csv');
    assert.equal(missingRelativeFile('FileNotFoundError', value('a.csv').repeat(100_000)), undefined);
  });
});
