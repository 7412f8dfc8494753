import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { writtenPaths } from '../../../src/core/nas/writtenPaths';
import { pickText } from '../../../src/vscode/ui/pickText';

describe('what the Explorer hears after our own writes', () => {
  it('each written file, and every folder above it, once; a replaced file as changed', () => {
    const result = writtenPaths([
      { path: '/up/proj/src/main.py', replaced: false },
      { path: '/up/proj/src/util.py', replaced: true },
      { path: '/up/proj/README.md', replaced: false },
    ]);
    assert.deepEqual([...result.created].sort(), ['/up', '/up/proj', '/up/proj/README.md', '/up/proj/src', '/up/proj/src/main.py']);
    assert.deepEqual(result.changed, ['/up/proj/src/util.py']);
  });

  it('nothing written, nothing announced', () => {
    assert.deepEqual(writtenPaths([]), { created: [], changed: [] });
  });
});

describe('volume names in a QuickPick label', () => {
  it('escapes icons, drops control and bidi characters, bounds the length', () => {
    assert.equal(pickText('$(zap) a\u202eb\nc.txt'), '\\$(zap) a b c.txt');
    assert.equal(pickText('x'.repeat(500)).length, 120);
    assert.equal(pickText('plain name'), 'plain name');
  });
});
