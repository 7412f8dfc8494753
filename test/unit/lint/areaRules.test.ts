// The area rules (eslint.config.mjs, docs/areas.md): an area in src/vscode reaches another area only
// through its index.ts, and the editor layer imports only types from core/compute (src/vscode/lazyCore.ts).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

const repoRoot = path.resolve(__dirname, '../../../..');
const eslint = new ESLint({ cwd: repoRoot });

async function importErrors(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  assert.ok(result);
  return result.messages.filter((message) => message.ruleId === '@typescript-eslint/no-restricted-imports').map((message) => message.message);
}

describe('lint: areas reach each other through index.ts', () => {
  it("fails on a deep import of another area's file", async () => {
    const found = await importErrors(`import { TaskNotifier } from '../tasks/taskNotifier';\nexport const t = TaskNotifier;\n`, 'src/vscode/spend/fixture.ts');
    assert.equal(found.length, 1);
    assert.match(found[0] ?? '', /tasks area through its index\.ts/);
  });

  it('fails from shared plumbing too', async () => {
    const found = await importErrors(`import { SECRET_LABELS } from '../profiles/profileRecord';\nexport const s = SECRET_LABELS;\n`, 'src/vscode/errors/fixture.ts');
    assert.equal(found.length, 1);
  });

  it("accepts the area's index.ts, the area's own files, and the views composing the trees", async () => {
    assert.deepEqual(await importErrors(`import { TaskNotifier } from '../tasks/index';\nexport const t = TaskNotifier;\n`, 'src/vscode/spend/fixture.ts'), []);
    assert.deepEqual(await importErrors(`import { TaskNotifier } from './taskNotifier';\nexport const t = TaskNotifier;\n`, 'src/vscode/tasks/fixture.ts'), []);
    assert.deepEqual(await importErrors(`import { TasksTree } from '../tasks/tasksTree';\nexport const t = TasksTree;\n`, 'src/vscode/views/fixture.ts'), []);
  });
});

describe('lint: the compute core stays lazy (lazyCore.ts)', () => {
  const valueImport = `import { createComputeClient } from '../../core/compute/client';\nexport const c = createComputeClient;\n`;
  it('fails on a value import from core/compute in an area', async () => {
    const found = await importErrors(valueImport, 'src/vscode/tasks/fixture.ts');
    assert.ok(found.some((text) => text.includes('lazyCore.ts')), found.join('\n'));
  });

  it('accepts type imports; no file of src/vscode is an exception (the lazily loaded modules are src/core/lazyModules.ts)', async () => {
    assert.deepEqual(await importErrors(`import type { ComputeClient } from '../../core/compute/client';\nexport type C = ComputeClient;\n`, 'src/vscode/tasks/fixture.ts'), []);
    const found = await importErrors(`import { createComputeClient } from '../core/compute/client';\nexport const c = createComputeClient;\n`, 'src/vscode/lazyCore.ts');
    assert.ok(found.some((text) => text.includes('lazyCore.ts')), found.join('\n'));
  });
});
