// Deploy a Model… as a new user does it, against the sandbox (docs/deployments.md): the wizard's six
// steps ("n/6", the one wizard style) with their defaults, the cost review, the progress notification
// until the model answers, then the deployed model picked in Compute Chat and a streamed answer with its
// approximate cost line.
import type { Page } from 'playwright-core';
import type { E2eCheck } from './checks';
import { pickQuickPickRow, runCommand, visibleWebview } from './workbench';

const MODEL = 'Qwen/Qwen3-8B';

/** A step of the wizard: titled "Deploy a Model: …" and counted "n/6" (the one wizard style). */
async function waitForStep(page: Page, step: string): Promise<void> {
  await page.locator('.quick-input-widget', { hasText: 'Deploy a Model' }).filter({ hasText: step }).waitFor({ state: 'visible', timeout: 60_000 })
    .catch(() => { throw new Error(`the wizard never showed step ${step}`); });
}

export const deployModelAndChat: E2eCheck = {
  title: 'palette "Compute: Deploy a Model…": estimate, GPUs that fit, cost confirmed, ready, then answering in Compute Chat with its cost',
  async run({ page, sandbox, screenshot }) {
    // A short load keeps the check quick; the progress still goes through its phases.
    await fetch(`${sandbox.computeBaseUrl}/__sandbox/deployments/load-ms`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ loadMs: 1500 }) });
    await runCommand(page, 'Compute: Deploy a Model…');
    await waitForStep(page, '1/6');
    await pickQuickPickRow(page, MODEL);
    await waitForStep(page, '2/6');
    await page.keyboard.press('Enter'); // the model's default context
    await waitForStep(page, '3/6');
    await pickQuickPickRow(page, /BF16/);
    await waitForStep(page, '4/6');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: /usable for/ }).first().waitFor({ timeout: 60_000 });
    await screenshot('deploy-gpus');
    await page.keyboard.press('Enter'); // the first ranked: cheapest in stock
    await waitForStep(page, '5/6');
    await pickQuickPickRow(page, /15 minutes/);
    // The review before the create (6/6): Cancel highlighted (Enter never spends), Deploy picked by hand.
    const review = page.locator('.quick-input-widget', { hasText: /Deploy .* for ¥[\d.]+\/h/ }).filter({ hasText: '6/6' });
    await review.waitFor({ state: 'visible', timeout: 60_000 }).catch(() => { throw new Error('no cost review before the create'); });
    const highlighted = await review.locator('.monaco-list-row.focused').first().innerText();
    if (!/^Cancel/.test(highlighted)) throw new Error(`the review highlights "${highlighted.slice(0, 80)}", not Cancel`);
    await pickQuickPickRow(page, /^Deploy/);
    await page.locator('.notifications-toasts', { hasText: `Deploying ${MODEL}` }).waitFor({ state: 'visible', timeout: 60_000 })
      .catch(() => { throw new Error('no progress notification for the deployment'); });
    await page.locator('.notifications-toasts', { hasText: `${MODEL} is ready` }).waitFor({ state: 'visible', timeout: 120_000 })
      .catch(() => { throw new Error('the deployment never said it was ready'); });

    await runCommand(page, 'Compute: Open Chat');
    const webview = visibleWebview(page);
    const picker = webview.getByLabel('Model', { exact: true });
    await picker.waitFor({ state: 'visible', timeout: 60_000 });
    const value = await (async () => {
      for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
        const values = await picker.locator('option').evaluateAll((nodes) => nodes.map((node) => (node as HTMLOptionElement).value));
        const found = values.find((candidate) => candidate.startsWith('deployment:') && candidate.endsWith(`/${MODEL}`));
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      throw new Error('the deployed model never appeared in the chat picker');
    })();
    await picker.selectOption(value);
    const input = webview.getByLabel('Message', { exact: true });
    await input.fill('Hello, my own model');
    await input.press('Enter');
    const cost = webview.locator('.turn-cost').last();
    await cost.waitFor({ state: 'visible', timeout: 60_000 }).catch(() => { throw new Error('no cost line under the answer'); });
    const line = await cost.innerText();
    if (!/≈ ¥[\d.e-]+ for this answer .* approximate\) · [\d,]+ tokens/.test(line)) throw new Error(`unexpected cost line: ${line}`);
    await screenshot('deployed-model-chat');
  },
};
