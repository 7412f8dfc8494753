// Browser check of the NAS view's Transfers group: an S3 → NAS transfer created with the sandbox's RSA key
// (the platform takes it only encrypted) shows under Transfers with the progress the platform reports.
import { createComputeClient } from '../../src/core/compute/client';
import { createTransfer, transferBody } from '../../src/core/nas';
import type { E2eCheck } from './checks';
import { openViewContainer, runCommand, waitForRow, widenSideBar } from './workbench';

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
    await page.waitForTimeout(3000);
    await page.keyboard.press('Escape');
    await runCommand(page, 'View: Close All Editors');
    await openViewContainer(page, 'Compute');
    await widenSideBar(page, 620);
    await runCommand(page, 'Focus on NAS Volumes View');
    await runCommand(page, 'Compute: Refresh NAS Volumes');
    await waitForRow(page, 'NAS Volumes', 'Transfers', 30_000);
    // Created once the view shows: the sandbox's job runs for 20 s.
    await createTransfer(client, transferBody(plan, { accessKey: bucket.accessKey, secretKey: bucket.secretKey }));
    await page.waitForTimeout(2500);
    await runCommand(page, 'Compute: Refresh NAS Volumes');
    const deadline = Date.now() + 15_000;
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
