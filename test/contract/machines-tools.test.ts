// The bare-metal agent tools (shared by VS Code's language-model tools and the MCP server) against the
// sandbox: search with filters and the price per pack, rent after a confirmation naming the production
// profile and the total (unit × packs, × machines for a group), a price changed since the confirmation
// refused, the rented list with the time left, and connection details that never carry the password.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createComputeClient } from '../../src/core/compute/client';
import { findTool, type ToolContext } from '../../src/core/tools/index';
import { confirmTool, runTool } from '../../src/core/tools/run';
import { waitUntil } from '../helpers/eventually';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';

describe('bare-metal tools against the sandbox', () => {
  let sandbox: Sandbox;
  let context: ToolContext;

  before(async () => {
    sandbox = await startSandbox({ metal: { waitingMs: 0 } });
    const client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }) });
    context = { client, profile: { label: 'Main', environment: 'prod' }, resultLimitChars: 6000 };
  });
  after(() => sandbox.close());

  const tool = (name: string) => {
    const found = findTool(name);
    assert.ok(found, name);
    return found;
  };

  it('search: filters by GPU and zone, prices per pack, groups with group_size; reads only', async () => {
    assert.equal(tool('compute_search_machines').effect, 'read');
    assert.equal(tool('compute_rent_machine').effect, 'write');
    const rtx = await runTool(tool('compute_search_machines'), { gpu_model: '4090', zone: '西南' }, context);
    assert.equal(rtx.isError, false, rtx.text);
    assert.match(rtx.text, /device_id 9002 · 4 × NVIDIA GeForce RTX 4090/);
    assert.match(rtx.text, /¥5\.40 per Hour pack/, 'the discounted price is the unit price');
    assert.doesNotMatch(rtx.text, /9001|9003/);
    const groups = await runTool(tool('compute_search_machines'), { group_size: 3, billing_type: 'Day' }, context);
    assert.match(groups.text, /network group 501 \(Ib, 3 machines: device_ids 9101, 9102, 9103\)/);
    assert.match(groups.text, /¥1,980\.00 per Day pack for the group/, '3 machines × ¥660 per day');
    const bad = await runTool(tool('compute_search_machines'), { billing_type: 'Year' }, context);
    assert.equal(bad.isError, true);
  });

  it('rent: the confirmation names the production profile and the total; the order is placed with the unit price', async () => {
    const input = { device_id: 9101, group_size: 3, packs: 2 };
    const confirmation = await confirmTool(tool('compute_rent_machine'), input, context);
    assert.ok(confirmation);
    assert.match(confirmation.title, /^PRODUCTION: Rent network group 501 \(3 machines\) for 2 Hour pack\(s\)\?/);
    assert.match(confirmation.message, /Total: ¥180\.00 = 3 machines × 2 pack\(s\) × ¥30\.00/);
    assert.match(confirmation.message, /about 30 minutes/);
    const rented = await runTool(tool('compute_rent_machine'), input, context);
    assert.equal(rented.isError, false, rented.text);
    assert.match(rented.text, /Placed order \d+: 3 machine\(s\), 2 × Hour pack, total ¥180\.00/);
  });

  it('rent: a price changed since the confirmation is refused and nothing is ordered', async () => {
    sandbox.metal.addProduct({ device_id: 9080, hour_price: 10_000_000 });
    const input = { device_id: 9080, packs: 3 };
    const confirmation = await confirmTool(tool('compute_rent_machine'), input, context);
    assert.match(confirmation?.message ?? '', /Total: ¥30\.00 = 3 pack\(s\) × ¥10\.00/);
    sandbox.metal.addProduct({ device_id: 9080, hour_price: 12_000_000 });
    const refused = await runTool(tool('compute_rent_machine'), input, context);
    assert.equal(refused.isError, true);
    assert.match(refused.text, /the total is now ¥36\.00 \(confirmed ¥30\.00\)\. Nothing was ordered/);
    assert.equal(sandbox.metal.rental(9080), undefined);
  });

  it('list and connection: time left on each rental; ssh command without the password', async () => {
    const rented = await runTool(tool('compute_rent_machine'), { device_id: 9002 }, context);
    assert.equal(rented.isError, false, rented.text);
    const listed = await waitUntil('machine 9002 Serving', async () => {
      const list = await runTool(tool('compute_list_machines'), {}, context);
      return /device_id 9002 · Serving .* min left/.test(list.text) ? list.text : undefined;
    });
    assert.match(listed, /device_id 9101 · Serving .* group 501/);
    const connection = await runTool(tool('compute_machine_connection'), { device_id: 9002 }, context);
    assert.equal(connection.isError, false, connection.text);
    assert.match(connection.text, /ssh -p \d+ root@127\.0\.0\.1/);
    const password = sandbox.metal.machine(9002)?.login.password;
    assert.ok(password && password.length > 8);
    assert.ok(!connection.text.includes(password), 'the password never appears');
    assert.match(connection.text, /password is not shown/);
  });
});
