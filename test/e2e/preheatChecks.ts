// Browser check of the Image Preheat view (a kind on the generic kind tree): a cluster preheat created
// through the platform shows as a row with its status, progress and image, with its Stop action.
import { createComputeClient } from '../../src/core/compute/client';
import type { E2eCheck } from './checks';
import { firstRunWalkthroughSeen, openViewContainer, runCommand, waitForRow, widenSideBar } from './workbench';

export const preheatView: E2eCheck = {
  title: 'Image Preheat view lists a preheat with its status, progress and image',
  async run({ page, sandbox, screenshot }) {
    const client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }) });
    await client.call('preheat.create', { task_name: 'e2e-app-preheat', regions: [{ region: 'bj-jxq-t1' }, { region: 'tengxun-sheq-t1' }], services: [{ service_name: 'main', service_image: 'registry.example.com/team/app:1.0' }] });
    await firstRunWalkthroughSeen(page);
    await page.keyboard.press('Escape');
    await runCommand(page, 'View: Close All Editors');
    await openViewContainer(page, 'Compute');
    await widenSideBar(page, 620);
    await runCommand(page, 'Focus on Image Preheat View');
    await runCommand(page, 'Compute: Refresh Image Preheats');
    await waitForRow(page, 'Image Preheat', /e2e-app-preheat.*(regions cached|ready)/, 120_000);
    await screenshot('preheat-view');
  },
};
