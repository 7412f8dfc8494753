// The Resources view against the sandbox: devices → regions with ¥/hour prices and inventory.
import * as assert from 'node:assert/strict';
import type { ComputeApi } from '../../../src/vscode/views/index';
import { computeWithSandbox } from './computeTestApi';

describe('compute: Resources tree', () => {
  let compute: ComputeApi;

  before(async () => {
    compute = await computeWithSandbox();
    await compute.refresh('resources');
  });

  it('lists devices ("<GPU> × <count>", memory and CPU) with their regions', async () => {
    const snapshot = await compute.snapshot('resources', { depth: 2 });
    assert.equal(snapshot.message, undefined, `unexpected view message: ${snapshot.message}`);
    assert.ok(snapshot.rows.length > 0, 'the sandbox lists GPU devices');
    // In price order: each in-stock device's "from" price is at least the one above it.
    const fromPrices = snapshot.rows.map((row) => /^from ¥([\d,.]+)\/h/.exec(row.description ?? '')?.[1]).filter((price): price is string => price !== undefined).map((price) => Number(price.replace(/,/g, '')));
    assert.deepEqual(fromPrices, [...fromPrices].sort((a, b) => a - b), 'devices are not in price order');
    for (const device of snapshot.rows) {
      assert.equal(device.contextValue, 'device');
      assert.match(device.label, / × \d+$/, `device label ${device.label}`);
      // Price and stock first (the default side bar cuts the end of a row), then the specs.
      assert.match(device.description ?? '', /^(from ¥[\d,]+\.\d{2,4}\/h · \d+ in stock|sold out) · .*\d+ CPU · \d+(\.\d)? GB RAM/, `device description ${device.description}`);
      assert.ok((device.children ?? []).length > 0, `${device.label} has regions`);
      for (const region of device.children ?? []) {
        assert.equal(region.contextValue, 'region');
        assert.match(region.description ?? '', /^(¥[\d,]+\.\d{2,4}\/h|price n\/a) · (\d+ available|sold out)( · .*)?$/, `region description ${region.description}`);
      }
    }
  });

  it('shows each region at points/s × 3600 / 1e6 yuan per hour, the discount price when there is one', async () => {
    const snapshot = await compute.snapshot('resources', { depth: 2 });
    const choices = await compute.searchRegions();
    assert.ok(choices.length > 0);
    let checked = 0;
    for (const { device, region } of choices) {
      const deviceRow = snapshot.rows.find((row) => row.id === `device/${device.device_name}`);
      const regionRow = deviceRow?.children?.find((row) => row.id === `device/${device.device_name}/region/${region.region}`);
      assert.ok(regionRow, `no row for ${device.device_name} in ${region.region}`);
      assert.equal(regionRow.label, region.region_name);
      const points = region.discount_price ?? region.price;
      if (points === null) continue;
      // Exact: whole points per second are whole ten-thousandths of a yuan per hour.
      const expected = `¥${((points * 36) / 10_000).toFixed(4).replace(/0{1,2}$/, '')}/h`;
      assert.ok(regionRow.description?.startsWith(`${expected} · ${region.inventory > 0 ? `${region.inventory} available` : 'sold out'}`), `${region.region_name}: expected ${expected} in "${regionRow.description}"`);
      assert.equal(regionRow.icon, region.inventory > 0 ? 'location' : 'circle-slash');
      checked += 1;
    }
    assert.ok(checked > 0, 'at least one priced region was compared');
  });

  it('the search command offers exactly the regions the tree shows', async () => {
    const snapshot = await compute.snapshot('resources', { depth: 2 });
    const rowsInTree = snapshot.rows.reduce((sum, device) => sum + (device.children?.length ?? 0), 0);
    const choices = await compute.searchRegions();
    assert.equal(choices.length, rowsInTree);
  });
});
