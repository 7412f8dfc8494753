// Names a volume's server lists are untrusted paths (core/nas/entryNames.ts): only one plain path
// segment is used, the rest is skipped and shown escaped, and a local path built from names must stay
// under its destination.

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { escapedName, isSafeEntryName, localPathUnder, SkippedNames } from '../../../src/core/nas/entryNames';
import { NasFileError } from '../../../src/core/nas/errors';

const ROOT = path.resolve('/tmp/downloads/dl');
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Strings rich in what a hostile server sends: dots, separators, NUL, C0/C1 controls, non-ASCII. */
const hostileName = fc
  .array(fc.constantFrom('.', '..', '/', '\\', '\u0000', '\u001b', '\u009b', '\u007f', ' ', 'a', '训', '\u202e', 'x'), { maxLength: 12 })
  .map((parts) => parts.join(''));
const anyName = fc.oneof(hostileName, fc.string({ unit: 'binary', maxLength: 40 }));

describe('NAS entry names', () => {
  it('refuses ".", "..", dots and spaces only, separators, NUL and C0/C1 controls; keeps other names', () => {
    for (const bad of ['', '.', '..', '...', '. .', '.. ', '../../../../x', 'a/b', '/', 'a\\b', '..\\x', 'bad\u0000name', 'esc\u001b]52;c;aGk=\u0007', 'c1\u009b2J', 'del\u007f', 'tab\there', 'line\nbreak']) {
      assert.equal(isSafeEntryName(bad), false, JSON.stringify(bad));
    }
    for (const good of ['train.csv', '.gitignore', '..hidden', 'a..b', '训练', '实验 数据', 'emoji-🙂', 'x.']) assert.equal(isSafeEntryName(good), true, good);
  });

  it('a name it accepts never leads out of the destination (property)', () => {
    fc.assert(
      fc.property(anyName, (name) => {
        const refusedByRule = name === '' || /^[.\s]*$/.test(name) || /[/\\]/.test(name) || CONTROL.test(name);
        assert.equal(isSafeEntryName(name), !refusedByRule);
        if (!isSafeEntryName(name)) {
          assert.throws(() => localPathUnder(ROOT, [name]), (error: unknown) => error instanceof NasFileError && error.code === 'outside-destination');
          return;
        }
        const target = localPathUnder(ROOT, ['sub', name]);
        const relative = path.relative(ROOT, target);
        assert.ok(relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative), relative);
        assert.equal(path.dirname(target), path.join(ROOT, 'sub'));
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses a segment list that resolves upwards, whatever the names say', () => {
    for (const segments of [['..', 'x'], ['a', '..', '..', 'x'], ['..'], ['a/../../x']]) {
      assert.throws(() => localPathUnder(ROOT, segments), (error: unknown) => error instanceof NasFileError && error.code === 'outside-destination');
    }
    assert.equal(localPathUnder(ROOT, []), ROOT);
    assert.equal(localPathUnder(ROOT, ['a', 'b.txt']), path.join(ROOT, 'a', 'b.txt'));
  });

  it('shows names escaped: no control character, no bidi override, bounded (property)', () => {
    assert.equal(escapedName('bad\u0000name'), '"bad\\u0000name"');
    assert.equal(escapedName('c1\u009b2J'), '"c1\\u009b2J"');
    assert.equal(escapedName('a\\b'), '"a\\u005cb"');
    assert.equal(escapedName('训练'), '"训练"');
    fc.assert(
      fc.property(anyName, fc.string({ unit: 'binary', maxLength: 400 }), (name, long) => {
        for (const shown of [escapedName(name), escapedName(long)]) {
          assert.doesNotMatch(shown, CONTROL);
          assert.doesNotMatch(shown, /[\u202a-\u202e\u2066-\u2069]/);
          assert.ok(shown.length <= 2 + 80 * 6 + 1, String(shown.length));
        }
      }),
    );
  });

  it('keeps the first 20 skipped names and counts all', () => {
    const skipped = new SkippedNames();
    for (let index = 0; index < 25; index++) skipped.add(`../${index}`, '/dl');
    assert.equal(skipped.count, 25);
    assert.equal(skipped.names.length, 20);
    assert.equal(skipped.names[0], '/dl/"../0"');
  });
});
