// The Compute Toolkit kernel in VS Code's own .ipynb editor against the sandbox's real Jupyter server behind
// a Jupyter task's URL (docs/notebooks.md): the controller is selected, a cell prints, one returns a PNG,
// one raises (error output with its traceback), a long one is interrupted; execution order is set.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/api';
import { Commands, Views } from '../../../src/vscode/commandIds';
import { connectedApi, until } from '../ai/aiTestApi';
import { EXTENSION_ID } from '../extensionApi';
import { createJupyterTask } from './jupyterTask';

const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const TOKEN = `t${Date.now().toString(36)}notebook0test0token`;

function outputMimes(cell: vscode.NotebookCell): string[] {
  return cell.outputs.flatMap((output) => output.items.map((item) => item.mime));
}

function outputText(cell: vscode.NotebookCell, mime: string): string {
  return cell.outputs.flatMap((output) => output.items.filter((item) => item.mime === mime).map((item) => new TextDecoder().decode(item.data))).join('');
}

describe('notebooks: a Compute kernel in the .ipynb editor', () => {
  let api: ExtensionApi;
  let notebook: vscode.NotebookDocument;

  before(async () => {
    api = await connectedApi();
    const taskId = await createJupyterTask(api, TOKEN);
    const cells = [
      'print("hello from the kernel")',
      `import base64\nfrom IPython.display import Image, display\ndisplay(Image(data=base64.b64decode("${PNG_BASE64}")))`,
      'raise ValueError("bad value")',
      'import time\nprint("long", flush=True)\ntime.sleep(600)',
    ].map((code) => new vscode.NotebookCellData(vscode.NotebookCellKind.Code, code, 'python'));
    notebook = await vscode.workspace.openNotebookDocument('jupyter-notebook', new vscode.NotebookData(cells));
    await vscode.window.showNotebookDocument(notebook);
    await vscode.commands.executeCommand('notebook.selectKernel', { id: Views.notebookKernel, extension: EXTENSION_ID });
    // The task runs once the store sees it; then the notebook is bound to it without the pick.
    await until(async () => (await api.money.refreshTasks()).some((task) => task.task_id === taskId && task.status === 'Running'), Boolean, 'the Jupyter task to run');
    await until(async () => api.notebooks.controller.bind(notebook, taskId).catch(() => false), Boolean, 'the notebook bound to the task');
    assert.ok(Commands.notebooksPickTask);
  });

  async function runCell(index: number): Promise<vscode.NotebookCell> {
    await vscode.commands.executeCommand('notebook.cell.execute', { ranges: [{ start: index, end: index + 1 }], document: notebook.uri });
    return until(() => notebook.cellAt(index), (cell) => cell.executionSummary?.success !== undefined, `cell ${index} to finish`);
  }

  it('prints to stdout, with an execution order', async () => {
    const cell = await runCell(0);
    assert.equal(cell.executionSummary?.success, true, JSON.stringify(outputMimes(cell)));
    assert.equal(outputText(cell, 'application/vnd.code.notebook.stdout'), 'hello from the kernel\n');
    assert.ok((cell.executionSummary?.executionOrder ?? 0) >= 1);
  });

  it('returns PNG display data as image/png bytes', async () => {
    const cell = await runCell(1);
    const png = cell.outputs.flatMap((output) => output.items).find((item) => item.mime === 'image/png');
    assert.ok(png, JSON.stringify(outputMimes(cell)));
    assert.equal(Buffer.from(png.data).toString('base64'), PNG_BASE64);
  });

  it('raises: an error output with its traceback, the run marked failed', async () => {
    const cell = await runCell(2);
    assert.equal(cell.executionSummary?.success, false);
    const error = JSON.parse(outputText(cell, 'application/vnd.code.notebook.error')) as { name: string; message: string; stack: string };
    assert.equal(error.name, 'ValueError');
    assert.equal(error.message, 'bad value');
    assert.match(error.stack, /bad value/);
  });

  it('interrupts a long cell', async () => {
    void vscode.commands.executeCommand('notebook.cell.execute', { ranges: [{ start: 3, end: 4 }], document: notebook.uri });
    await until(() => outputText(notebook.cellAt(3), 'application/vnd.code.notebook.stdout'), (text) => text.includes('long'), 'the long cell to print');
    await vscode.commands.executeCommand('notebook.cell.cancelExecution', { ranges: [{ start: 3, end: 4 }], document: notebook.uri });
    const cell = await until(() => notebook.cellAt(3), (candidate) => candidate.executionSummary?.success !== undefined, 'the interrupted cell to end');
    assert.equal(cell.executionSummary?.success, false);
    assert.match(outputText(cell, 'application/vnd.code.notebook.error'), /KeyboardInterrupt/);
  });
});
