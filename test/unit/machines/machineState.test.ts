// Rented machines as remote state (core/machines/machineState.ts): one row per live machine from both
// lists (ended orders left out), at rest unless a machine is Waiting, time left from the rental window.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ComputeClient } from '../../../src/core/compute/api';
import { MACHINE_STATE, readRentedMachines, timeLeftMs, type RentedMachine } from '../../../src/core/machines/machineState';

const single = (device_id: number, order_detail_status: string, end: string | null) => ({ device_id, order_id: 1, order_details_id: device_id, order_detail_status, billing_type: 'Hour', gpu_model: 'A100', gpu_count: 8, intranet_ip: '10.0.0.1', extranet_ip: '1.2.3.4', use_start_time: end ? '2026-01-01T00:00:00+08:00' : null, use_end_time: end, auto_renew_type: null });

describe('rented machines state', () => {
  it('reads both lists into one row per live machine, leaving ended orders out', async () => {
    const client = {
      call: async (operation: string) =>
        operation === 'metal.rentedSingle'
          ? [single(1, 'Finished', '2026-01-01T01:00:00+08:00'), single(1, 'Serving', '2026-01-01T03:00:00+08:00')]
          : [{ network_id: 7, network_type: 'Ib', network_name: 'ib-7', inner: [{ ...single(2, 'Waiting', null), inner_ip: '', pub_ip: '' }] }],
    } as unknown as ComputeClient;
    const machines = await readRentedMachines(client);
    assert.deepEqual(machines.map((machine) => [machine.deviceId, machine.status, machine.group?.networkId]), [[1, 'Serving', undefined], [2, 'Waiting', 7]]);
    assert.equal(MACHINE_STATE.atRest(machines), false, 'a Waiting machine moves on its own');
    assert.equal(MACHINE_STATE.atRest(machines.slice(0, 1)), true);
    const serving = machines[0] as RentedMachine;
    assert.equal(timeLeftMs(serving, Date.parse('2026-01-01T02:00:00+08:00')), 3_600_000);
    assert.equal(timeLeftMs(serving, Date.parse('2026-01-02T00:00:00+08:00')), 0);
    assert.equal(timeLeftMs(machines[1] as RentedMachine, 0), undefined);
    assert.equal(MACHINE_STATE.equal(serving, { ...serving, autoRenew: 'Day' }), false, 'auto-renew is news');
    assert.equal(MACHINE_STATE.equal(serving, { ...serving }), true);
    assert.equal(MACHINE_STATE.equal(serving, { ...serving, renewPrice: 1 }), false, 'a new renewal price is news');
    assert.equal(MACHINE_STATE.equal(serving, { ...serving, price: 1 }), false, 'a new price is news');
  });

  it('carries the price of one renewal of the auto-renew pack (the discount price first); none when off or not a price', async () => {
    const prices = { hour_price: 5_400_000, day_price: 129_600_000, day_price_discount: 100_000_000, week_price: -1, month_price: 1.5 };
    const client = {
      call: async (operation: string) =>
        operation === 'metal.rentedSingle'
          ? [
              { ...single(1, 'Serving', '2026-01-01T03:00:00+08:00'), ...prices, auto_renew_type: 'Day' },
              { ...single(2, 'Serving', '2026-01-01T03:00:00+08:00'), ...prices, auto_renew_type: 'Hour', hour_price_discount: null },
              { ...single(3, 'Serving', '2026-01-01T03:00:00+08:00'), ...prices, auto_renew_type: 'Week' },
              { ...single(4, 'Serving', '2026-01-01T03:00:00+08:00'), ...prices, auto_renew_type: 'Month' },
              { ...single(5, 'Serving', '2026-01-01T03:00:00+08:00'), ...prices },
              { ...single(6, 'Serving', '2026-01-01T03:00:00+08:00'), ...prices, auto_renew_type: 'Fortnight' },
            ]
          : [],
    } as unknown as ComputeClient;
    const machines = await readRentedMachines(client);
    assert.deepEqual(machines.map((machine) => machine.renewPrice), [100_000_000, 5_400_000, undefined, undefined, undefined, undefined]);
    // The price of the rented pack itself (`billing_type` Hour here): the discount price first, none when not a price.
    assert.deepEqual(machines.map((machine) => machine.price), [5_400_000, 5_400_000, 5_400_000, 5_400_000, 5_400_000, 5_400_000]);
    const weekly = await readRentedMachines({ call: async (operation: string) => (operation === 'metal.rentedSingle' ? [{ ...single(7, 'Serving', '2026-01-01T03:00:00+08:00'), ...prices, billing_type: 'Week' }, { ...single(8, 'Serving', '2026-01-01T03:00:00+08:00'), ...prices, billing_type: 'Day' }] : []) } as unknown as ComputeClient);
    assert.deepEqual(weekly.map((machine) => machine.price), [undefined, 100_000_000]);
  });
});
