// The lint rules that keep one wording path for errors (eslint.config.mjs oneErrorPath): an error
// notification goes through services.reportError, an error inside user-facing text through errorText;
// the messages point there. The renderers themselves (src/vscode/errors) may do both.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

const repoRoot = path.resolve(__dirname, '../../../..');
const eslint = new ESLint({ cwd: repoRoot });

async function messages(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  assert.ok(result);
  return result.messages.filter((message) => message.ruleId === 'no-restricted-syntax').map((message) => message.message);
}

const HEAD = "import * as vscode from 'vscode';\nimport { errorMessage } from '../../shared/errorMessage';\ndeclare const error: unknown;\ndeclare const err: Error;\n";
const AREA = 'src/vscode/nas/fixture.ts';

describe('lint: one path for errors shown to the user', () => {
  const raw = [
    "export const a = vscode.l10n.t('Could not load: {0}', errorMessage(error));",
    "export const b = vscode.l10n.t('Could not load: {0}', err.message);",
    "export const c = vscode.l10n.t('Failed: {0}', error instanceof Error ? error.message : String(error));",
    'export const d = { ok: false, message: errorMessage(error) };',
    'export const e = { ok: false, error: String(errorMessage(error)) };',
    'export function f(): string {\n  return errorMessage(error);\n}',
    'throw new Error(err.message);',
    'throw new Error(error instanceof Error ? error.message : String(error));',
  ];
  for (const line of raw) {
    it(`fails on a raw error message in user-facing text: ${line.split('\n')[0]}`, async () => {
      const found = await messages(`${HEAD}${line}\n`, AREA);
      assert.ok(found.some((text) => text.includes('errorText(error) (src/vscode/errors/errorText.ts)')), found.join('\n'));
    });
  }

  it('fails on showErrorMessage outside the reporter, pointing at reportError and Refusal', async () => {
    const found = await messages(`${HEAD}void vscode.window.showErrorMessage(vscode.l10n.t('Nothing was sent.'));\n`, AREA);
    assert.ok(found.some((text) => text.includes('services.reportError') && text.includes('src/vscode/errors/refusal.ts')), found.join('\n'));
  });

  it('fails on an Error thrown with display-language text, pointing at Refusal; accepts the Refusal', async () => {
    const found = await messages(`${HEAD}throw new Error(vscode.l10n.t('Only an Active volume can be expanded.'));\n`, AREA);
    assert.ok(found.some((text) => text.includes('new Refusal(vscode.l10n.t(…)) (src/vscode/errors/refusal.ts)')), found.join('\n'));
    const refusal = `${HEAD}import { Refusal } from '../errors/refusal';\nthrow new Refusal(vscode.l10n.t('Only an Active volume can be expanded.'));\n`;
    assert.deepEqual(await messages(refusal, AREA), []);
  });

  it('accepts errorText, an error message in the log, and both inside the renderers', async () => {
    const ok = [
      "import { errorText } from '../errors/errorText';",
      "declare const logger: { warn(text: string): void };",
      "export const a = vscode.l10n.t('Could not load: {0}', errorText(error));",
      'logger.warn(`Load failed: ${errorMessage(error)}`);',
    ].join('\n');
    assert.deepEqual(await messages(`${HEAD}${ok}\n`, AREA), []);
    const renderer = `${HEAD}export const a = vscode.l10n.t('Failed: {0}', errorMessage(error));\nvoid vscode.window.showErrorMessage(a);\n`;
    assert.deepEqual(await messages(renderer, 'src/vscode/errors/fixture.ts'), []);
  });
});
