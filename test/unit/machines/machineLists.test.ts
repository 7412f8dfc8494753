// The machine orders and the single-machine catalogue (core/machines/machineService.ts): every page is
// read, each order or machine once (a listing that shifts between pages repeats a row, and the Machines
// view's rows are keyed by it), and a server claiming endless pages ends at the cap.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ComputeClient } from '../../../src/core/compute/api';
import { MachineService } from '../../../src/core/machines/machineService';

interface PageAsk {
  operation: string;
  page: number;
  page_size: number;
}

/** A client whose list operations answer pages of `rows(page)` under `count`, recording each ask. */
function pagedClient(count: number, rows: (page: number, size: number) => object[]) {
  const asked: PageAsk[] = [];
  const client = {
    call: async (operation: string, params: { page: number; page_size: number }) => {
      asked.push({ operation, page: params.page, page_size: params.page_size });
      return { count, results: rows(params.page, params.page_size) };
    },
  } as unknown as ComputeClient;
  return { client, asked };
}

const order = (order_id: number) => ({ order_id, order_no: `NO${order_id}`, status: 'Serving', total_price: 1, billing_type: 'Hour' });
const product = (device_id: number) => ({ device_id, gpu_model: 'A100', gpu_count: 8, max_buy_count: 1, hour_price: 1, day_price: 1, week_price: 1, month_price: 1 });
const ids = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, index) => from + index);

describe('machine orders and catalogue lists', () => {
  it('orders: every page, and an order repeated on the next page (a new one on top) listed once', async () => {
    // 250 orders; a new order on top while reading shifts order 100 onto page 2 as well.
    const { client, asked } = pagedClient(250, (page) => (page === 1 ? ids(1, 100) : page === 2 ? ids(100, 199) : ids(200, 250)).map(order));
    const orders = await new MachineService(client).orders();
    assert.deepEqual(asked.map((ask) => ask.page), [1, 2, 3]);
    assert.ok(asked.every((ask) => ask.operation === 'metal.orders'));
    assert.deepEqual(orders.map((entry) => entry.order_id), ids(1, 250));
  });

  it('singles: every page, each machine once', async () => {
    const { client, asked } = pagedClient(150, (page) => (page === 1 ? ids(1, 100) : ids(100, 150)).map(product));
    const singles = await new MachineService(client).singles('Hour');
    assert.equal(asked.length, 2);
    assert.deepEqual(singles.map((entry) => entry.device_id), ids(1, 150));
  });

  it('a server repeating one full page under a huge count: the reading ends at the cap', async () => {
    const { client, asked } = pagedClient(1e9, () => ids(1, 100).map(order));
    const orders = await new MachineService(client).orders();
    assert.equal(orders.length, 100);
    assert.equal(asked.length, 50, 'the cap (5,000 rows) in pages of 100');
  });
});
