// Areas as siblings (issue 28, docs/areas.md): no import circle between files of src, none between the
// rooms of src/vscode (each direct child folder or file), and the editor layer no deeper than it is.
// The graph is read from the sources as text, type imports included. Fails naming the circle.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { circles, floors, importGraph, roomGraph, type Graph } from '../../helpers/importGraph';
import { readSources, typeScriptFiles } from '../../helpers/repoSources';

/**
 * Room circles allowed: none since the tree plumbing (remoteTree, remoteData, treeMessages) has its own
 * room, `trees`, and the task and resource commands declare the context they take from `views`.
 */
const KNOWN_ROOM_CIRCLES: readonly string[][] = [];

/**
 * The longest chain of rooms in src/vscode allowed today (a ratchet: the goal of issue 28 is 6; it only
 * goes down). 9 since the request origin lives in core, the error types take the profile's id and label,
 * the Create Task wizard is the compute area's, and Config's pure rules (core/settingValues.ts) and the
 * persisted-state keys (core/stateKeys.ts) left the editor layer — which paid for the NAS view moving onto
 * the kind tree (nas now sits on kinds). 8 since the choices the create flows share (the NAS mount step, the
 * job templates) sit in `choices`, below jobs, views and specs: extension > api > machines > jobs | nas >
 * kinds | choices > state | trees > services > config | persistedState. 7 since what a run on a machine
 * shares with Run on GPU (its terminal, target and the machine port) sits in `runs` and the file system a
 * machine's folder reuses in `remoteFiles`, below jobs, nas and machines: extension > api > the areas >
 * profiles | chat > commands > errors > commandIds. 6 (the goal) since the composition root no longer
 * imports api.ts (the tests' declaration of what it returns, checked in test/integration/extensionApi.ts):
 * extension | api > the areas > profiles | chat > commands > errors > commandIds.
 */
const MAX_VSCODE_FLOORS = 6;

const files = importGraph(readSources(typeScriptFiles('src').filter((file) => !file.endsWith('.d.ts'))));

const graphOf = (edges: Record<string, string[]>): Graph => new Map(Object.entries(edges).map(([from, to]) => [from, new Set(to)]));

describe('import graph', () => {
  it('has no circle between files of src', () => {
    assert.deepEqual(circles(files), [], 'files that import each other (directly or through others)');
  });

  it('has no circle between the rooms (folders and root files) of src/vscode', () => {
    assert.deepEqual(circles(roomGraph(files, 'src/vscode')), KNOWN_ROOM_CIRCLES, 'rooms that import each other (directly or through others)');
  });

  it(`keeps src/vscode at most ${MAX_VSCODE_FLOORS} floors deep`, () => {
    const { floors: depth, chain } = floors(roomGraph(files, 'src/vscode'));
    assert.ok(depth <= MAX_VSCODE_FLOORS, `${depth} floors: ${chain.join(' > ')}`);
  });

  it('reads every kind of import, type-only and dynamic ones included', () => {
    const graph = importGraph(new Map([
      ['src/a/one.ts', "import type { B } from '../b/two';\nexport { C } from './three';\nconst d = require('../d');\nvoid import('../e/index');"],
      ['src/b/two.ts', ''],
      ['src/a/three.ts', "import './four.js';"],
      ['src/a/four.ts', ''],
      ['src/d.ts', ''],
      ['src/e/index.ts', "import { x } from 'vscode';"],
    ]));
    assert.deepEqual([...graph.get('src/a/one.ts')!].sort(), ['src/a/three.ts', 'src/b/two.ts', 'src/d.ts', 'src/e/index.ts']);
    assert.deepEqual([...graph.get('src/a/three.ts')!], ['src/a/four.ts']);
    assert.deepEqual([...graph.get('src/e/index.ts')!], []);
  });

  it('finds a circle at file and at room level, and counts floors', () => {
    const fileCircle = graphOf({ 'src/v/a/x.ts': ['src/v/b/y.ts'], 'src/v/b/y.ts': ['src/v/c.ts'], 'src/v/c.ts': ['src/v/a/x.ts'] });
    assert.deepEqual(circles(fileCircle), [['src/v/a/x.ts', 'src/v/b/y.ts', 'src/v/c.ts']]);
    const roomCircle = graphOf({ 'src/v/a/x.ts': ['src/v/b/y.ts'], 'src/v/b/z.ts': ['src/v/a/w.ts'], 'src/v/b/y.ts': [], 'src/v/a/w.ts': [] });
    assert.deepEqual(circles(roomCircle), []);
    assert.deepEqual(circles(roomGraph(roomCircle, 'src/v')), [['a', 'b']]);
    const chain = graphOf({ 'src/v/top.ts': ['src/v/mid/m.ts'], 'src/v/mid/m.ts': ['src/v/low.ts'], 'src/v/low.ts': [] });
    assert.deepEqual(floors(roomGraph(chain, 'src/v')), { floors: 3, chain: ['top.ts', 'mid', 'low.ts'] });
  });
});
