// Browser check of the Machines view (rented machines on the generic kind tree, then orders and the
// catalogue): a machine rented through the platform shows Serving with the time left, and the catalogue
// opens with its price per pack.
import { createComputeClient } from '../../src/core/compute/client';
import type { E2eCheck } from './checks';
import { firstRunWalkthroughSeen, openViewContainer, runCommand, viewRows, waitForRow, widenSideBar } from './workbench';

export const machinesView: E2eCheck = {
  title: 'Machines view lists a Serving machine with its time left, and the catalogue with prices per pack',
  async run({ page, sandbox, screenshot }) {
    const client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }) });
    await client.call('metal.buy', { billing_type: 'Day', buy_count: 2, inner: [{ device_id: 9001, unit_price: 28_000_000 * 22 }], software_init: false, discount_relation_id: null });
    await firstRunWalkthroughSeen(page);
    await page.keyboard.press('Escape');
    await runCommand(page, 'View: Close All Editors');
    await openViewContainer(page, 'Compute');
    await widenSideBar(page, 620);
    await runCommand(page, 'Focus on Machines View');
    await runCommand(page, 'Compute: Refresh Machines');
    await waitForRow(page, 'Machines', /Machine 9001.*Serving.*left/, 120_000);
    await viewRows(page, 'Machines').filter({ hasText: /^Catalogue/ }).first().click();
    await waitForRow(page, 'Machines', /RTX 4090.*per Hour pack/, 60_000);
    await screenshot('machines-view');
  },
};
