// Browser checks of NAS: the NAS view's Transfers group (an S3 → NAS transfer created with the sandbox's RSA
// key — the platform takes it only encrypted — shows under Transfers with the progress the platform
// reports), and a volume opened as a folder in the Explorer (computenas over the sandbox's SFTP server).
import { createComputeClient } from '../../src/core/compute/client';
import { createTransfer, transferBody } from '../../src/core/nas';
import type { Locator } from 'playwright-core';
import type { E2eCheck } from './checks';
import { firstRunWalkthroughSeen, openViewContainer, pickQuickPickRow, runCommand, waitForRow, waitForWorkbench, widenSideBar } from './workbench';

const TRANSFER = 'e2e-s3-import';

export const nasTransfersGroup: E2eCheck = {
  title: 'NAS view shows the volumes and a running S3 transfer with files, bytes, rate and time left',
  async run({ page, sandbox, screenshot }) {
    const r = sandbox.credentials.rsaMode;
    const client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'rsa', token: r.token, privateKey: r.privateKeyPem, platformPublicKey: r.platformPublicKeyPem }) });
    const bucket = (await (await fetch(`${sandbox.computeBaseUrl}/__sandbox/nas/bucket`)).json()) as { supplier: string; endpoint: string; bucket: string; accessKey: string; secretKey: string };
    const volume = (await client.call('nas.list', { page: 1, page_size: 10 })).results.find((v) => v.status === 'Active');
    if (!volume) throw new Error('the sandbox has no Active NAS volume');
    const plan = { storageId: volume.storage_id, name: TRANSFER, direction: 1 as const, supplier: bucket.supplier, endpoint: bucket.endpoint, bucket: bucket.bucket, prefix: 'datasets/', nasPath: '/imported', overwritePolicy: 2 as const, ignorePatterns: [] };
    // The walkthrough opens by itself on a first start: let it come first, not over the view.
    await firstRunWalkthroughSeen(page);
    await page.keyboard.press('Escape');
    await runCommand(page, 'View: Close All Editors');
    await openViewContainer(page, 'Compute');
    await widenSideBar(page, 620);
    await runCommand(page, 'Focus on NAS Volumes View');
    await runCommand(page, 'Compute: Refresh NAS Volumes');
    await waitForRow(page, 'NAS Volumes', 'Transfers', 60_000);
    // The sandbox's jobs run 20 s: this one runs five minutes, so that a busy machine still sees it Running.
    const runningFor = (runningMs: number) => fetch(`${sandbox.computeBaseUrl}/__sandbox/nas/transfers`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ runningMs }) });
    await runningFor(5 * 60_000);
    try {
      await createTransfer(client, transferBody(plan, { accessKey: bucket.accessKey, secretKey: bucket.secretKey }));
    } finally {
      await runningFor(20_000);
    }
    await runCommand(page, 'Compute: Refresh NAS Volumes');
    const deadline = Date.now() + 120_000;
    for (;;) {
      try {
        await waitForRow(page, 'NAS Volumes', /e2e-s3-import.*Running.*files.*\/s.*left/, 3000);
        break;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await runCommand(page, 'Compute: Refresh NAS Volumes');
      }
    }
    await screenshot('nas-transfers');
  },
};

/** The volume the sandbox seeds with a README.md and a data/ folder (test/sandbox/nas/index.ts). */
const SEEDED_VOLUME = 'datasets';

export const nasVolumeInExplorer: E2eCheck = {
  title: 'Open Volume in Explorer: the NAS volume is a workspace folder whose files the Explorer lists',
  async run({ page, screenshot }) {
    // The walkthrough opens by itself on a first start: let it come first, not over the volume's file.
    await firstRunWalkthroughSeen(page);
    await page.keyboard.press('Escape');
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'Compute: Open Volume in Explorer');
    await pickQuickPickRow(page, SEEDED_VOLUME).catch(() => {
      throw new Error(`Open Volume in Explorer offered no "${SEEDED_VOLUME}" volume to pick`);
    });
    // A second folder makes the window a multi-root workspace, which VS Code loads afresh.
    const folder = page.locator('.explorer-folders-view .monaco-list-row', { hasText: `NAS: ${SEEDED_VOLUME}` }).first();
    // On a loaded machine code-server's reload into the new workspace can come up with no folder at all
    // (the workspace file holds both folders; the page loaded before it could read it): the page is then
    // loaded again, as a user would, at most twice.
    const noFolder = page.getByText('You have not yet added a folder to the workspace').first();
    let emptySince: number | undefined;
    let reloads = 0;
    const deadline = Date.now() + 180_000;
    for (;;) {
      await waitForWorkbench(page);
      if (await folder.isVisible().catch(() => false)) break;
      if (Date.now() > deadline) throw new Error(`the Explorer shows no "NAS: ${SEEDED_VOLUME}" folder (page loaded again ${reloads}×)`);
      const empty = (await page.title()).includes('(Workspace)') && (await noFolder.isVisible().catch(() => false));
      emptySince = empty ? (emptySince ?? Date.now()) : undefined;
      if (emptySince !== undefined && Date.now() - emptySince > 15_000 && reloads < 2) {
        reloads++;
        emptySince = undefined;
        await page.reload();
        continue;
      }
      await runCommand(page, 'View: Show Explorer').catch(() => undefined);
      await page.waitForTimeout(2000);
    }
    // Expand it (a click can land while the window is still settling into the workspace: try again).
    const rows = page.locator('.explorer-folders-view .monaco-list-row');
    const fileRow = (name: string): Locator => rows.filter({ hasText: new RegExp(`^\\s*${name.replace('.', '\\.')}\\s*$`) }).first();
    for (const until = Date.now() + 90_000; ; ) {
      if ((await fileRow('data').isVisible()) && (await fileRow('README.md').isVisible())) break;
      if (Date.now() > until) throw new Error(`the volume folder does not list its files (rows: ${JSON.stringify((await rows.allInnerTexts()).slice(0, 12))})`);
      if ((await folder.getAttribute('aria-expanded', { timeout: 10_000 }).catch(() => null)) !== 'true') await folder.click({ timeout: 10_000 }).catch(() => undefined);
      await page.waitForTimeout(2000);
    }
    await fileRow('README.md').click();
    await page.locator('.editor-group-container.active .view-lines', { hasText: 'Shared training data.' }).first().waitFor({ state: 'visible', timeout: 60_000 }).catch(() => {
      throw new Error('README.md from the volume did not open with its text');
    });
    await screenshot('nas-explorer');
  },
};
