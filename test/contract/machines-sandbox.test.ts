// The sandbox's bare metal is as strict as the platform's docs (docs/machines.md): each documented
// refusal sent by hand (so the extension's client cannot hide a mistake), then the catalog operations
// through the real compute client: catalogue → buy → Waiting → Serving with a login → auto-renew, and
// the machine's SSH server takes the platform's password and runs a real command.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ComputeClient } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import { SshAuthError, SshConnection } from '../../src/core/ssh';
import { waitUntil } from '../helpers/eventually';
import { sendToken } from '../sandbox/handClient';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';

const BASE = '/api/output/v2';
const SINGLE = `${BASE}/device-output/page_list_product_single_v2`;
const GROUPS = `${BASE}/device-output/page_list_product_network_v2`;
const BUY = `${BASE}/device_order/buy_v2`;
const ORDERS = `${BASE}/device_order/get_order_list_v2`;
const DETAIL = `${BASE}/device_order/get_device_details_v2`;
const RENEW = `${BASE}/auto_renew_device_config/set_auto_renew_config`;
const UNRENEW = `${BASE}/auto_renew_device_config/delete_auto_renew_config`;
const A100 = 9001;
const RTX = 9002;
const A100_HOUR = 28_000_000;
const buy = (fields: Record<string, unknown> = {}): Record<string, unknown> => ({ billing_type: 'Hour', buy_count: 1, inner: [{ device_id: A100, unit_price: A100_HOUR }], software_init: false, discount_relation_id: null, ...fields });

interface Refusal {
  rule: string;
  path: string;
  body: Record<string, unknown>;
  /** What the message names first. */
  names: string;
  code?: string;
}

