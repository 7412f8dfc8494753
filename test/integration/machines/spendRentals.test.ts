// Rental ends in a real VS Code (docs/machines.md "In the editor"): the Spend page lists each rented
// machine with its end, time left and auto-renew with the price of one renewal, marks the rentals inside
// the warning window of `computeToolkit.machines.warnBeforeEndMinutes`, and follows the store (auto-renew
// turned on shows its price without reopening the page); the setting moves the warning (90 minutes: warned
// at once with under an hour left, once) and 0 turns it off. The warnings' clock is moved, never waited for.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { MachineService } from '../../../src/core/machines/machineService';
import type { ExtensionApi } from '../../../src/vscode/api';
import { PATIENCE_MS, waitUntil } from '../../helpers/eventually';
import { computeWithSandbox } from '../compute/computeTestApi';
import { extensionApi } from '../extensionApi';
import { answerFlow, isPick } from '../nas/answerFlow';
import { metalControl } from './metalControl';

// A device id no other suite uses (an A100 × 8 at ¥28.00 an hour, ¥616.00 a day in the sandbox).
const DEVICE = 9341;
const SETTING = 'machines.warnBeforeEndMinutes';

describe('machines: rental ends in the Spend view and the warning setting', () => {
  let api: ExtensionApi;
  let service: MachineService;
  const settings = () => vscode.workspace.getConfiguration('computeToolkit');
  const row = () => api.money.spendPageData()?.rentals.find((candidate) => candidate.machine.startsWith(`Machine ${DEVICE} `));
  const warningsSince = (mark: number) => api.money.notificationsSince(mark).filter((notice) => notice.kind === 'machineEnding' && notice.message.includes(`Machine ${DEVICE} `));
  /** Runs the warnings' check as if `before` ms were left of the rental. */
  const checkAt = (before: number): void => {
    const end = api.machines.machines().find((machine) => machine.deviceId === DEVICE)?.endMs;
    assert.ok(end !== undefined, 'the rental has an end');
    api.machines.warnings.useClock(() => end - before);
    try {
      api.machines.warnings.check();
    } finally {
      api.machines.warnings.useClock(Date.now);
    }
  };

  before(async function () {
    this.timeout(PATIENCE_MS * 4);
    await computeWithSandbox();
    api = await extensionApi();
    await metalControl('product', { device_id: DEVICE });
    service = new MachineService(api.surface.createComputeClient({}));
    const product = (await service.singles('Hour')).find((item) => item.device_id === DEVICE);
    assert.ok(product);
    await service.rent({ products: [product], billing: 'Hour', packs: 1, softwareInit: false });
    await service.waitForServing(DEVICE, { pollMs: 50, timeoutMs: PATIENCE_MS });
    await api.machines.refresh();
  });

  after(async () => {
    await settings().update(SETTING, undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('0 turns the warning off: no warning 5 minutes before the end, the page says so and marks nothing', async function () {
    this.timeout(PATIENCE_MS * 2);
    await settings().update(SETTING, 0, vscode.ConfigurationTarget.Global);
    const mark = api.money.notificationCount();
    checkAt(5 * 60_000);
    assert.deepEqual(warningsSince(mark), []);
    const data = await api.money.openSpend();
    assert.ok(data);
    assert.match(data.rentalsNote, /^Rental-end warnings are off \(setting computeToolkit\.machines\.warnBeforeEndMinutes\)\.$/);
    const shown = row();
    assert.ok(shown, JSON.stringify(data.rentals));
    assert.equal(shown.endingSoon, false);
  });

  it('90 minutes: the warning comes at once (under an hour is left), once; the page lists the machine with its end and time left, marked ending soon', async function () {
    this.timeout(PATIENCE_MS * 2);
    const mark = api.money.notificationCount();
    await settings().update(SETTING, 90, vscode.ConfigurationTarget.Global);
    // A changed setting is checked against the rentals at once (30, the default, would not warn yet).
    const warnings = await waitUntil('the rental-end warning', () => (warningsSince(mark).length > 0 ? warningsSince(mark) : undefined), { timeoutMs: PATIENCE_MS });
    assert.match(warnings[0]?.message ?? '', /^The rental of Machine 9341 ends in (\d+ min|1 h); its files go with it unless you renew\.$/);
    checkAt(80 * 60_000);
    checkAt(30 * 60_000);
    assert.equal(warningsSince(mark).length, 1, 'warned once per rental end');
    // The page follows the setting without a reload.
    const shown = await waitUntil('the row marked ending soon', () => (row()?.endingSoon ? row() : undefined), { timeoutMs: PATIENCE_MS });
    assert.equal(shown.machine, `Machine ${DEVICE} · 8 × NVIDIA A100-SXM4-80GB`);
    assert.match(shown.timeLeft, /^(\d+ min|1 h)$/, 'a one-hour pack');
    assert.ok(shown.ends.length > 0 && shown.ends !== 'Serving', shown.ends);
    assert.equal(shown.autoRenew, 'Off');
    assert.match(api.money.spendPageData()?.rentalsNote ?? '', /^You are warned 1 h 30 min before a rental ends unless auto-renew is on/);
  });

  it("Auto-Renew… (a pick with each pack's price, then a review on Cancel) turns it on; the page shows the pack and the price of one renewal, and the row is no longer ending soon", async function () {
    this.timeout(PATIENCE_MS * 3);
    const asked: string[] = [];
    await answerFlow(api, () => vscode.commands.executeCommand('computeToolkit.machines.autoRenew', DEVICE), (input) => {
      assert.ok(isPick(input));
      asked.push(`${input.step ?? '-'}/${input.totalSteps ?? '-'} ${input.items.map((item) => `${item.label} (${item.description ?? ''}${item.detail ?? ''})`).join('; ')} [active: ${input.activeItems[0]?.label ?? ''}]`);
      const wanted = input.items.find((item) => item.label === 'Renew by Day pack' || item.label === 'Turn On Auto-Renew');
      assert.ok(wanted, asked.at(-1));
      input.activeItems = [wanted];
    });
    assert.equal(asked.length, 2, asked.join('\n'));
    assert.match(asked[0] ?? '', /^1\/2 .*Renew by Day pack \(¥616\.00 per renewal\)/, 'the pick names each pack with the price of one renewal');
    assert.match(asked[1] ?? '', /^2\/2 .*Turn On Auto-Renew \(¥616\.00 per renewal\).*\[active: Cancel\]$/, 'the review opens on Cancel');
    // The store learns it on its next look (a Refresh here); the open page follows the store.
    await api.machines.refresh();
    const shown = await waitUntil('the renewal price on the page', () => (row()?.autoRenew.startsWith('Day pack') ? row() : undefined), { timeoutMs: PATIENCE_MS });
    assert.equal(shown.autoRenew, 'Day pack · ¥616.00 per renewal');
    assert.equal(shown.endingSoon, false, 'a rental that renews itself is not ending');

    // Turned off through the same command: its first answer (no review: turning off spends nothing).
    await answerFlow(api, () => vscode.commands.executeCommand('computeToolkit.machines.autoRenew', DEVICE), (input) => {
      assert.ok(isPick(input));
      const off = input.items.find((item) => item.label === 'Turn off auto-renew');
      assert.ok(off, 'offered while auto-renew is on');
      input.activeItems = [off];
    });
    await api.machines.refresh();
    await waitUntil('auto-renew off in the store', () => api.machines.machines().find((machine) => machine.deviceId === DEVICE)?.autoRenew === undefined);
  });
});
