// A newcomer follows CONTRIBUTING.md's recipes by the paths they name: every file or folder of src/ and
// test/ the guide names exists (a move that leaves the guide behind fails here), and every recipe names
// the room of src/ its change goes in.

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

/** The recipes (`## Add …`, `## Change …`, `## Keep …`, `## Settings`) by heading, each with its text. */
function recipes(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const section of text.split(/^## /m).slice(1)) {
    const heading = section.slice(0, section.indexOf('\n')).trim();
    if (/^(?:Add|Change|Keep|Settings)\b/.test(heading)) found.set(heading, section);
  }
  return found;
}

const guide = readFileSync(path.join(REPO_ROOT, 'CONTRIBUTING.md'), 'utf8');

describe('CONTRIBUTING.md', () => {
  it('names only paths that exist', () => {
    const named = namedPaths(guide);
    assert.ok(named.length > 20, `the guide names ${named.length} paths`);
    assert.deepEqual(named.filter((named) => !existsSync(path.join(REPO_ROOT, named))), []);
  });

  it('has the recipes a newcomer looks for, each naming the room of src/ it goes in', () => {
    const found = recipes(guide);
    for (const heading of ['Add a platform operation', 'Add a command', 'Add a kind of remote state', 'Add an agent tool', 'Add a setting', 'Add an error action']) {
      assert.ok(found.has(heading), `no recipe "${heading}"`);
    }
    for (const [heading, text] of found) {
      const rooms = namedPaths(text).filter((named) => named.startsWith('src/'));
      assert.ok(rooms.length > 0, `"${heading}" names no file or folder of src/`);
    }
  });

  it('reads the paths a recipe names, placeholders aside', () => {
    assert.deepEqual(namedPaths('a `src/vscode/views/remoteTree.ts` and `src/core/<kind>/operations.ts`, `test/unit/x/` then `src/a.ts`'), [
      'src/a.ts',
      'src/vscode/views/remoteTree.ts',
      'test/unit/x/',
    ]);
    assert.deepEqual([...recipes('intro\n## Add a thing\none `src/a.ts`\n## Project layout\nx\n## Keep it\ny').keys()], ['Add a thing', 'Keep it']);
  });
});
