// The chat webview shows only the host's localized bundle: the lint rule (eslint.config.mjs) fails on
// bare user-facing text in src/webview, and accepts text taken from the bundle.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

const repoRoot = path.resolve(__dirname, '../../../..');
const eslint = new ESLint({ cwd: repoRoot });
const FILE = 'src/webview/chat/fixture.ts';
const PRELUDE = `declare function el(tag: string, props?: object, ...children: unknown[]): HTMLElement;\ndeclare function button(label: string, props?: object): HTMLElement;\ndeclare const S: { send: string; sendTitle: string };\ndeclare const node: HTMLElement;\ndeclare const app: { showFeedback(text: string): void };\n`;

async function messages(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(PRELUDE + code, { filePath: path.join(repoRoot, FILE) });
  assert.ok(result);
  // Only the layer rules: the fixture's declarations are otherwise unused.
  return result.messages.filter((message) => message.ruleId === 'no-restricted-syntax').map((message) => message.message);
}

describe('lint: webview text comes from the bundle', () => {
  const bare = [
    `export const a = el('p', {}, 'Ask a hosted model.');\n`,
    `export const b = button('Send', { title: S.sendTitle });\n`,
    `export const c = button(S.send, { title: 'Send the message' });\n`,
    `export const d = el('input', { ariaLabel: 'Temperature' });\n`,
    `node.textContent = 'No profile';\n`,
    'declare const n: number;\nnode.title = `${n} tokens used`;\n',
    `node.append('Loading models…');\n`,
    `app.showFeedback('Max tokens must be a whole number.');\n`,
  ];
  for (const code of bare) {
    it(`fails on bare text: ${code.trim()}`, async () => {
      const found = await messages(code);
      assert.ok(found.some((text) => text.includes('webviewStrings.ts')), found.join('\n') || 'no lint message');
    });
  }

  it('accepts text from the bundle, tag names, class names and text that is not words', async () => {
    const code = `export const a = el('div', { className: 'composer-row', title: S.sendTitle }, S.send, '↻', 'Σ');\nexport const b = button(S.send);\nnode.textContent = S.send;\nnode.title = '';\n`;
    assert.deepEqual(await messages(code), []);
  });
});
