// What VS Code's own AI surfaces show of the extension without a GitHub sign-in: the platform's chat
// models in the "Language Models" dialog (the sandbox's chat models with context sizes and tool calling;
// no embedding model).
import type { Page } from 'playwright-core';
import { runCommand } from './workbench';

export interface AiCheckContext {
  page: Page;
  screenshot(name: string): Promise<void>;
}

/** Readable model names as the chat shows them (src/shared/modelDisplayName.ts of test/sandbox/inference/models.ts ids). */
const SHOWN_MODELS = ['Qwen3 32B (qwen)', 'Deepseek V4 Flash 0731 Free (deepseek)', 'Tools (sandbox)'];
const HIDDEN_MODEL = 'Embedding';

export const languageModelsListPlatformModels = {
  // 1.104 offers the command only to signed-in Copilot plans; 1.139 shows the dialog to everyone.
  minVersion: '1.139',
  title: 'palette "Chat: Manage Language Models": the sandbox chat models are listed, embedding models are not',
  async run({ page, screenshot }: AiCheckContext): Promise<void> {
    await runCommand(page, 'Chat: Manage Language Models');
    await page.getByText('Language Models', { exact: true }).first().waitFor({ state: 'visible', timeout: 60_000 })
      .catch(() => { throw new Error('no "Language Models" view opened'); });
    for (const name of SHOWN_MODELS) {
      await page.getByText(name, { exact: true }).first().waitFor({ state: 'visible', timeout: 60_000 })
        .catch(() => { throw new Error(`the Language Models view does not list ${name}`); });
    }
    if ((await page.getByText(HIDDEN_MODEL).count()) > 0) throw new Error(`the Language Models view lists the embedding model ${HIDDEN_MODEL}`);
    await screenshot('language-models');
    await page.keyboard.press('Escape');
  },
};
