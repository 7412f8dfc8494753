// Pause/recover and job stop are sent from one place each (issue 28): the operation ids are named only in
// their catalog, their result shape, their localized title, the desired-state table, the tool
// definitions' operation lists and the one service that sends them (TaskService.lifecycle, JobService.stop).
// The Tasks view, spend's auto-pause and the agent tools all reach that function. Fails naming the file.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readSources, typeScriptFiles } from '../../helpers/repoSources';

const SHARED: Record<string, string> = {
  'src/core/compute/resultShapes.ts': 'its result shape',
};
const ALLOWED: Record<string, Record<string, string>> = {
  'task.pause': { ...SHARED, 'src/core/tasks/operations.ts': 'its catalog entry', 'src/core/tasks/taskService.ts': 'TaskService.lifecycle', 'src/core/tasks/desiredState.ts': 'what the task becomes', 'src/core/tools/writeTools.ts': 'the tool’s operation list (run calls the service)' },
  'task.recover': { ...SHARED, 'src/core/tasks/operations.ts': 'its catalog entry', 'src/core/tasks/taskService.ts': 'TaskService.lifecycle', 'src/core/tasks/desiredState.ts': 'what the task becomes', 'src/core/tools/writeTools.ts': 'the tool’s operation list (run calls the service)' },
  'job.stop': { ...SHARED, 'src/core/jobs/operations.ts': 'its catalog entry', 'src/core/jobs/jobService.ts': 'JobService.stop', 'src/core/tools/jobTools.ts': 'the tool’s operation list (run calls the service)' },
};

const files = typeScriptFiles('src');
const text = readSources(files);

describe('pause, recover and job stop are sent from one place', () => {
  for (const [operation, allowed] of Object.entries(ALLOWED)) {
    it(`names ${operation} only where it is defined or sent`, () => {
      const pattern = new RegExp(`['"\`]${operation.replace('.', '\\.')}['"\`]`);
      const offenders = files.filter((file) => !(file in allowed) && pattern.test(text.get(file) ?? ''));
      assert.deepEqual(offenders, [], `${operation} outside its service: ${offenders.join(', ')}`);
    });
  }

  it('the tools send them only through the services', () => {
    for (const file of ['src/core/tools/writeTools.ts', 'src/core/tools/jobTools.ts']) {
      assert.doesNotMatch(text.get(file) ?? '', /\.call\(\s*(spec\.operation|['"`](task\.(pause|recover|stop)|job\.stop)['"`])/, file);
    }
  });

  it('the check itself catches a second sender', () => {
    assert.match(`await client.call('task.pause', { task_id: 1 });`, /['"`]task\.pause['"`]/);
    assert.match(`await context.client.call(spec.operation, {})`, /\.call\(\s*(spec\.operation|['"`](task\.(pause|recover|stop)|job\.stop)['"`])/);
  });
});
