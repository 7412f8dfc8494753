// The Compute kernel's life beyond one run (docs/notebooks.md): a task made with the create wizard's
// Jupyter template gets a token the extension made (the user is never asked), restart keeps the kernel and
// clears its variables, a cut connection comes back by itself (shown as "reconnecting"), and a saved
// notebook reopened after the editor let go of it attaches to its still-running kernel. Against the
// sandbox's real Jupyter server; every wait is for the event itself.
import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/api';
import { Commands, Views } from '../../../src/vscode/commandIds';
import type { KernelChange } from '../../../src/vscode/notebooks/kernelController';
import { connectedApi, until } from '../ai/aiTestApi';
import { EXTENSION_ID } from '../extensionApi';
import { answerFlow, isPick } from '../nas/answerFlow';
import { sandboxUrl } from '../sandboxInfo';
import { errorName, runCell, savedNotebook, stdout } from './cells';

type WizardItem = vscode.QuickPickItem & { template?: { id: string }; target?: unknown };

describe('notebooks: token, restart, reconnect and reopen', () => {
  let api: ExtensionApi;
  let taskId: number;
  let notebook: vscode.NotebookDocument;
  let file: vscode.Uri;
  let asked = 0;

  const run = (index: number): Promise<vscode.NotebookCell> => runCell(notebook, index);

  before(async () => {
    api = await connectedApi();
    // The create wizard as a user answers it: the Jupyter template, every other step's default, then Create.
    const created = await answerFlow(api, () => vscode.commands.executeCommand<number | undefined>(Commands.tasksCreate), (input) => {
      if (!isPick(input)) return;
      const items = input.items as readonly WizardItem[];
      const wanted = items.find((item) => item.template?.id === 'jupyter') ?? items.find((item) => item.target === 'create');
      if (wanted) input.activeItems = [wanted];
    });
    assert.ok(typeof created === 'number', 'the wizard created a task');
    taskId = created;
    await until(async () => (await api.money.refreshTasks()).some((task) => task.task_id === taskId && task.status === 'Running'), Boolean, 'the Jupyter task to run');
    file = savedNotebook('reopen.ipynb', ['x = 41', 'print(x + 1)', 'print(x)', 'import time\nprint("long", flush=True)\ntime.sleep(600)']);
    notebook = await vscode.workspace.openNotebookDocument(file);
    await vscode.window.showNotebookDocument(notebook);
    await vscode.commands.executeCommand('notebook.selectKernel', { id: Views.notebookKernel, extension: EXTENSION_ID });
    api.notebooks.controller.pickTaskHook = (tasks) => {
      asked++;
      return Promise.resolve(tasks.find((task) => task.task_id === taskId));
    };
  });

  after(() => {
    api.notebooks.controller.pickTaskHook = undefined;
  });

  it('a task from the Jupyter template runs cells with the token the extension made: nobody typed one', async () => {
    // No token is stored by the test: the controller would ask with an input box, which nobody answers.
    const cell = await until(() => run(0), (ran) => ran.executionSummary?.success === true, 'the first cell to run on the new task');
    assert.equal(cell.executionSummary?.success, true);
    assert.equal(asked, 1, 'the task was picked once');
    assert.equal(api.surface.stepInput(), undefined, 'no input is open');
    assert.ok(api.notebooks.controller.kernelIdOf(notebook));
    // The notebook file holds no token.
    assert.doesNotMatch(fs.readFileSync(file.fsPath, 'utf8'), /[0-9a-f]{64}/);
  });

  it('restarts the kernel: same kernel, variables gone', async () => {
    await run(0);
    const kernelId = api.notebooks.controller.kernelIdOf(notebook);
    await vscode.commands.executeCommand(Commands.notebooksRestartKernel);
    const cell = await run(2);
    assert.equal(cell.executionSummary?.success, false);
    assert.equal(errorName(cell), 'NameError');
    assert.equal(api.notebooks.controller.kernelIdOf(notebook), kernelId);
  });

  it('comes back by itself after the connection is cut, showing "reconnecting" meanwhile', async () => {
    await run(0);
    const changes: (KernelChange & { status: string })[] = [];
    const listening = api.notebooks.controller.onDidChangeKernel((change) => changes.push({ ...change, status: api.notebooks.controller.statusText() }));
    try {
      const response = await fetch(`${sandboxUrl()}/__sandbox/jupyter/cut`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ task_id: taskId }) });
      assert.equal(response.status, 200);
      const dropped = await until(() => changes.findIndex((change) => change.link === 'connecting'), (index) => index >= 0, 'the link to drop');
      assert.match(changes[dropped]?.status ?? '', /reconnecting/);
      await until(() => changes.slice(dropped).some((change) => change.link === 'connected'), Boolean, 'the link to come back');
    } finally {
      listening.dispose();
    }
    const cell = await run(1);
    assert.equal(stdout(cell), '42\n', 'the variables survived the cut');
  });

  it('reattaches to the still-running kernel after the editor let go of it, without asking', async () => {
    await run(0);
    const kernelId = api.notebooks.controller.kernelIdOf(notebook);
    assert.ok(kernelId);
    const picks = asked;
    api.notebooks.controller.detachAll();
    assert.equal(api.notebooks.controller.boundTask(notebook), undefined);
    const cell = await run(1);
    assert.equal(stdout(cell), '42\n', 'the variables of the running kernel are there');
    assert.equal(api.notebooks.controller.kernelIdOf(notebook), kernelId);
    assert.equal(asked, picks, 'the task was not asked for again');
  });

  it('a pause timer does not pause a task whose kernel runs a cell: it warns, Keep Running first, and Keep Running drops it', async () => {
    await run(0);
    void vscode.commands.executeCommand('notebook.cell.execute', { ranges: [{ start: 3, end: 4 }], document: notebook.uri });
    await until(() => api.notebooks.controller.activities(), (busy) => busy.some((activity) => 'taskId' in activity && activity.taskId === taskId && activity.kind === 'kernel-busy'), 'the kernel to run the long cell');
    const now = Date.now();
    const timers = api.money.timers;
    timers.useClock({ now: () => now, setTimer: () => 0, clearTimer: () => undefined });
    try {
      const before = api.money.notificationCount();
      await timers.set(taskId, 'kernel task', now - 1_000);
      await timers.runDue();
      const held = api.money.notificationsSince(before).find((shown) => shown.kind === 'timer');
      assert.ok(held, 'the timer warned');
      assert.deepEqual(held.actions, ['Keep Running', 'Pause Now']);
      assert.match(held.message, /reopen\.ipynb/);
      assert.equal((await api.money.refreshTasks()).find((task) => task.task_id === taskId)?.status, 'Running', 'not paused');
      assert.ok(timers.list().some((timer) => timer.taskId === taskId && timer.dueAt > now), 'the timer looks again later');
      await api.money.choose(held, 'Keep Running');
      assert.ok(!timers.list().some((timer) => timer.taskId === taskId), 'Keep Running dropped the timer');
    } finally {
      await timers.cancel(taskId);
      timers.useClock({ now: () => Date.now(), setTimer: (callback, ms) => setTimeout(callback, ms), clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>) });
      await vscode.commands.executeCommand('notebook.cell.cancelExecution', { ranges: [{ start: 3, end: 4 }], document: notebook.uri });
      await until(() => notebook.cellAt(3), (cell) => cell.executionSummary?.success !== undefined, 'the long cell to end');
    }
  });

  it('opt-in idle pause: a kernel task idle for the set minutes is warned first; a running cell keeps it from pausing', async function () {
    this.timeout(180_000);
    const idlePause = api.notebooks.idlePause;
    const settings = vscode.workspace.getConfiguration('computeToolkit');
    let now = Date.now();
    idlePause.now = () => now;
    try {
      await run(0);
      await idlePause.check();
      assert.deepEqual(idlePause.events, [], 'off by default: nothing happens');
      await settings.update('notebooks.idlePauseMinutes', 5, vscode.ConfigurationTarget.Global);
      now += 5 * 60_000;
      await idlePause.check();
      assert.deepEqual(idlePause.events, [{ taskId, action: 'warned' }], 'warned before any pause');
      void vscode.commands.executeCommand('notebook.cell.execute', { ranges: [{ start: 3, end: 4 }], document: notebook.uri });
      await until(() => api.notebooks.controller.activities(), (busy) => busy.some((activity) => 'taskId' in activity && activity.taskId === taskId), 'the kernel to run the long cell');
      now += 10 * 60_000;
      await idlePause.check();
      assert.deepEqual(idlePause.events, [{ taskId, action: 'warned' }], 'a running cell: no pause, no new warning');
      assert.equal((await api.money.refreshTasks()).find((task) => task.task_id === taskId)?.status, 'Running');
    } finally {
      await settings.update('notebooks.idlePauseMinutes', undefined, vscode.ConfigurationTarget.Global);
      idlePause.now = () => Date.now();
      await vscode.commands.executeCommand('notebook.cell.cancelExecution', { ranges: [{ start: 3, end: 4 }], document: notebook.uri });
      await until(() => notebook.cellAt(3), (cell) => cell.executionSummary?.success !== undefined, 'the long cell to end');
    }
  });

  it('a budget\'s auto-pause still pauses a task whose kernel runs a cell, and its note names the notebook it interrupted', async function () {
    this.timeout(180_000);
    const profile = api.services.profiles.active;
    assert.ok(profile);
    await run(0);
    void vscode.commands.executeCommand('notebook.cell.execute', { ranges: [{ start: 3, end: 4 }], document: notebook.uri });
    await until(() => api.notebooks.controller.activities(), (busy) => busy.some((activity) => 'taskId' in activity && activity.taskId === taskId), 'the kernel to run the long cell');
    const settings = vscode.workspace.getConfiguration('computeToolkit');
    // Another suite may have used this period's auto-pause already: it acts once per period.
    await api.services.state.updateFor('budgetAnnounced', profile.id, []);
    await settings.update('budgets.perProfile', { [profile.id]: { dailyYuan: 0.001, monthlyYuan: 0.001, autoPause: true } }, vscode.ConfigurationTarget.Global);
    try {
      const before = api.money.notificationCount();
      await api.money.checkBudgetNow();
      const result = api.money.lastAutoPause();
      assert.ok(result, 'auto-pause ran');
      assert.ok(result.paused.some((task) => task.taskId === taskId), 'the kernel\'s task was paused anyway');
      assert.ok(result.interrupted.some((activity) => activity.kind === 'kernel-busy' && 'taskId' in activity && activity.taskId === taskId));
      const notice = api.money.notificationsSince(before).find((shown) => shown.kind === 'autoPause');
      assert.ok(notice, 'the auto-pause was announced');
      assert.match(notice.message, /This interrupted a cell running in "reopen\.ipynb"/);
      await api.money.choose(notice, 'Recover');
    } finally {
      await settings.update('budgets.perProfile', undefined, vscode.ConfigurationTarget.Global);
      await api.services.state.updateFor('budgetAnnounced', profile.id, []);
    }
  });
});

