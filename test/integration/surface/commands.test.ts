// The manifest and the registered commands agree in both directions: a contributed command without a
// handler fails when clicked; a registered command missing from the manifest has no title or category.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, extensionApi } from './surfaceApi';

interface Manifest {
  contributes: {
    commands: { command: string }[];
    views: Record<string, { id: string }[]>;
  };
}

function manifest(): Manifest {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension);
  return extension.packageJSON as Manifest;
}

describe('surface: commands', () => {
  before(async () => {
    await extensionApi();
  });

  it('every contributed command has a registered handler', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = manifest()
      .contributes.commands.map((entry) => entry.command)
      .filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  it('every registered computeToolkit.* command is contributed', async () => {
    const contributed = new Set(manifest().contributes.commands.map((entry) => entry.command));
    // The workbench derives commands from each view id (focus, resetViewLocation, …): not ours to contribute.
    const viewIds = Object.values(manifest().contributes.views).flat().map((view) => `${view.id}.`);
    const extra = (await vscode.commands.getCommands(true)).filter(
      (id) => id.startsWith('computeToolkit.') && !contributed.has(id) && !viewIds.some((prefix) => id.startsWith(prefix)),
    );
    assert.deepEqual(extra, [], `registered but not in package.json: ${extra.join(', ')}`);
  });

  it('the manifest lists each command once', () => {
    const ids = manifest().contributes.commands.map((entry) => entry.command);
    assert.deepEqual(ids.filter((id, index) => ids.indexOf(id) !== index), []);
  });
});
