// Nothing lists tasks but the remote-state store (issue 17): the `task.list` operation is named only
// where it is defined and where one listing lives, and that listing is reached only from the task
// state definition. The agent tools list tasks when the model asks on the user's behalf (chat, MCP).
// Fails naming the file that started listing tasks on its own.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readSources, typeScriptFiles } from '../../helpers/repoSources';

/** Where `task.list` may be named, and why. */
const OPERATION_ALLOWED: Record<string, string> = {
  'src/core/tasks/operations.ts': 'its catalog entry',
  'src/core/compute/resultShapes.ts': 'its result shape',
  'src/core/tasks/listing.ts': 'the one paged read (taskPage)',
  'src/core/tools/readTools.ts': 'the list_tasks agent tool (the model asks, on the user’s behalf)',
  'src/core/tools/diagnoseTool.ts': 'the diagnose tool’s probe (the user asks)',
};

/** Who may import the paged task reads from listing.ts. */
const READ_ALLOWED: Record<string, string> = {
  'src/core/tasks/taskState.ts': 'the task state definition (the store polls through it)',
  'src/core/tasks/taskService.ts': 'TaskService.page: the list_tasks agent tool and the diagnose probe read through it',
};

const files = typeScriptFiles('src');
const text = readSources(files);

describe('only the remote-state store lists tasks', () => {
  it('names the task.list operation only where it is defined and read once', () => {
    const offenders = files.filter((file) => !(file in OPERATION_ALLOWED) && /['"`]task\.list['"`]/.test((text.get(file) ?? '')));
    assert.deepEqual(offenders, [], `task.list outside the store: ${offenders.join(', ')}`);
  });

  it('reaches the paged task reads (listTasks, taskPage) only from the task state definition', () => {
    const importsRead = /import\s*\{[^}]*\b(listTasks|taskPage)\b[^}]*\}\s*from\s*['"][^'"]*\/listing['"]/;
    const offenders = files.filter((file) => !(file in READ_ALLOWED) && importsRead.test((text.get(file) ?? '')));
    assert.deepEqual(offenders, [], `paged task reads outside the store: ${offenders.join(', ')}`);
  });

  it('the check itself catches a file that lists tasks', () => {
    const sample = `await client.call('task.list', { type: 'Deployment' });`;
    assert.match(sample, /['"`]task\.list['"`]/);
    assert.match(`import { listTasks } from '../../core/tasks/listing';`, /import\s*\{[^}]*\b(listTasks|taskPage)\b[^}]*\}\s*from\s*['"][^'"]*\/listing['"]/);
  });
});
