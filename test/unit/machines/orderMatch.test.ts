// Rented machines matched to their orders (core/machines/orderMatch.ts, docs/machines.md "Orders and their
// machines"): a single machine by its order_id; a group's machines by a details id one order claims, or
// through their network group when the order's pack type, models, room and rental window leave exactly
// one order. Hostile and partial data: machines missing from the list, machines of another order in the
// same group, repeated orders, details ids and machines, garbage fields — nothing is linked wrongly, nothing throws.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ComputeClient } from '../../../src/core/compute/api';
import { MACHINE_STATE, type RentedMachine } from '../../../src/core/machines/machineState';
import { matchOrders, ordersExplain, withOrders } from '../../../src/core/machines/orderMatch';

const W1 = { startMs: 1_000, endMs: 3_601_000 };
const W2 = { startMs: 2_000, endMs: 3_602_000 };

function machine(deviceId: number, fields: Partial<RentedMachine> = {}): RentedMachine {
  return { deviceId, status: 'Serving', billingType: 'Hour', gpuModel: 'A100', gpuCount: 8, ...W1, autoRenew: undefined, price: undefined, renewPrice: undefined, innerIp: '', publicIp: '', group: { networkId: 501, networkType: 'Ib', name: 'ib-501' }, orderDetailsId: deviceId + 70_000, ...fields };
}

function order(orderId: number, details: number[], fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { order_id: orderId, order_no: `NO-${orderId}`, status: 'Serving', buy_count: 1, billing_type: 'Hour', gpu_models: details.map((id) => ({ gpu_model: 'A100', gpu_count: 8, order_details_id: id, order_detail_status: 'Serving', total_price: 1, is_paid: true })), ...fields };
}

/** One gpu_models item per GPU model, naming the first machine's details id (the sandbox's reading). */
function perModel(orderId: number, firstDetails: number, machines: number, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return order(orderId, [], { gpu_models: [{ gpu_model: 'A100', gpu_count: 8 * machines, order_details_id: firstDetails, order_detail_status: 'Serving', total_price: 1, is_paid: true }], ...fields });
}

const linked = (links: ReturnType<typeof matchOrders>): Record<number, string> => Object.fromEntries([...links].map(([device, link]) => [device, `${link.orderId}${link.inferred ? '~' : ''}`]));

