// Rented machines are listed only by the remote-state store (CONTRIBUTING "Add a kind of remote
// state"): the two rented-list operations are named only where they are defined and where their one
// read lives (core/machines/machineState.ts), and that read is called only by the state definition.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readSources, typeScriptFiles } from '../../helpers/repoSources';

const files = typeScriptFiles('src');
const text = readSources(files);

const ALLOWED: Record<string, string> = {
  'src/core/machines/operations.ts': 'their catalog entries',
  'src/core/machines/resultShapes.ts': 'their result shapes',
  'src/core/machines/machineState.ts': 'the one read (readRentedMachines) the state definition polls through',
  'src/core/tools/machineTools.ts': 'the list_machines agent tool declares the operations it reads through (the model asks; the MCP server has no store)',
};
const READ_ALLOWED = new Set(['src/core/machines/machineState.ts', 'src/core/machines/index.ts', 'src/core/machines/machineService.ts']);

describe('only the remote-state store lists rented machines', () => {
  for (const operation of ['metal.rentedSingle', 'metal.rentedGroups']) {
    it(`names ${operation} only where it is defined and read`, () => {
      const pattern = new RegExp(`['"\`]${operation.replace('.', '\\.')}['"\`]`);
      const offenders = files.filter((file) => !(file in ALLOWED) && pattern.test(text.get(file) ?? ''));
      assert.deepEqual(offenders, [], `${operation} outside the store: ${offenders.join(', ')}`);
      for (const file of Object.keys(ALLOWED)) assert.ok(text.get(file)?.includes(`'${operation}'`), `${file} no longer names ${operation}: drop it from the allowed list`);
    });
  }

  it('calls readRentedMachines only from the state definition and the machines service (the agent tool reads through it)', () => {
    const offenders = files.filter((file) => !READ_ALLOWED.has(file) && /\breadRentedMachines\s*\(/.test(text.get(file) ?? ''));
    assert.deepEqual(offenders, []);
  });
});
