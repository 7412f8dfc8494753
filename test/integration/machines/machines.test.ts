// The Machines view inside a real VS Code (docs/machines.md): the catalogue with its rows and a hostile
// entry shown safe and not rentable; Rent Machine… driven through its real pickers as a user would
// (answerFlow: the pack count typed, the review's Rent made active — it opens on Cancel); the rented
// machine followed by the store from Waiting to Serving without a Refresh (the store's planned polls run
// through the test hook), one Serving notification, a rental-end warning on a moved clock; and a price
// changed before the review is refused by the platform, shown with the new price and asked again; a machine
// that stays Waiting is told once after 45 minutes (a moved clock).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { MachineService } from '../../../src/core/machines/machineService';
import type { ExtensionApi } from '../../../src/vscode/api';
import { PATIENCE_MS, waitUntil } from '../../helpers/eventually';
import { computeWithSandbox } from '../compute/computeTestApi';
import { extensionApi } from '../extensionApi';
import { answerFlow, isPick, type StepInput } from '../nas/answerFlow';
import { clearFaults, injectFault, sandboxUrl } from '../sandboxInfo';

async function metalControl(fields: { waitingMs?: number; product?: Record<string, unknown> }): Promise<void> {
  const response = await fetch(`${sandboxUrl()}/__sandbox/metal`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fields) });
  assert.equal(response.status, 200, await response.text());
}