const REFUSALS: Refusal[] = [
  { rule: 'single catalogue requires page', path: SINGLE, body: { page_size: 10, conditional: { billing_type: 'Hour', gpu_models: [] } }, names: 'page' },
  { rule: 'single catalogue requires page_size', path: SINGLE, body: { page: 1, conditional: { billing_type: 'Hour', gpu_models: [] } }, names: 'page_size' },
  { rule: 'single catalogue requires conditional', path: SINGLE, body: { page: 1, page_size: 10 }, names: 'conditional' },
  { rule: 'single catalogue requires conditional.billing_type', path: SINGLE, body: { page: 1, page_size: 10, conditional: { gpu_models: [] } }, names: 'conditional.billing_type' },
  { rule: 'single catalogue: billing_type is Hour, Day, Week or Month', path: SINGLE, body: { page: 1, page_size: 10, conditional: { billing_type: 'Year', gpu_models: [] } }, names: 'conditional.billing_type' },
  { rule: 'single catalogue requires conditional.gpu_models (empty = all)', path: SINGLE, body: { page: 1, page_size: 10, conditional: { billing_type: 'Hour' } }, names: 'conditional.gpu_models' },
  { rule: 'single catalogue: zone_id is an integer', path: SINGLE, body: { page: 1, page_size: 10, conditional: { billing_type: 'Hour', gpu_models: [], zone_id: '1' } }, names: 'conditional.zone_id' },
  { rule: 'group catalogue requires billing_type', path: GROUPS, body: { device_count: 2, network_type: 'Ib' }, names: 'billing_type' },
  { rule: 'group catalogue requires device_count', path: GROUPS, body: { billing_type: 'Hour', network_type: 'Ib' }, names: 'device_count' },
  { rule: 'group catalogue requires network_type', path: GROUPS, body: { billing_type: 'Hour', device_count: 2 }, names: 'network_type' },
  { rule: 'group catalogue: network_type is Ib, Roce, NVLinkSwitch or EthernetFast', path: GROUPS, body: { billing_type: 'Hour', device_count: 2, network_type: 'Wifi' }, names: 'network_type' },
  { rule: 'buy requires billing_type', path: BUY, body: buy({ billing_type: undefined }), names: 'billing_type' },
  { rule: 'buy requires buy_count', path: BUY, body: buy({ buy_count: undefined }), names: 'buy_count' },
  { rule: 'buy: buy_count is a whole number of packs', path: BUY, body: buy({ buy_count: 1.5 }), names: 'buy_count' },
  { rule: 'buy requires inner', path: BUY, body: buy({ inner: undefined }), names: 'inner' },
  { rule: 'buy requires software_init', path: BUY, body: buy({ software_init: undefined }), names: 'software_init' },
  { rule: 'buy: software_init is a boolean', path: BUY, body: buy({ software_init: 'yes' }), names: 'software_init' },
  { rule: 'buy requires discount_relation_id (null for none)', path: BUY, body: buy({ discount_relation_id: undefined }), names: 'discount_relation_id' },
  { rule: 'buy: inner items require device_id', path: BUY, body: buy({ inner: [{ unit_price: A100_HOUR }] }), names: 'inner[0].device_id' },
  { rule: 'buy: inner items require unit_price', path: BUY, body: buy({ inner: [{ device_id: A100 }] }), names: 'inner[0].unit_price' },
  { rule: 'buy: a single machine is exactly one item whatever buy_count', path: BUY, body: buy({ inner: [{ device_id: A100, unit_price: A100_HOUR }, { device_id: RTX, unit_price: 5_400_000 }] }), names: 'inner' },
  { rule: 'buy: a group is one item per machine of one group', path: BUY, body: buy({ inner: [{ device_id: 9101, unit_price: 30_000_000 }, { device_id: A100, unit_price: A100_HOUR }] }), names: 'inner' },
  { rule: 'buy: buy_count must not exceed max_buy_count', path: BUY, body: buy({ buy_count: 721 }), names: 'buy_count' },
  { rule: 'buy: the unit_price must be the current price (the answer names the new one)', path: BUY, body: buy({ inner: [{ device_id: A100, unit_price: 1 }] }), names: 'inner[0].unit_price', code: 'C010' },
  { rule: 'buy: the discounted price is the unit price when there is one', path: BUY, body: buy({ inner: [{ device_id: RTX, unit_price: 6_000_000 }] }), names: 'inner[0].unit_price', code: 'C010' },
  { rule: 'orders require page', path: ORDERS, body: { page_size: 10, conditional: { condition: '' } }, names: 'page' },
  { rule: 'orders require conditional.condition', path: ORDERS, body: { page: 1, page_size: 10, conditional: {} }, names: 'conditional.condition' },
  { rule: 'detail requires device_id', path: DETAIL, body: {}, names: 'device_id' },
  { rule: 'auto-renew requires billing_type', path: RENEW, body: { device_id: A100, use_discount: false }, names: 'billing_type' },
  { rule: 'auto-renew requires use_discount', path: RENEW, body: { device_id: A100, billing_type: 'Hour' }, names: 'use_discount' },
  { rule: 'cancelling auto-renew requires device_id', path: UNRENEW, body: {}, names: 'device_id' },
];

