// One notebook, two Compute kernels in one session (docs/notebooks.md, "One kernel per notebook"): the task
// kernel picked and run, then the machine kernel picked and run. The status bar shows the machine, Restart
// Notebook Kernel restarts the machine kernel (not the task's), and the task binding was let go when VS Code
// deselected it while the task's kernel kept running: picked again, it attaches to it with its variables.
// Against the sandbox's real Jupyter servers; every wait is for the event itself.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/api';
import { Commands, Views } from '../../../src/vscode/commandIds';
import { connectedApi, until } from '../ai/aiTestApi';
import { PATIENCE_MS } from '../../helpers/eventually';
import { EXTENSION_ID } from '../extensionApi';
import { createJupyterTask } from './jupyterTask';
import { rentAndConnect } from './rentedMachine';
import { errorName, runCell, savedNotebook, stdout } from './cells';

const DEVICE = 9364;
const TOKEN = `t${Date.now().toString(36)}switch0test0token`;

describe('notebooks: one notebook switched from a task kernel to a machine kernel', () => {
  let api: ExtensionApi;
  let notebook: vscode.NotebookDocument;
  let taskId: number;

  const run = (index: number): Promise<vscode.NotebookCell> => runCell(notebook, index);

  const select = (id: string) => vscode.commands.executeCommand('notebook.selectKernel', { id, extension: EXTENSION_ID });

  before(async function () {
    this.timeout(PATIENCE_MS * 3);
    api = await connectedApi();
    taskId = await createJupyterTask(api, TOKEN);
    await rentAndConnect(api, DEVICE);
    await until(async () => (await api.money.refreshTasks()).some((task) => task.task_id === taskId && task.status === 'Running'), Boolean, 'the Jupyter task to run');
    // Saved, so the task kernel is remembered and picked again without asking.
    notebook = await vscode.workspace.openNotebookDocument(savedNotebook('switch.ipynb', ['where = "here"\nprint(where)', 'print(where)']));
    await vscode.window.showNotebookDocument(notebook);
    api.notebooks.controller.pickTaskHook = (tasks) => Promise.resolve(tasks.find((task) => task.task_id === taskId));
    api.notebooks.machineKernels.pickMachineHook = () => Promise.resolve({ deviceId: DEVICE });
  });

  after(() => {
    api.notebooks.controller.pickTaskHook = undefined;
    api.notebooks.machineKernels.pickMachineHook = undefined;
  });

  it('the status bar and Restart act on the machine kernel picked last; the task kernel is let go and keeps its variables', async function () {
    this.timeout(PATIENCE_MS * 4);
    await select(Views.notebookKernel);
    const onTask = await run(0);
    assert.equal(stdout(onTask), 'here\n');
    const taskKernel = api.notebooks.controller.kernelIdOf(notebook);
    assert.ok(taskKernel);

    await select(Views.notebookMachineKernel);
    const onMachine = await run(0);
    assert.equal(stdout(onMachine), 'here\n');
    assert.equal(api.notebooks.controller.boundTask(notebook), undefined, 'the deselected task kernel\'s binding is let go');
    await until(() => api.notebooks.kernels.statusText(), (text) => new RegExp(`Machine ${DEVICE}\\b.*· idle$`).test(text), 'the status bar to show the machine kernel');
    const machineKernel = api.notebooks.machineKernels.boundMachine(notebook)?.kernelId;
    assert.ok(machineKernel);

    await vscode.commands.executeCommand(Commands.notebooksRestartKernel);
    const lost = await run(1);
    assert.equal(errorName(lost), 'NameError', 'the machine kernel was restarted: its variables are gone');
    assert.equal(api.notebooks.machineKernels.boundMachine(notebook)?.kernelId, machineKernel, 'the same machine kernel');

    await select(Views.notebookKernel);
    assert.equal(api.notebooks.machineKernels.boundMachine(notebook), undefined, 'the deselected machine kernel\'s binding is let go');
    const kept = await run(1);
    assert.equal(stdout(kept), 'here\n', 'the task kernel was not restarted and kept running while deselected');
    assert.equal(api.notebooks.controller.kernelIdOf(notebook), taskKernel, 'attached to the same task kernel');
    await until(() => api.notebooks.kernels.statusText(), (text) => /notebook-kernel.*· idle$/.test(text), 'the status bar to show the task kernel');
  });
});
