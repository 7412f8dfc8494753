// The contributed chat skill is registered with VS Code's prompt files (chat skills exist from 1.109 on;
// on the 1.104 minimum engine the manifest entry is ignored and this test is reported as pending).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { extensionApi, EXTENSION_ID } from '../extensionApi';

const [major = 0, minor = 0] = vscode.version.split('.').map(Number);
const supportsSkills = major > 1 || minor >= 109;

describe('ai: chat skill', () => {
  if (!supportsSkills) {
    it(`is registered (needs VS Code 1.109+, this is ${vscode.version})`);
    return;
  }
  it('is listed among the extension prompt files as a skill', async () => {
    await extensionApi();
    const files = await vscode.commands.executeCommand<{ uri: { path: string }; type: string; extensionId: string }[]>('_listExtensionPromptFiles');
    const ours = files.filter((file) => file.extensionId.toLowerCase() === EXTENSION_ID);
    assert.deepEqual(ours.map((file) => [file.type, file.uri.path.replace(/^.*\/skills\//, 'skills/')]), [['skill', 'skills/gpu-compute/SKILL.md']]);
  });
});
