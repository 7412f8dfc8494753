// Browser check of the Create Job wizard on the one wizard style (ui/multiStepInput): every step shows
// "n/16", and the review opens with Cancel highlighted and the price on it. Runs in English and, in the
// e2e-zh-cn phase (scripts/vscode-web/run.mjs), in Chinese: a screenshot of the review in each.
import type { E2eCheck } from './checks';
import { readyOnSandboxProfile, runCommand } from './workbench';

/** The steps an all-defaults run shows: one completion (no indexed mode), Spot (the estimate), no volume (no mount directory). */
const STEPS = [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14];

export const createJobReview: E2eCheck = {
  title: 'Create Job wizard: "n/16" on every step; the review opens on Cancel with the price',
  bothLanguages: true,
  async run({ page, screenshot, locale }) {
    const zh = locale === 'zh-cn';
    // On a fresh workbench (the e2e-zh-cn phase runs this check first) the profile connects after activation.
    await readyOnSandboxProfile(page, zh);
    await runCommand(page, zh ? '算力: 创建 Job 批处理任务…' : 'Compute: Create Job…');
    const widget = page.locator('.quick-input-widget');
    for (const step of STEPS) {
      await widget.filter({ hasText: `${step}/16` }).waitFor({ state: 'visible', timeout: 60_000 });
      await page.keyboard.press('Enter');
    }
    const review = widget.filter({ hasText: '16/16' }).filter({ hasText: zh ? /运行（¥[\d.,]+\/h）/ : /Run \(¥[\d.,]+\/h\)/ });
    await review.waitFor({ state: 'visible', timeout: 60_000 });
    const focused = await review.locator('.quick-input-list .monaco-list-row.focused').first().innerText({ timeout: 15_000 });
    if (!focused.includes(zh ? '取消' : 'Cancel')) throw new Error(`the review opened on "${focused}", not Cancel`);
    await screenshot('create-job-review');
    await page.keyboard.press('Escape');
  },
};
