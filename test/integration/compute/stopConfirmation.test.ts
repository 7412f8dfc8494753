// Stop Task defaults to the safe choice: pressing Enter on its question keeps the task (the first,
// highlighted answer), and only choosing "Stop and delete" stops it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ComputeApi } from '../../../src/vscode/views/index';
import { computeWithSandbox, refreshUntil } from './computeTestApi';
import { PATIENCE_MS } from '../../helpers/eventually';

/** Runs Stop Task on `taskId` and presses Enter on whatever it asks, until the command settles (bounded). */
async function stopAndPressEnter(taskId: number): Promise<void> {
  let settled = false;
  const running = Promise.resolve(vscode.commands.executeCommand('computeToolkit.tasks.stop', taskId)).finally(() => {
    settled = true;
  });
  for (const deadline = Date.now() + PATIENCE_MS; !settled && Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  }
  assert.ok(settled, 'Stop Task did not settle after Enter: its question is not a pick that Enter answers');
  await running;
}

describe('compute: Stop Task confirmation', () => {
  let compute: ComputeApi;

  before(async () => {
    compute = await computeWithSandbox();
  });

  it('Enter keeps the task', async function () {
    this.timeout(180_000);
    const region = (await compute.searchRegions()).find(({ region: candidate }) => candidate.inventory > 0);
    assert.ok(region, 'the sandbox has a region in stock');
    const taskId = await compute.createTask({ name: `it-keep-${Date.now()}`, region: region.region, image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0', ports: [80], points: 1 });
    const isRunning = (snapshot: { rows: { id: string | undefined; contextValue: string | undefined }[] }) =>
      snapshot.rows.find((row) => row.id === `task/${taskId}`)?.contextValue === 'task.Running';
    await refreshUntil(compute, 'tasks', isRunning, { what: 'the new task runs' });

    await stopAndPressEnter(taskId);
    await compute.refresh('tasks');
    assert.ok(isRunning(await compute.snapshot('tasks')), 'Enter on the Stop Task question stopped the task');
    await compute.stopTask(taskId); // clean up without asking
  });
});
