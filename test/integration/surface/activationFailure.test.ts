// activate's failure path (issue 28, docs/areas.md): a second activation in the same host fails for real
// (the profile commands are taken), takes back everything it registered before it threw, and rethrows; the
// running extension is untouched. The copy of the context shares the host's storage and secrets.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activate } from '../../../src/vscode/extension';
import { extensionApi } from './surfaceApi';

describe('surface: activation failure', () => {
  it('an activation that throws leaves nothing registered and rethrows; the running one still answers', async () => {
    const api = await extensionApi();
    const subscriptions: vscode.Disposable[] = [];
    const context = Object.create(api.services.context, { subscriptions: { value: subscriptions } }) as vscode.ExtensionContext;
    const before = (await vscode.commands.getCommands(true)).filter((id) => id.startsWith('computeToolkit.')).sort();

    assert.throws(() => activate(context), /already exists/);
    assert.equal(subscriptions.length, 0, 'what the failed activation registered is disposed and removed');
    await vscode.commands.executeCommand('notifications.clearAll');

    const after = (await vscode.commands.getCommands(true)).filter((id) => id.startsWith('computeToolkit.')).sort();
    assert.deepEqual(after, before, "the running extension's commands are all still there");
    assert.match(api.surface.logText(), /\S/, 'the running extension still logs');
  });
});
