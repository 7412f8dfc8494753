// The harness's own checks: the extension loads in a real VS Code, activates, contributes its views,
// and the in-host suites can reach the sandbox the runner started.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { getSandbox } from '../sandboxInfo';
import { EXTENSION_ID } from '../extensionApi';


function extension(): vscode.Extension<unknown> {
  const found = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(found, `${EXTENSION_ID} is not loaded in this VS Code`);
  return found;
}

describe('smoke: activation', () => {
  it('the extension is loaded', () => {
    assert.equal(extension().packageJSON.name, 'compute-toolkit');
  });

  it('activates and hands out its exports object', async () => {
    const ext = extension();
    const exports = await ext.activate();
    assert.equal(ext.isActive, true);
    assert.equal(typeof exports, 'object', 'activate() should return the extension API object');
    assert.notEqual(exports, null);
  });

  it('contributes the Compute views, and the workbench can show them', async () => {
    const views = (extension().packageJSON as { contributes?: { views?: Record<string, { id: string }[]> } }).contributes?.views;
    const ids = (views?.computeToolkit ?? []).map((view) => view.id);
    assert.deepEqual(ids, ['computeToolkit.resources', 'computeToolkit.tasks', 'computeToolkit.jobs', 'computeToolkit.storage', 'computeToolkit.nas', 'computeToolkit.preheat', 'computeToolkit.machines']);
    // `<view id>.focus` commands exist only for views the workbench registered from the manifest.
    await vscode.commands.executeCommand('workbench.view.extension.computeToolkit');
    await vscode.commands.executeCommand('computeToolkit.resources.focus');
    await vscode.commands.executeCommand('computeToolkit.tasks.focus');
  });

  it('reaches the sandbox the runner started (environment inherited by the extension host)', async () => {
    const sandbox = await getSandbox();
    assert.match(sandbox.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(sandbox.bootstrap.computeBaseUrl.startsWith(sandbox.url), `computeBaseUrl ${sandbox.bootstrap.computeBaseUrl} is not on ${sandbox.url}`);
  });
});
