// Browser check of "Jupyter on a Machine…" (docs/notebooks.md, "A kernel on a machine"): the kernel picker
// lists the Compute kernels, the machine pick shows a Serving machine with its GPU and time left, and once a
// cell ran the status bar shows the machine kernel (machine, rental price, time left, state).
import { createComputeClient } from '../../src/core/compute/client';
import { MachineService } from '../../src/core/machines/machineService';
import type { E2eCheck } from './checks';
import { SAMPLE_NOTEBOOK_FILE } from './sampleWorkspace';
import { firstRunWalkthroughSeen, openFile, pickQuickPickRow, quickPickOpaque, runCommand } from './workbench';

/** A machine of the sandbox's catalogue (test/sandbox/metal/catalogue.ts) that no other check rents. */
const DEVICE = 9002;
const MACHINE_KERNEL = /Jupyter on a Machine/;

export const machineKernelPickerAndStatus: E2eCheck = {
  title: 'Kernel picker offers Jupyter on a Machine…; the machine pick shows GPU and time left; the status bar shows the machine kernel',
  async run({ page, sandbox, screenshot }) {
    const service = new MachineService(createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }) }));
    const [product] = (await service.singles('Hour')).filter((item) => item.device_id === DEVICE);
    if (!product) throw new Error(`the sandbox offers no machine ${DEVICE}`);
    await service.rent({ products: [product], billing: 'Hour', packs: 1, softwareInit: false });
    await service.waitForServing(DEVICE, { pollMs: 200, timeoutMs: 120_000 });
    await firstRunWalkthroughSeen(page);
    await page.keyboard.press('Escape');
    await runCommand(page, 'View: Close All Editors');
    await openFile(page, SAMPLE_NOTEBOOK_FILE);
    // The workbench keeps hidden notebook editors around (1.104 does): wait for the one on screen.
    const notebook = page.locator('.notebook-editor').filter({ visible: true }).first();
    await notebook.waitFor({ timeout: 60_000 });
    // The notebook's kernel button, as a user picks a kernel (1.104 draws it in the notebook's toolbar,
    // 1.139 in the editor's title bar): the palette's "Select Notebook Kernel" is listed only once the
    // notebook is the active editor, which a busy workbench reports later than it draws the editor.
    const kernelButton = page.locator('.kernel-action-view-item, .action-item:has(.codicon-notebook-kernel-select)');
    await kernelButton.filter({ visible: true }).first().click({ timeout: 60_000 });
    // VS Code's picker lists kernels at once or behind "Select Another Kernel…" and the extension's group.
    const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    const deadline = Date.now() + 120_000;
    while (!(await rows.filter({ hasText: MACHINE_KERNEL }).first().isVisible())) {
      if (Date.now() > deadline) throw new Error(`the kernel picker never listed "Jupyter on a Machine…" (rows: ${(await rows.allInnerTexts()).join(' | ')})`);
      const another = rows.filter({ hasText: /Select Another Kernel/ }).first();
      // The list of kernel sources (one per extension): ours is named for the extension.
      const sources = page.locator('.quick-input-widget input[placeholder*="kernel source"]');
      if (await another.isVisible()) await another.click();
      else if (await sources.isVisible()) await rows.filter({ hasText: 'Compute Toolkit' }).first().click();
      else await page.waitForTimeout(250);
    }
    await quickPickOpaque(page);
    await screenshot('machine-kernel-picker');
    await rows.filter({ hasText: MACHINE_KERNEL }).first().click();
    const machine = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: new RegExp(`Machine ${DEVICE}.*left`) }).first();
    await machine.waitFor({ timeout: 120_000 });
    await screenshot('machine-kernel-machine-pick');
    await machine.click();
    await pickQuickPickRow(page, /Home folder/);
    // Connect… the first time: the host key shown and trusted, a key generated for the machine.
    await pickQuickPickRow(page, /Trust this host key and connect/, 120_000);
    await pickQuickPickRow(page, /Generate a key for this machine/, 120_000);
    await runCommand(page, 'Notebook: Run All');
    await page.locator('.cell-statusbar-container .codicon-notebook-state-success').first().waitFor({ timeout: 240_000 });
    await page.locator('.statusbar-item', { hasText: new RegExp(`Machine ${DEVICE}.*left · idle`) }).first().waitFor({ timeout: 120_000 });
    await screenshot('machine-kernel-status');
  },
};