describe('rented machines matched to their orders', () => {
  it('links a single machine by its order_id, and each group machine whose details id an order lists', () => {
    const single = machine(9001, { group: undefined, orderId: 60001, orderDetailsId: 1 });
    const group = [machine(9101), machine(9102), machine(9103)];
    const links = matchOrders([order(60001, [1]), order(60002, [79101, 79102, 79103])], [single, ...group]);
    assert.deepEqual(linked(links), { 9001: '60001', 9101: '60002', 9102: '60002', 9103: '60002' });
    assert.equal(links.get(9001)?.orderNo, 'NO-60001');
  });

  it('links a whole group from one machine named per GPU model (the others inferred, within the order’s GPUs)', () => {
    const group = [machine(9101), machine(9102), machine(9103)];
    assert.deepEqual(linked(matchOrders([perModel(60002, 79101, 3)], group)), { 9101: '60002', 9102: '60002~', 9103: '60002~' });
    // device_count, where the order carries it, is the room instead of the GPUs.
    assert.deepEqual(linked(matchOrders([perModel(60002, 79101, 1, { device_count: 3 })], group)), { 9101: '60002', 9102: '60002~', 9103: '60002~' });
  });

  it('missing machines: an order of three with two listed links the two; an order none of whose machines is listed links none', () => {
    const two = [machine(9101), machine(9103)];
    assert.deepEqual(linked(matchOrders([perModel(60002, 79101, 3)], two)), { 9101: '60002', 9103: '60002~' });
    assert.deepEqual(linked(matchOrders([perModel(60002, 79999, 3)], two)), {}, 'no machine of the group is named: nothing is guessed');
    assert.deepEqual(linked(matchOrders([], [machine(9001, { group: undefined, orderId: 60001 })])), { 9001: '60001' }, 'the order id alone, order not read');
    assert.equal(matchOrders([], [machine(9001, { group: undefined, orderId: 60001 })]).get(9001)?.orderNo, '');
  });

  it('machines of another order in the same group are not taken: the room, the pack type, the model and the window tell them apart', () => {
    // Order A: 9101 and 9102 (window W1); 9103 belongs to an order not named anywhere (window W2).
    const group = [machine(9103, W2), machine(9102), machine(9101)];
    assert.deepEqual(linked(matchOrders([perModel(60002, 79101, 2)], group)), { 9101: '60002', 9102: '60002~' }, 'the same window first, then no room left');
    assert.deepEqual(linked(matchOrders([perModel(60002, 79101, 3)], [machine(9101), machine(9104, { billingType: 'Day' }), machine(9105, { gpuModel: 'H100' })])), { 9101: '60002' }, 'another pack type or model is another order');
    // Two orders named in the group with room for more: the rental window decides, and a tie links nothing.
    const two = [machine(9101), machine(9102), machine(9103, W2), machine(9104, W2), machine(9105, { startMs: 5, endMs: 6 })];
    assert.deepEqual(linked(matchOrders([perModel(60002, 79101, 2), perModel(60003, 79103, 3)], two)), { 9101: '60002', 9102: '60002~', 9103: '60003', 9104: '60003~', 9105: '60003~' }, 'only 60003 has room left for 9105');
    const tie = [machine(9101), machine(9103, W2), machine(9105, { startMs: 5, endMs: 6 })];
    assert.deepEqual(linked(matchOrders([perModel(60002, 79101, 3), perModel(60003, 79103, 3)], tie)), { 9101: '60002', 9103: '60003' }, 'two orders fit and neither window is 9105’s');
    // A machine of another group never joins this group's order.
    assert.deepEqual(linked(matchOrders([perModel(60002, 79101, 3)], [machine(9101), machine(9201, { group: { networkId: 502, networkType: 'Ib', name: 'ib-502' } })])), { 9101: '60002' });
  });

  it('repeated orders, details ids and machines: the first order kept, a details id two orders claim links nothing, a machine counted once', () => {
    assert.deepEqual(linked(matchOrders([perModel(60002, 79101, 2), perModel(60002, 79102, 9)], [machine(9101), machine(9102), machine(9103)])), { 9101: '60002', 9102: '60002~' }, 'the repeated order neither adds room nor a details id');
    assert.deepEqual(linked(matchOrders([order(60002, [79101]), order(60003, [79101])], [machine(9101)])), {}, 'claimed twice: unknown');
    assert.deepEqual(linked(matchOrders([order(60002, [79101, 79101])], [machine(9101)])), { 9101: '60002' }, 'claimed twice by the same order: still that order');
    const twice = [machine(9101), machine(9101), machine(9102), machine(9103)];
    assert.deepEqual(linked(matchOrders([perModel(60002, 79101, 2)], twice)), { 9101: '60002', 9102: '60002~' }, 'the machine listed twice takes one place');
    // A single machine's own order_id wins over a details id another order claims.
    assert.deepEqual(linked(matchOrders([order(60001, [5]), order(60009, [79001])], [machine(9001, { group: undefined, orderId: 60001, orderDetailsId: 79001 })])), { 9001: '60001' });
  });

  it('garbage in the order list is skipped without throwing', () => {
    const garbage: unknown[] = [null, 7, 'x', [], { order_id: '60002' }, { order_id: -1 }, { order_id: 60004, gpu_models: 'A100' }, { order_id: 60005, gpu_models: [null, 3, { order_details_id: 1.5 }, { gpu_model: 9, order_details_id: 79101 }] }, perModel(60006, 79102, Number.NaN)];
    const links = matchOrders(garbage, [machine(9101), machine(9102), machine(9103)]);
    assert.deepEqual(linked(links), { 9101: '60005', 9102: '60006' }, 'named ones link; no order with a usable room takes the third');
    assert.deepEqual(linked(matchOrders('not a list' as never, [machine(9101)])), {});
  });

  it('stays linear on a hostile size (10,000 machines in one group, 10,000 orders)', () => {
    const machines = Array.from({ length: 10_000 }, (_, index) => machine(100_000 + index));
    const orders = Array.from({ length: 10_000 }, (_, index) => perModel(1 + index, 170_000 + index, 1));
    const links = matchOrders(orders, machines);
    assert.equal(links.size, 10_000, 'each machine named by its own order');
    const inferred = matchOrders([perModel(1, 170_000, 10_000)], machines);
    assert.equal([...inferred.values()].filter((link) => link.inferred).length, 9_999);
  });

  it('says when the orders read explain the machines (every single, one machine per group)', () => {
    const machines = [machine(9001, { group: undefined, orderId: 60001 }), machine(9101), machine(9102)];
    assert.equal(ordersExplain([order(60001, [])], machines), false, 'the group has no order yet');
    assert.equal(ordersExplain([order(60001, []), perModel(60002, 79102, 2)], machines), true);
    assert.equal(ordersExplain([perModel(60002, 79102, 2)], machines), false, 'the single machine’s order is not read yet');
    assert.equal(withOrders(machines, [order(60001, [])])[0]?.order?.orderNo, 'NO-60001');
  });

  it('the store lists each machine with its order, reads further pages only until the machines are explained, and lists machines when the orders fail', async () => {
    const calls: [string, unknown][] = [];
    const pages: Record<number, unknown[]> = { 1: Array.from({ length: 100 }, (_, index) => order(50_000 + index, [])), 2: [perModel(60002, 70_001, 2)], 3: [order(60009, [])] };
    const rented = (failOrders: boolean) =>
      ({
        call: async (operation: string, params: { page?: number }) => {
          calls.push([operation, params.page]);
          if (operation === 'metal.rentedSingle') return [];
          if (operation === 'metal.rentedGroups') return [{ network_id: 501, network_type: 'Ib', network_name: 'ib-501', inner: [1, 2].map((n) => ({ device_id: n, order_details_id: 70_000 + n, order_detail_status: 'Serving', billing_type: 'Hour', gpu_model: 'A100', gpu_count: 8, use_start_time: null, use_end_time: null, inner_ip: '', pub_ip: '' })) }];
          if (failOrders) throw new Error('orders down');
          return { count: 201, results: pages[params.page ?? 0] ?? [] };
        },
      }) as unknown as ComputeClient;
    const { items } = await MACHINE_STATE.list(rented(false), new AbortController().signal);
    assert.deepEqual(items.map((item) => [item.deviceId, item.order?.orderId, item.order?.inferred]), [[1, 60002, false], [2, 60002, true]]);
    assert.deepEqual(calls.filter(([operation]) => operation === 'metal.orders').map(([, page]) => page), [1, 2], 'page 3 not read: page 2 explains the group');
    const fallback = await MACHINE_STATE.list(rented(true), new AbortController().signal);
    assert.deepEqual(fallback.items.map((item) => [item.deviceId, item.order]), [[1, undefined], [2, undefined]]);
    const [first] = items as [RentedMachine];
    assert.equal(MACHINE_STATE.equal(first, { ...first, order: undefined }), false, 'a machine newly matched to its order is news');
  });
});
