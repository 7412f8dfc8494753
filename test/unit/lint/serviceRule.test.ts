// The editor does not speak the wire (issue 28): a client.call('op') anywhere in src/vscode fails lint
// with a message that names the services; core (where the services live) may call the client.
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

const HEADER = `declare const client: { call(operation: string, params: unknown): Promise<unknown> };\n`;

describe('lint: the editor calls the services, not the client', () => {
  for (const call of [`void client.call('task.pause', { task_id: 1 });`, 'void client.call(`job.stop`, { task_id: 1 });']) {
    it(`fails in src/vscode on ${call}`, async () => {
      const found = await messages(`${HEADER}${call}\n`, 'src/vscode/tasks/fixture.ts');
      assert.ok(found.some((text) => text.includes('Service.ts')), found.join('\n'));
    });
  }

  it('accepts the same call in core and Function.prototype.call in src/vscode', async () => {
    assert.deepEqual(await messages(`${HEADER}void client.call('task.pause', { task_id: 1 });\n`, 'src/core/tasks/fixture.ts'), []);
    assert.deepEqual(await messages(`export const own = Object.prototype.hasOwnProperty.call({}, 'x');\n`, 'src/vscode/tasks/fixture.ts'), []);
  });
});
