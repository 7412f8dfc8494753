// The id module (src/vscode/commandIds.ts) and the manifest's contributes.commands list the same commands.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { Commands } from '../../../src/vscode/commandIds';

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')) as {
  contributes: { commands: { command: string }[] };
};

describe('command ids', () => {
  it('every id in commandIds.ts is contributed, and every contributed command has an id there', () => {
    const ids = new Set<string>(Object.values(Commands));
    const contributed = new Set(manifest.contributes.commands.map((entry) => entry.command));
    assert.deepEqual([...ids].filter((id) => !contributed.has(id)), [], 'in commandIds.ts but not in package.json');
    assert.deepEqual([...contributed].filter((id) => !ids.has(id)), [], 'in package.json but not in commandIds.ts');
  });

  it('no two names share an id', () => {
    const values = Object.values(Commands);
    assert.equal(new Set(values).size, values.length);
  });
});
