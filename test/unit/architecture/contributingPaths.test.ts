// A newcomer follows CONTRIBUTING.md's recipes by the paths they name: every file or folder of src/ and
// test/ the guide names exists (a move that leaves the guide behind fails here).

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT } from '../../helpers/repoSources';

/** The `src/…` and `test/…` paths a text names in backticks, placeholders (`<kind>`, `…`, `*`) left out. */
function namedPaths(text: string): string[] {
  const paths = [...text.matchAll(/`((?:src|test)\/[^`\s]+)`/g)].map((match) => match[1]!);
  return [...new Set(paths.filter((named) => !/[<>…*]/.test(named)))].sort();
}

describe('CONTRIBUTING.md', () => {
  it('names only paths that exist', () => {
    const named = namedPaths(readFileSync(path.join(REPO_ROOT, 'CONTRIBUTING.md'), 'utf8'));
    assert.ok(named.length > 20, `the guide names ${named.length} paths`);
    assert.deepEqual(named.filter((named) => !existsSync(path.join(REPO_ROOT, named))), []);
  });

  it('reads the paths a recipe names, placeholders aside', () => {
    assert.deepEqual(namedPaths('a `src/vscode/views/remoteTree.ts` and `src/core/<kind>/operations.ts`, `test/unit/x/` then `src/a.ts`'), [
      'src/a.ts',
      'src/vscode/views/remoteTree.ts',
      'test/unit/x/',
    ]);
  });
});
