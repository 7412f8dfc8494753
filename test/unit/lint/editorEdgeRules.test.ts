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
const GLOBAL_STATE = `import type * as vscode from 'vscode';\ndeclare const context: vscode.ExtensionContext;\nexport const v = context.globalState.get('k');\n`;
const SETTINGS = `import * as vscode from 'vscode';\nexport const v = vscode.workspace.getConfiguration('x').get('y');\n`;

describe('lint: born localizable', () => {
  const file = 'src/vscode/tasks/fixture.ts';
  const bare = [
    `import * as vscode from 'vscode';\nvoid vscode.window.showInformationMessage('Task stopped.');\n`,
    `import * as vscode from 'vscode';\ndeclare const n: string;\nvoid vscode.window.showWarningMessage(\`Stop \${n}?\`, 'Stop Task');\n`,
    `import * as vscode from 'vscode';\nvoid vscode.window.showQuickPick([], { title: 'Pick a task', placeHolder: 'Task to stop' });\n`,
    `import * as vscode from 'vscode';\nexport const item = new vscode.TreeItem('Nodes');\nitem.tooltip = 'The nodes of the task';\n`,
    // Strings passed on as arguments, returned by format helpers and pushed as document lines (issue 17).
    `declare function resolveTask(prompt: string): void;\nresolveTask('Running task to pause');\n`,
    `export function formatInventory(n: number): string {\n  return n <= 0 ? 'sold out' : \`\${n} available\`;\n}\n`,
    `export function header(): string {\n  return 'Nodes';\n}\n`,
    `const out: string[] = [];\nout.push('Five fields joined with LF.');\n`,
    `import * as vscode from 'vscode';\nvoid vscode.window.showQuickPick(['Stop', 'Keep']);\n`,
    `export class E extends Error {}\nthrow new E('The name cannot contain control characters.');\n`,
  ];
  for (const code of bare) {
    it(`fails on bare text: ${code.split('\n')[1]}`, async () => {
      const found = await messages(code, file);
      assert.ok(found.some((text) => text.includes('vscode.l10n.t')), found.join('\n'));
    });
  }

  it('accepts prose in the log, in a setup error\'s super() and as a switch case, and ids that are one word', async () => {
    const code = [
      `declare const logger: { info(text: string): void };`,
      `logger.info('Active profile changed');`,
      `export class E extends Error { constructor() { super('No compute profile is configured.'); } }`,
      `export function what(x: string): string { switch (x) { case 'ended tasks': return x; default: return 'pass'; } }`,
    ].join('\n');
    assert.deepEqual(await messages(code, file), []);
  });

  it('accepts the same text through vscode.l10n.t, and text that is not words', async () => {
    const code = `import * as vscode from 'vscode';\ndeclare const n: string;\nvoid vscode.window.showWarningMessage(vscode.l10n.t('Stop {0}?', n), vscode.l10n.t('Stop Task'));\nexport const item = new vscode.TreeItem(\`\${n} · \${n}\`);\n`;
    assert.deepEqual(await messages(code, file), []);
  });
});

describe('lint: dates and numbers in the display language', () => {
  const file = 'src/vscode/tasks/fixture.ts';
  const localeLess = [
    `declare const at: number;\nexport const s = new Date(at).toLocaleTimeString();\n`,
    `declare const d: Date;\nexport const s = d.toLocaleString();\n`,
    `declare const d: Date;\nexport const s = d.toLocaleDateString(undefined, { month: 'short' });\n`,
    `export const f = new Intl.DateTimeFormat();\n`,
    `import * as vscode from 'vscode';\nexport const s = new Date().toLocaleString(vscode.env.language);\n`,
  ];
  for (const code of localeLess) {
    it(`fails on: ${code.split('\n').at(-2) ?? code}`, async () => {
      const found = await messages(code, file);
      assert.ok(found.some((text) => text.includes('ui/dates.ts')), found.join('\n'));
    });
  }

  it('accepts the helpers and a count in the display language', async () => {
    const code = `import * as vscode from 'vscode';\nimport { formatTime } from '../ui/dates';\ndeclare const n: number;\nexport const s = formatTime(Date.now());\nexport const c = n.toLocaleString(vscode.env.language);\n`;
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

  it('globalState outside the persisted-state store fails (every area and the composition root)', async () => {
    for (const file of ['src/vscode/chat/fixture.ts', 'src/vscode/extension.ts', 'src/vscode/spend/index.ts', 'src/vscode/config.ts']) {
      const found = await messages(GLOBAL_STATE, file);
      assert.ok(found.some((text) => text.includes('persistedState.ts')), `${file}: ${found.join('\n')}`);
    }
    assert.deepEqual(await messages(GLOBAL_STATE, 'src/vscode/persistedState.ts'), []);
  });
});
