// Browser check of Create S3 Transfer… on the one wizard style (ui/multiStepInput), the longest flow:
// the title names the volume, every step is counted "n/12", and from step 2 on the title bar has Back.
// Runs in English and, in the e2e-zh-cn phase (scripts/vscode-web/run.mjs), in Chinese: a screenshot of
// step 4 in each (the in-host suite reads every step's words; test/integration/l10n).
import type { E2eCheck } from './checks';
import { pickQuickPickRow, readyOnSandboxProfile, runCommand } from './workbench';

/** The volume the sandbox seeds (test/sandbox/nas/index.ts); Active. */
const VOLUME = 'datasets';

export const transferWizardSteps: E2eCheck = {
  title: 'Create S3 Transfer wizard: titled with the volume, "n/12" on every step, Back from step 2',
  bothLanguages: true,
  async run({ page, screenshot, locale }) {
    const zh = locale === 'zh-cn';
    await readyOnSandboxProfile(page, zh);
    await runCommand(page, zh ? '算力: 创建 S3 互传任务…' : 'Compute: Create Transfer…');
    await pickQuickPickRow(page, VOLUME);
    const widget = page.locator('.quick-input-widget');
    const back = widget.locator('.quick-input-titlebar .codicon-quick-input-back');
    const atStep = async (step: number): Promise<void> => {
      await widget.filter({ hasText: `${step}/12` }).waitFor({ state: 'visible', timeout: 60_000 });
      const title = await widget.locator('.quick-input-title').innerText({ timeout: 15_000 });
      if (!title.includes(VOLUME)) throw new Error(`step ${step} is titled "${title}", without the volume`);
      if (step >= 2 && !(await back.isVisible())) throw new Error(`step ${step} has no Back in its title bar`);
    };
    await atStep(1);
    await page.keyboard.press('Enter');
    await atStep(2);
    await page.keyboard.press('Enter');
    await atStep(3);
    await page.keyboard.type('s3.sandbox.local');
    await page.keyboard.press('Enter');
    await atStep(4);
    await screenshot('transfer-wizard');
    // Back returns to the endpoint step with what was typed there.
    await back.click();
    await atStep(3);
    const kept = await widget.locator('input.input').inputValue({ timeout: 15_000 });
    if (kept !== 's3.sandbox.local') throw new Error(`Back to step 3 shows "${kept}", not what was typed`);
    await page.keyboard.press('Escape');
  },
};
