// "Jupyter on a Machine…" inside a real VS Code (docs/notebooks.md, "A kernel on a machine"), against the
// sandbox's real SSH server per rented machine, whose commands run here (Debian's jupyter-server and
// ipykernel): an .ipynb opened, the machine kernel picked, a cell that prints and one that raises; a busy
// kernel counts as activity on its machine; every SSH connection cut and the next cell still runs on the
// same kernel, also after the editor lets go of it (a restart); Shut Down stops the server on the machine. The
// status bar shows the machine's rental (price, time left) as it shows a task kernel's, and Restart Notebook
// Kernel restarts a machine kernel as it does a task's. Every wait is for the event itself.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/api';
import { Commands, Views } from '../../../src/vscode/commandIds';
import { until } from '../ai/aiTestApi';
import { PATIENCE_MS } from '../../helpers/eventually';
import { runs } from '../../helpers/processes';
import { computeWithSandbox } from '../compute/computeTestApi';
import { EXTENSION_ID, extensionApi } from '../extensionApi';
import { metalControl } from '../machines/metalControl';
import { rentAndConnect } from './rentedMachine';
import { errorName, runCell, savedNotebook, stdout } from './cells';

const DEVICE = 9363;

describe('notebooks: Jupyter on a Machine… in the kernel picker', () => {
  let api: ExtensionApi;
  let notebook: vscode.NotebookDocument;
  let picked = 0;

  const run = (index: number): Promise<vscode.NotebookCell> => runCell(notebook, index);

  before(async function () {
    this.timeout(PATIENCE_MS * 3);
    await computeWithSandbox();
    api = await extensionApi();
    await rentAndConnect(api, DEVICE);
    const cells = ['import os\nprint("hello from machine", os.getcwd() == os.path.expanduser("~"))', 'raise ValueError("bad value")', 'import time\nprint("long", flush=True)\ntime.sleep(600)', 'kept = 41\nprint(kept)', 'print(kept + 1)'];
    notebook = await vscode.workspace.openNotebookDocument(savedNotebook('on-machine.ipynb', cells));
    await vscode.window.showNotebookDocument(notebook);
    api.notebooks.machineKernels.pickMachineHook = (machines) => {
      picked++;
      assert.ok(machines.some((machine) => machine.deviceId === DEVICE && /A100/.test(machine.label)), 'the Serving machine is offered with its GPU');
      return Promise.resolve({ deviceId: DEVICE });
    };
    await vscode.commands.executeCommand('notebook.selectKernel', { id: Views.notebookMachineKernel, extension: EXTENSION_ID });
  });

  after(() => {
    api.notebooks.machineKernels.pickMachineHook = undefined;
  });

  it('runs a cell that prints in the home and one that raises, on a server started on the machine', async function () {
    this.timeout(PATIENCE_MS * 2);
    const printed = await run(0);
    assert.equal(stdout(printed), 'hello from machine True\n');
    assert.equal(printed.executionSummary?.success, true);
    const raised = await run(1);
    assert.equal(raised.executionSummary?.success, false);
    assert.equal(errorName(raised), 'ValueError');
    assert.equal(picked, 1, 'the machine was asked once (the picker and the first run share the start)');
    const bound = api.notebooks.machineKernels.boundMachine(notebook);
    assert.ok(bound && bound.deviceId === DEVICE && runs(bound.pid), 'the server runs on the machine');
  });

  it('the status bar shows the machine, its rental\'s price and time left and the kernel\'s state; Restart clears the kernel', async function () {
    this.timeout(PATIENCE_MS * 2);
    const kept = await run(3);
    assert.equal(stdout(kept), '41\n');
    const shown = await until(() => api.notebooks.kernels.statusText(), (text) => /idle/.test(text), 'the status bar to show the idle kernel');
    // The sandbox's catalogue price of the machine (28,000,000 points an hour pack) and one hour pack rented.
    assert.match(shown, new RegExp(`Machine ${DEVICE}\\b.* · ¥28\\.00 per Hour pack · \\d[^·]* left · idle$`));
    const kernelId = api.notebooks.machineKernels.boundMachine(notebook)?.kernelId;
    await vscode.commands.executeCommand(Commands.notebooksRestartKernel);
    const lost = await run(4);
    assert.equal(lost.executionSummary?.success, false);
    assert.equal(errorName(lost), 'NameError', 'the variables are gone');
    assert.equal(lost.executionSummary?.executionOrder, 1, 'the execution count starts again');
    assert.equal(api.notebooks.machineKernels.boundMachine(notebook)?.kernelId, kernelId, 'the same kernel, restarted');
  });

  it('a busy kernel is activity on its machine; every SSH connection cut, the next cell runs on the same kernel', async function () {
    this.timeout(PATIENCE_MS * 2);
    const kernelId = api.notebooks.machineKernels.boundMachine(notebook)?.kernelId;
    assert.ok(kernelId);
    void vscode.commands.executeCommand('notebook.cell.execute', { ranges: [{ start: 2, end: 3 }], document: notebook.uri });
    await until(() => api.notebooks.machineKernels.activities(), (busy) => busy.some((activity) => activity.kind === 'kernel-busy' && 'deviceId' in activity && activity.deviceId === DEVICE), 'the kernel to be busy on the machine');
    await vscode.commands.executeCommand('notebook.cell.cancelExecution', { ranges: [{ start: 2, end: 3 }], document: notebook.uri });
    const interrupted = await until(() => notebook.cellAt(2), (cell) => cell.executionSummary?.success !== undefined, 'the long cell to end');
    assert.equal(errorName(interrupted), 'KeyboardInterrupt');
    assert.deepEqual(await metalControl('drop', { device_id: DEVICE }), { dropped: true });
    const again = await run(0);
    assert.equal(stdout(again), 'hello from machine True\n');
    assert.equal(api.notebooks.machineKernels.boundMachine(notebook)?.kernelId, kernelId, 'the same kernel');
    assert.equal(picked, 1, 'nothing asked again');
  });

  it('after the editor lets go (as a restart does), the next cell attaches to the same kernel from the record', async function () {
    this.timeout(PATIENCE_MS * 2);
    const kernelId = api.notebooks.machineKernels.boundMachine(notebook)?.kernelId;
    assert.ok(kernelId);
    await run(0);
    api.notebooks.machineKernels.detachAll();
    assert.equal(api.notebooks.machineKernels.boundMachine(notebook), undefined);
    const again = await run(0);
    assert.equal(stdout(again), 'hello from machine True\n');
    assert.equal(api.notebooks.machineKernels.boundMachine(notebook)?.kernelId, kernelId, 'the same kernel');
    assert.equal(picked, 1, 'nothing asked again');
  });

  it('Shut Down stops the Jupyter server on the machine', async function () {
    this.timeout(PATIENCE_MS);
    const bound = api.notebooks.machineKernels.boundMachine(notebook);
    assert.ok(bound);
    await vscode.commands.executeCommand(Commands.notebooksShutDownMachineKernel);
    await until(() => runs(bound.pid), (running) => !running, 'the server to stop');
    assert.equal(api.notebooks.machineKernels.boundMachine(notebook), undefined);
  });
});
