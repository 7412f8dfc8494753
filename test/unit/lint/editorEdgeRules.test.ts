// The lint rules that keep one place for each thing at the editor edge (eslint.config.mjs) fail on a
// violation, and accept the same code in the one file where it belongs.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

const repoRoot = path.resolve(__dirname, '../../../..');
const eslint = new ESLint({ cwd: repoRoot });

async function messages(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  assert.ok(result);
  return result.messages.map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`);
}

const REGISTER = `import * as vscode from 'vscode';\nexport const d = vscode.commands.registerCommand(ID, () => undefined);\ndeclare const ID: string;\n`;
const ID_LITERAL = `export const id = 'computeToolkit.tasks.refresh';\n`;
const ID_TEMPLATE = 'declare const x: string;\nexport const id = `computeToolkit.${x}`;\n';
const SETTINGS = `import * as vscode from 'vscode';\nexport const v = vscode.workspace.getConfiguration('x').get('y');\n`;

describe('lint: born localizable', () => {
  const file = 'src/vscode/tasks/fixture.ts';
  const bare = [
    `import * as vscode from 'vscode';\nvoid vscode.window.showInformationMessage('Task stopped.');\n`,
    `import * as vscode from 'vscode';\ndeclare const n: string;\nvoid vscode.window.showWarningMessage(\`Stop \${n}?\`, 'Stop Task');\n`,
    `import * as vscode from 'vscode';\nvoid vscode.window.showQuickPick([], { title: 'Pick a task', placeHolder: 'Task to stop' });\n`,
    `import * as vscode from 'vscode';\nexport const item = new vscode.TreeItem('Nodes');\nitem.tooltip = 'The nodes of the task';\n`,
  ];
  for (const code of bare) {
    it(`fails on bare text: ${code.split('\n')[1]}`, async () => {
      const found = await messages(code, file);
      assert.ok(found.some((text) => text.includes('vscode.l10n.t')), found.join('\n'));
    });
  }

  it('accepts the same text through vscode.l10n.t, and text that is not words', async () => {
    const code = `import * as vscode from 'vscode';\ndeclare const n: string;\nvoid vscode.window.showWarningMessage(vscode.l10n.t('Stop {0}?', n), vscode.l10n.t('Stop Task'));\nexport const item = new vscode.TreeItem(\`\${n} · \${n}\`);\n`;
    assert.deepEqual(await messages(code, file), []);
  });
});

describe('lint: one place for commands, ids and settings', () => {
  it('registerCommand outside the command table fails', async () => {
    const found = await messages(REGISTER, 'src/vscode/tasks/fixture.ts');
    assert.ok(found.some((text) => text.includes('command table')), found.join('\n'));
    assert.deepEqual(await messages(REGISTER, 'src/vscode/commands/commandTable.ts'), []);
  });

  it('a computeToolkit.* literal outside the id module fails (plain and template)', async () => {
    for (const code of [ID_LITERAL, ID_TEMPLATE]) {
      const found = await messages(code, 'src/vscode/chat/fixture.ts');
      assert.ok(found.some((text) => text.includes('commandIds.ts')), found.join('\n'));
    }
    assert.deepEqual(await messages(ID_LITERAL, 'src/vscode/commandIds.ts'), []);
  });

  it('getConfiguration outside Config fails', async () => {
    const found = await messages(SETTINGS, 'src/vscode/tasks/fixture.ts');
    assert.ok(found.some((text) => text.includes('Config')), found.join('\n'));
    assert.deepEqual(await messages(SETTINGS, 'src/vscode/config.ts'), []);
  });
});