describe('bare metal in the sandbox', () => {
  let sandbox: Sandbox;
  let client: ComputeClient;
  const send = (path: string, body: unknown) => sendToken(sandbox.url, sandbox.credentials.tokenMode.token, { path, body: JSON.stringify(body) });

  before(async () => {
    sandbox = await startSandbox({ metal: { waitingMs: 100 } });
    client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }), retry: { baseDelayMs: 5, maxDelayMs: 50 } });
  });
  after(() => sandbox.close());

  for (const refusal of REFUSALS) {
    it(`refuses: ${refusal.rule}`, async () => {
      const answer = await send(refusal.path, refusal.body);
      assert.equal(answer.code, refusal.code ?? 'C999', String(answer.message));
      assert.ok(String(answer.message).startsWith(refusal.names), `${String(answer.message)} should name ${refusal.names}`);
      assert.equal(answer.data, null);
    });
  }

  it('a changed price is refused with the new price in the answer', async () => {
    sandbox.metal.addProduct({ device_id: 9050, hour_price: 11_000_000 });
    const answer = await send(BUY, buy({ inner: [{ device_id: 9050, unit_price: 10_000_000 }] }));
    assert.equal(answer.code, 'C010');
    assert.match(String(answer.message), /now 11000000 points/);
  });

  it('catalogue, buy, Waiting then Serving with a login, auto-renew on and off, through the client', async () => {
    const singles = await client.call('metal.catalogueSingle', { page: 1, page_size: 10, conditional: { billing_type: 'Hour', gpu_models: [] } });
    const rtx = singles.results.find((item) => item.device_id === RTX);
    assert.ok(rtx && rtx.hour_price_discount === 5_400_000);
    const groups = await client.call('metal.catalogueGroups', { billing_type: 'Hour', device_count: 3, network_type: 'Ib' });
    assert.deepEqual(groups[0]?.inner.map((item) => item.device_id), [9101, 9102, 9103]);
    assert.equal(groups[0]?.inner[0]?.listing_mode, undefined, 'inner items have no listing mode');

    const { order_id } = await client.call('metal.buy', { billing_type: 'Hour', buy_count: 2, inner: [{ device_id: RTX, unit_price: 5_400_000 }], software_init: true, discount_relation_id: null });
    const waiting = await client.call('metal.detail', { device_id: RTX });
    if (waiting.order_detail_status === 'Waiting') assert.equal(waiting.ssh_port, null, 'no login while Waiting');
    const again = await send(BUY, buy({ inner: [{ device_id: RTX, unit_price: 5_400_000 }] }));
    assert.equal(again.code, 'C010', 'a rented machine cannot be bought twice');

    const serving = await waitUntil('Serving', async () => {
      const detail = await client.call('metal.detail', { device_id: RTX });
      return detail.order_detail_status === 'Serving' && detail;
    });
    assert.equal(serving.pub_ip, '127.0.0.1');
    assert.ok(typeof serving.ssh_port === 'number' && serving.device_username && serving.device_passwd);
    const [rented] = (await client.call('metal.rentedSingle', {})).filter((item) => item.device_id === RTX);
    assert.equal(rented?.order_id, order_id);
    assert.ok(rented?.use_start_time && rented.use_end_time);
    assert.equal(Date.parse(rented.use_end_time) - Date.parse(rented.use_start_time), 2 * 3_600_000, 'two hour packs');
    const orders = await client.call('metal.orders', { page: 1, page_size: 10, conditional: { condition: '' } });
    assert.equal(orders.results.find((order) => order.order_id === order_id)?.total_price, 2 * 5_400_000);

    await client.call('metal.setAutoRenew', { billing_type: 'Day', device_id: RTX, use_discount: false });
    assert.equal((await client.call('metal.rentedSingle', {})).find((item) => item.device_id === RTX)?.auto_renew_type, 'Day');
    await client.call('metal.cancelAutoRenew', { device_id: RTX });
    assert.equal((await client.call('metal.rentedSingle', {})).find((item) => item.device_id === RTX)?.auto_renew_type, null);

    // The machine's SSH server: the platform's password logs in and runs a real command in its home.
    const endpoint = { host: serving.pub_ip, port: serving.ssh_port as number, username: serving.device_username as string };
    const ssh = await SshConnection.open({ ...endpoint, password: serving.device_passwd as string });
    try {
      const result = await ssh.exec('echo "$HOME" && pwd && printf ok');
      assert.equal(result.code, 0);
      const [home, cwd] = result.stdout.split('\n');
      assert.equal(home, sandbox.metal.machine(RTX)?.home);
      assert.equal(cwd, home);
      assert.equal((await ssh.exec('exit 3')).code, 3);
    } finally {
      ssh.close();
    }
    await assert.rejects(SshConnection.open({ ...endpoint, password: 'wrong' }), SshAuthError);

    // The rental ends: Finished, the login gone, the SSH server closed.
    assert.equal(await sandbox.metal.endRental(RTX), true);
    assert.equal((await client.call('metal.rentedSingle', {})).some((item) => item.device_id === RTX), false);
    await assert.rejects(SshConnection.open({ ...endpoint, password: serving.device_passwd as string }));
  });

  it('a network group is one order of one item per machine, each with its own inner IP', async () => {
    const items = [9101, 9102, 9103].map((device_id) => ({ device_id, unit_price: 30_000_000 }));
    await client.call('metal.buy', { billing_type: 'Hour', buy_count: 1, inner: items, software_init: false, discount_relation_id: null });
    const group = await waitUntil('group Serving', async () => {
      const [first] = await client.call('metal.rentedGroups', {});
      return first?.inner.every((machine) => machine.order_detail_status === 'Serving') && first;
    });
    assert.equal(group.network_type, 'Ib');
    assert.equal(new Set(group.inner.map((machine) => machine.inner_ip)).size, 3);
  });
});
