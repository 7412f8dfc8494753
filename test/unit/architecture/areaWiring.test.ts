// Areas wired by constructor (issue 28, docs/areas.md): an area declares the ports it consumes and the
// composition root passes them in; no area imports another area's in-host test API (ComputeApi, ChatApi,
// SpendApi, MoneyApi…) to reach it, and nothing is wired after construction (no use*/set*/provide* setters).

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { readSources, typeScriptFiles } from '../../helpers/repoSources';

const LAYER = 'src/vscode/';
/** The composition root: it builds the areas and returns their test APIs to the in-host tests. */
const ROOT = new Set(['src/vscode/extension.ts', 'src/vscode/api.ts']);
const sources = readSources(typeScriptFiles('src/vscode'));
const roomOf = (file: string): string => file.slice(LAYER.length).split('/')[0]!;

const IMPORT = /import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"](\.[^'"]+)['"]/g;
const SETTER = /^\s*(?:readonly\s+)?((?:use|set|provide|annotate)[A-Z]\w*)\s*[(:]/gm;

/** `file imports Name from other/room` for every *Api type a file takes from another room of src/vscode. */
function testApiImports(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    if (ROOT.has(file)) continue;
    for (const match of text.matchAll(IMPORT)) {
      const target = path.posix.join(path.posix.dirname(file), match[2]!);
      if (!target.startsWith(LAYER) || roomOf(`${target}.ts`) === roomOf(file)) continue;
      for (const name of match[1]!.split(',').map((part) => part.replace(/^\s*type\s+/, '').split(/\s+as\s+/)[0]!.trim())) {
        if (/^[A-Z]\w*Api$/.test(name)) found.push(`${file} imports ${name} from ${target}`);
      }
    }
  }
  return found.sort();
}

/** Setter-shaped members of the ports areas declare (ports.ts): wiring after construction. */
function portSetters(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    if (!file.endsWith('/ports.ts')) continue;
    for (const match of text.matchAll(SETTER)) found.push(`${file} ${match[1]!}`);
  }
  return found.sort();
}

describe('areas wired by constructor', () => {
  it("no area imports another area's in-host test API", () => {
    assert.deepEqual(testApiImports(sources), [], 'use a port the area declares (its ports.ts), passed in by the composition root');
  });

  it('the composition root calls no setter on an area after building it', () => {
    const root = sources.get('src/vscode/extension.ts')!;
    const calls = [...root.matchAll(/\.((?:use|set|provide)[A-Z]\w*)\(/g)].map((match) => match[1]);
    assert.deepEqual(calls, [], 'pass the port to the area when it is built');
  });

  it('the ports areas declare carry no setter', () => {
    assert.deepEqual(portSetters(sources), [], 'take what the port gives as a constructor argument (a function the area reads when it needs it)');
  });

  it('the checks see what they look for', () => {
    const sample = new Map([
      ['src/vscode/deployments/index.ts', "import type { ComputeApi } from '../views/index';\nimport type { ChatApi as Chat, Other } from '../chat/index';\nimport type { DeploymentsApi } from './api';"],
      ['src/vscode/extension.ts', "import type { ComputeApi } from './views/index';"],
      ['src/vscode/tasks/ports.ts', 'export interface P {\n  useRoutes(routes: R): void;\n  readonly provideFiles: () => void;\n  listed(): T[];\n}'],
    ]);
    assert.deepEqual(testApiImports(sample), [
      'src/vscode/deployments/index.ts imports ChatApi from src/vscode/chat/index',
      'src/vscode/deployments/index.ts imports ComputeApi from src/vscode/views/index',
    ]);
    assert.deepEqual(portSetters(sample), ['src/vscode/tasks/ports.ts provideFiles', 'src/vscode/tasks/ports.ts useRoutes']);
  });
});

describe('one registration style', () => {
  it('the composition root registers every area through the area registry', () => {
    const root = sources.get('src/vscode/extension.ts')!;
    const outside = root
      .split('\n')
      .filter((line) => /\b(?:register(?!CommandTable)[A-Z]\w*|createDeployedModels)\(/.test(line) && !/areas\.add\(/.test(line) && !/^\s*(?:import|\/\/|\*)/.test(line));
    assert.deepEqual(outside, [], 'register the area with areas.add(name, () => registerX(…)): it returns { api, disposables }');
  });

  /**
   * Every area takes the registry's `own` list and pushes each disposable into it as it creates it, so a
   * throw halfway leaves nothing of it registered (docs/areas.md). Machine connections was the last without it.
   */
  it('registers every area with its own list', () => {
    const root = sources.get('src/vscode/extension.ts')!;
    // Each registration up to the next one: its lambda takes `own` and hands it on.
    const added = [...root.matchAll(/areas\.add\(\s*vscode\.l10n\.t\('([^']+)'\),\s*(\([^)]*\))\s*=>/g)].map((match) => {
      const rest = root.slice(match.index + match[0].length);
      const next = rest.indexOf('areas.add(');
      const body = (next < 0 ? rest : rest.slice(0, next)).replace(/^\s*\/\/.*$/gm, '');
      return { area: match[1], parameter: match[2], body };
    });
    assert.ok(added.length >= 15, `the check sees the areas: ${added.map((entry) => entry.area).join(', ')}`);
    const without = added.filter((entry) => entry.parameter !== '(own)' || !/\bown\b/.test(entry.body)).map((entry) => entry.area);
    assert.deepEqual(without, [], 'register the area with areas.add(name, (own) => registerX(…, own))');
  });
});
