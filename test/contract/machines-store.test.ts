// The machines kind against the strict sandbox (docs/machines.md): the catalogue as the view reads it
// (single machines and network groups, filtered), a rent through MachineService with the unit price and
// the total, the store following the machine from Waiting to Serving (one change each, Serving news
// once), a changed price refused with the new price, and a hostile catalogue entry that cannot be priced.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ComputeClient } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import { filterCatalogue, orderTotal, productsOf, rentable } from '../../src/core/machines/catalogueQuery';
import { MachineService, PriceChangedError } from '../../src/core/machines/machineService';
import { MACHINE_STATE, type RentedMachine } from '../../src/core/machines/machineState';
import { servingIn } from '../../src/core/machines/rentalEvents';
import type { StateChange } from '../../src/core/state/definition';
import { RemoteStore } from '../../src/core/state/remoteStore';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';

describe('machines: the store and the service against the sandbox', () => {
  let sandbox: Sandbox;
  let client: ComputeClient;
  let wakes = 0;
  let service: MachineService;

  before(async () => {
    sandbox = await startSandbox({ metal: { waitingMs: Number.POSITIVE_INFINITY } });
    client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }), retry: { baseDelayMs: 5, maxDelayMs: 50 } });
    service = new MachineService(client, () => void wakes++);
  });
  after(() => sandbox.close());

  async function poll(store: RemoteStore<RentedMachine, number, ComputeClient>): Promise<StateChange<RentedMachine>> {
    return store.apply(await MACHINE_STATE.list(client, new AbortController().signal), Date.now());
  }

  it('reads the whole catalogue (singles and groups of every network type) and filters it as the view does', async () => {
    const entries = await service.catalogue('Hour');
    assert.ok(entries.some((entry) => entry.kind === 'group' && entry.group.network_id === 501 && entry.group.inner.length === 3), 'the Ib group');
    assert.ok(entries.some((entry) => entry.kind === 'single' && entry.product.device_id === 9001));
    const rtx = filterCatalogue(entries, { billing: 'Hour', gpuModel: 'nvidia geforce rtx 4090', gpuCount: 4, zone: '西南一区' });
    assert.deepEqual(rtx.map((entry) => productsOf(entry)[0]?.device_id), [9002]);
    const group = entries.find((entry) => entry.kind === 'group');
    assert.ok(group);
    assert.equal(orderTotal(productsOf(group), 'Hour', 2), 3 * 30_000_000 * 2, 'unit price × packs × machines');
  });

  it('rents with the catalogue price; the store follows Waiting → Serving with one Serving news, at rest once Serving', async () => {
    const store = new RemoteStore(MACHINE_STATE, 'profile');
    assert.equal((await poll(store)).first, true);
    const product = (await service.singles('Hour')).find((candidate) => candidate.device_id === 9002);
    assert.ok(product);
    const before = wakes;
    const orderId = await service.rent({ products: [product], billing: 'Hour', packs: 2, softwareInit: false });
    assert.ok(orderId > 0);
    assert.equal(wakes - before, 1, 'the store is woken once after the order');
    const order = (await service.orders()).find((candidate) => candidate.order_id === orderId);
    assert.equal(order?.total_price, 2 * 5_400_000, 'the discounted unit price × 2 packs');

    const waiting = await poll(store);
    assert.deepEqual(waiting.added.map((machine) => [machine.deviceId, machine.status]), [[9002, 'Waiting']]);
    assert.equal(MACHINE_STATE.atRest(waiting.items), false, 'a Waiting machine moves on its own');
    assert.deepEqual(servingIn(waiting), []);

    sandbox.metal.setWaitingMs(0);
    const serving = await poll(store);
    assert.deepEqual(servingIn(serving).map((machine) => machine.deviceId), [9002]);
    const machine = serving.items.find((item) => item.deviceId === 9002);
    assert.ok(machine?.endMs !== undefined && machine.startMs !== undefined);
    assert.equal(machine.endMs - machine.startMs, 2 * 3_600_000, 'the rental window is 2 hour packs');
    assert.equal(MACHINE_STATE.atRest(serving.items), true);
    assert.deepEqual(servingIn(await poll(store)), [], 'Serving is news once');
    sandbox.metal.setWaitingMs(Number.POSITIVE_INFINITY);
  });

  it("matches a network group's order to all its machines (the order names one details id per GPU model), and each single to its own", async () => {
    const store = new RemoteStore(MACHINE_STATE, 'profile');
    const [group] = (await service.groups({ billing_type: 'Hour', device_count: 3, network_type: 'Ib' })).filter((item) => item.network_id === 501);
    assert.ok(group);
    const groupOrder = await service.rent({ products: group.inner, billing: 'Hour', packs: 1, softwareInit: false });
    const listed = (await service.orders()).find((order) => order.order_id === groupOrder);
    assert.equal(listed?.gpu_models.length, 1, 'one gpu_models item for the three machines of one model');
    for (const status of ['Waiting', 'Serving']) {
      if (status === 'Serving') sandbox.metal.setWaitingMs(0);
      const { items } = await poll(store);
      const members = items.filter((machine) => machine.group?.networkId === 501);
      assert.equal(members.length, 3, status);
      const expected: [number, string | undefined][] = members.map(() => [groupOrder, listed?.order_no]);
      assert.deepEqual(
        members.map((machine) => [machine.order?.orderId, machine.order?.orderNo]),
        expected,
        `${status}: ${JSON.stringify(members.map((machine) => machine.order))}`,
      );
      assert.equal(members.filter((machine) => machine.order?.inferred).length, 2, 'two matched through the group');
      const single = items.find((machine) => machine.deviceId === 9002);
      assert.equal(single?.order?.inferred, false, 'the single machine by its own order_id');
      assert.notEqual(single?.order?.orderId, groupOrder);
    }
    sandbox.metal.setWaitingMs(Number.POSITIVE_INFINITY);
  });

  it('a changed price is refused with the new price and nothing is ordered', async () => {
    sandbox.metal.addProduct({ device_id: 9060, hour_price: 10_000_000 });
    const product = (await service.singles('Hour')).find((candidate) => candidate.device_id === 9060);
    assert.ok(product);
    sandbox.metal.addProduct({ device_id: 9060, hour_price: 12_000_000 });
    const ordersBefore = (await service.orders()).length;
    const refused = await service.rent({ products: [product], billing: 'Hour', packs: 1, softwareInit: false }).catch((error: unknown) => error);
    assert.ok(refused instanceof PriceChangedError, String(refused));
    assert.equal(refused.newPrice, 12_000_000);
    assert.equal((await service.orders()).length, ordersBefore);
  });

  it('a hostile catalogue entry (huge text, control characters, a negative price) is read, shown safe and cannot be rented', async () => {
    sandbox.metal.addProduct({ device_id: 9070, gpu_model: `\u001b[2J${'H'.repeat(200_000)}\u202e`, zone_name: 'z\r\nInjected: yes', hour_price: -5, max_buy_count: -1 });
    const entries = await service.catalogue('Hour');
    const hostile = entries.find((entry) => entry.kind === 'single' && entry.product.device_id === 9070);
    assert.ok(hostile, 'the listing still reads');
    assert.equal(rentable(hostile, 'Hour'), false);
    assert.equal(orderTotal(productsOf(hostile), 'Hour', 1), undefined);
  });
});