describe('machines: the Machines view, Rent Machine… and the store', () => {
  let api: ExtensionApi;

  before(async function () {
    this.timeout(180_000);
    await computeWithSandbox();
    api = await extensionApi();
    // Orders stay Waiting until the test says otherwise.
    await metalControl({ waitingMs: -1 });
    await vscode.commands.executeCommand('computeToolkit.machines.focus');
  });
  after(() => metalControl({ waitingMs: 300 }));

  it('lists the catalogue with price per pack; a hostile entry is one bounded, plain row that cannot be rented', async function () {
    this.timeout(180_000);
    await metalControl({ product: { device_id: 9090, gpu_model: `\u001b]0;pwned\u0007\u202e${'X'.repeat(100_000)}`, zone_name: 'zone\r\nInjected: yes', hour_price: -1, max_buy_count: -5 } });
    await api.machines.refresh();
    const snapshot = await api.machines.snapshot();
    const rtx = snapshot.catalogue.find((row) => row.label.includes('RTX 4090'));
    assert.ok(rtx, JSON.stringify(snapshot.catalogue.map((row) => row.label)));
    assert.match(rtx.description, /西南一区 · ¥5\.40 per Hour pack per machine · up to 720 packs/);
    assert.equal(rtx.contextValue, 'machines.catalogue.rentable');
    // The tooltip is Markdown with the server's text escaped (appendText: spaces as &nbsp;): read it plain.
    assert.match(rtx.tooltip.replace(/&nbsp;/g, ' ').replace(/\\(?=[^\w\s])/g, ''), /CUDA 12\.4 · driver 550\.54\.15/);
    assert.ok(snapshot.catalogue.some((row) => /^Group of 3 \(Ib\)/.test(row.label)), 'the network group is listed');
    const hostile = snapshot.catalogue.find((row) => row.label.includes('XXXX'));
    assert.ok(hostile, 'the hostile entry is listed');
    assert.equal(hostile.contextValue, 'machines.catalogue.unavailable');
    assert.ok(hostile.label.length <= 100, `bounded: ${hostile.label.length}`);
    assert.doesNotMatch(`${hostile.label}${hostile.description}`, /[\u0000-\u001f\u007f-\u009f\u202e]/);
    assert.match(hostile.description, /no price for a Hour pack · not available/);
    api.machines.setFilter({ billing: 'Hour', gpuModel: 'NVIDIA GeForce RTX 4090' });
    assert.deepEqual((await api.machines.snapshot()).catalogue.map((row) => row.label), ['4 × NVIDIA GeForce RTX 4090']);
    // Network groups are listed by machine count (the platform asks for one): the sandbox's group of 3 is
    // listed for groups of 2, not of 4.
    api.machines.setFilter({ billing: 'Hour', groupSize: 2 });
    const groupRows = (rows: readonly { label: string; contextValue?: string | undefined }[]) => rows.filter((row) => /^Group of /.test(row.label));
    assert.ok(groupRows((await api.machines.snapshot()).catalogue).length > 0, 'groups of 2 or more listed');
    api.machines.setFilter({ billing: 'Hour', groupSize: 4 });
    assert.deepEqual(groupRows((await api.machines.snapshot()).catalogue), [], 'no group of 4 or more in the sandbox');
    api.machines.setFilter({ billing: 'Hour' });
  });

  it('rents through the real pickers (review opens on Cancel), then follows the machine to Serving without a Refresh', async function () {
    this.timeout(300_000);
    const shownBefore = api.money.notificationCount();
    const seen: { title: string; step: number | undefined; active: string | undefined; labels: string[] }[] = [];
    const orderId = await answerFlow(
      api,
      () => api.machines.rent(9002),
      (input: StepInput) => {
        if (!seen.some((entry) => entry.step === input.step && entry.title === input.title && (entry.labels.length > 0) === isPick(input))) {
          seen.push({ title: input.title ?? '', step: input.step, active: isPick(input) ? input.activeItems[0]?.label : undefined, labels: isPick(input) ? input.items.map((item) => item.label) : [] });
        }
        if (!isPick(input)) {
          input.value = '2';
          return;
        }
        const rent = input.items.find((item) => item.label.includes('Rent for'));
        if (rent) input.activeItems = [rent];
      },
    );
    assert.ok(typeof orderId === 'number' && orderId > 0, `an order was placed: ${JSON.stringify(seen)}`);
    const review = seen.find((entry) => entry.labels.some((label) => label.includes('Rent for')));
    assert.ok(review, JSON.stringify(seen));
    assert.equal(review.active, 'Cancel', 'the review opens on Cancel');
    assert.ok(review.labels.some((label) => label.includes('Rent for ¥10.80')), `2 packs × ¥5.40: ${review.labels.join(' | ')}`);
    assert.ok(review.labels.some((label) => /Total: ¥10\.80 = 2 packs × ¥5\.40/.test(label)));
    const packs = seen.find((entry) => entry.labels.includes('Hour pack'));
    assert.ok(packs?.labels.includes('Month pack'), 'every pack type is offered with its price');

    const waiting = await waitUntil('the machine to be listed Waiting', async () => {
      await api.money.runPlannedPoll();
      return (await api.machines.snapshot()).machines.find((row) => row.id === 9002);
    }, { timeoutMs: PATIENCE_MS * 2, everyMs: 250 });
    assert.equal(waiting.contextValue, 'machine.Waiting');
    assert.match(waiting.description, /^Waiting · 4 × NVIDIA GeForce RTX 4090/);
    assert.ok((await api.machines.snapshot()).orders.some((row) => row.label.startsWith('Order BM')), 'the order is listed');

    await metalControl({ waitingMs: 0 });
    const serving = await waitUntil('the machine to show Serving without a Refresh', async () => {
      // The store's own polls (a Waiting machine moves), each run when planned instead of after the 10 s floor.
      await api.money.runPlannedPoll();
      const row = (await api.machines.snapshot()).machines.find((candidate) => candidate.id === 9002);
      return row?.contextValue === 'machine.Serving' ? row : undefined;
    }, { timeoutMs: PATIENCE_MS * 2, everyMs: 250 });
    assert.match(serving.description, /^Serving · 4 × NVIDIA GeForce RTX 4090 · 1 h 5\d min left|^Serving · 4 × NVIDIA GeForce RTX 4090 · 2 h left/);
    const notices = await waitUntil('the Serving notification', () => {
      const found = api.money.notificationsSince(shownBefore).filter((notice) => notice.kind === 'machineServing');
      return found.length > 0 ? found : undefined;
    });
    assert.equal(notices.length, 1);
    assert.match(notices[0]?.message ?? '', /Machine 9002 is Serving/);

    // 20 minutes before the end (the default warns 30 minutes ahead): one warning, with Auto-Renew… offered.
    const machine = api.machines.machines().find((candidate) => candidate.deviceId === 9002);
    assert.ok(machine?.endMs !== undefined);
    const end = machine.endMs;
    api.machines.warnings.useClock(() => end - 20 * 60_000);
    try {
      api.machines.warnings.check();
      api.machines.warnings.check();
    } finally {
      api.machines.warnings.useClock(Date.now);
    }
    const warnings = api.money.notificationsSince(shownBefore).filter((notice) => notice.kind === 'machineEnding');
    assert.equal(warnings.length, 1, 'warned once');
    assert.match(warnings[0]?.message ?? '', /The rental of Machine 9002 ends in 20 min/);
    assert.deepEqual(warnings[0]?.actions, ['Auto-Renew…']);
    await metalControl({ waitingMs: -1 });
  });

  it('a price changed before the order is refused: the review shows the new price and asks again (Cancel orders nothing)', async function () {
    this.timeout(300_000);
    await metalControl({ product: { device_id: 9095, gpu_model: 'NVIDIA L40S', hour_price: 10_000_000 } });
    await api.machines.refresh();
    let reviews = 0;
    const placeholders: string[] = [];
    const orderId = await answerFlow(
      api,
      () => api.machines.rent(9095),
      async (input: StepInput) => {
        if (!isPick(input)) return;
        const rent = input.items.find((item) => item.label.includes('Rent for'));
        if (!rent) return;
        if (placeholders.at(-1) !== input.placeholder) {
          reviews++;
          placeholders.push(input.placeholder ?? '');
          if (reviews === 1) await metalControl({ product: { device_id: 9095, hour_price: 13_000_000 } });
        }
        // The first review: Rent (at the old price, which the platform refuses); the second: leave Cancel.
        if (reviews === 1) input.activeItems = [rent];
      },
    );
    assert.equal(orderId, undefined, 'cancelled at the second review: nothing ordered');
    assert.equal(reviews, 2, placeholders.join(' | '));
    assert.match(placeholders[1] ?? '', /The price changed: machine 9095 now costs ¥13\.00 per pack; the total is ¥13\.00 \(was ¥10\.00\)/);
    assert.ok(!(await api.machines.snapshot()).machines.some((row) => row.id === 9095));
  });

  it('a machine still Waiting 45 minutes after it was first seen so is told once (the clock moved, never waited for)', async function () {
    this.timeout(PATIENCE_MS * 2);
    await metalControl({ waitingMs: -1, product: { device_id: 9098 } });
    const service = new MachineService(api.surface.createComputeClient({}));
    const [product] = (await service.singles('Hour')).filter((item) => item.device_id === 9098);
    assert.ok(product);
    await service.rent({ products: [product], billing: 'Hour', packs: 1, softwareInit: false });
    await api.machines.refresh();
    assert.equal(api.machines.machines().find((machine) => machine.deviceId === 9098)?.status, 'Waiting');
    const mark = api.money.notificationCount();
    const seen = Date.now();
    const told = (): string[] => api.money.notificationsSince(mark).filter((notice) => notice.kind === 'machineWaitingLong' && notice.message.startsWith('Machine 9098 ')).map((notice) => notice.message);
    try {
      api.machines.warnings.useClock(() => seen + 44 * 60_000);
      api.machines.warnings.check();
      assert.deepEqual(told(), [], 'not before 45 minutes');
      api.machines.warnings.useClock(() => seen + 46 * 60_000);
      api.machines.warnings.check();
      api.machines.warnings.check();
    } finally {
      api.machines.warnings.useClock(Date.now);
    }
    assert.equal(told().length, 1, 'told once');
    assert.match(told()[0] ?? '', /^Machine 9098 is still Waiting after 45 min: Proxy and Direct machines usually take about 30 minutes/);
  });

  it('orders that cannot be read show the shared error row (its button from the error-action table); the catalogue still shows', async function () {
    this.timeout(300_000);
    // More failures than the client's retries, so the section's read itself fails.
    await injectFault({ target: 'compute', kind: 'status', status: 503, pathPrefix: '/api/output/v2/device_order/get_order_list_v2', count: 50 });
    try {
      await api.machines.refresh();
      const failed = await api.machines.snapshot();
      assert.deepEqual(failed.orders.map((row) => row.description), ['could not load machine orders'], JSON.stringify(failed.orders));
      assert.doesNotMatch(failed.orders[0]?.label ?? '', /503|Could not load/, 'the row is the action, the story is in its tooltip');
      assert.ok(failed.catalogue.some((row) => row.contextValue === 'machines.catalogue.rentable'), 'the catalogue is read on its own');
    } finally {
      await clearFaults();
    }
    await api.machines.refresh();
    assert.ok((await api.machines.snapshot()).orders.some((row) => row.label.startsWith('Order ')), 'the orders after Refresh');
  });
});
