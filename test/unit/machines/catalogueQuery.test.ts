// The bare-metal catalogue as the Machines view, Rent Machine… and the tools read it
// (core/machines/catalogueQuery.ts): prices only when they are prices, the total (unit × packs, ×
// machines for a group), the packs an order may take, filters and facets, and hostile text made safe.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { facetsOf, filterCatalogue, matches, maxPacksOf, megabytes, orderTotal, packOfAll, packPrice, rentable, sharedUnitPrice, withPrice, zoneOf, type CatalogueEntry } from '../../../src/core/machines/catalogueQuery';
import type { MetalProduct } from '../../../src/core/machines/operations';
import { assertLinearTime } from '../../helpers/linearTime';

function product(device_id: number, fields: Partial<MetalProduct> = {}): MetalProduct {
  return {
    device_id,
    zone_name: '华东一区',
    idc_name: 'IDC1',
    idc_id: 11,
    network_type: null,
    network_id: null,
    cores: 64,
    cpu_model: 'Xeon',
    gpu_model: 'NVIDIA A100',
    gpu_count: 8,
    gpu_memory: 81920,
    memory_size: 524288,
    gpu_driver_version: '550.54.15',
    cuda_version: '12.4',
    operating_system: 'Ubuntu 22.04',
    system_disk_size: 1_907_729,
    system_disk_type: 'NVMe',
    start_time: '2026-01-01T00:00:00+08:00',
    end_time: '2027-01-01T00:00:00+08:00',
    listing_mode: 'Single',
    gateway_type: '',
    cooperation_mode: 'IdleFullRent',
    migration_mode: null,
    allow_switch_to_elastic_full_rent: false,
    max_buy_count: 720,
    hour_price: 28_000_000,
    day_price: 600_000_000,
    week_price: 4_000_000_000,
    month_price: 16_000_000_000,
    hour_price_discount: null,
    day_price_discount: null,
    week_price_discount: null,
    month_price_discount: null,
    ...fields,
  };
}

const single = (p: MetalProduct): CatalogueEntry => ({ kind: 'single', product: p });
const group = (inner: MetalProduct[]): CatalogueEntry => ({ kind: 'group', group: { network_type: 'Ib', zone_name: '华东一区', idc_name: 'IDC1', network_id: 501, inner } });

describe('machine catalogue: prices and totals', () => {
  it('the unit price is the discounted one when there is one; total = unit × packs (× machines for a group)', () => {
    const a = product(1, { hour_price: 6_000_000, hour_price_discount: 5_400_000 });
    assert.equal(packPrice(a, 'Hour'), 5_400_000);
    assert.equal(packPrice(a, 'Day'), 600_000_000);
    assert.equal(orderTotal([a], 'Hour', 3), 16_200_000);
    const members = [product(2, { hour_price: 30_000_000 }), product(3, { hour_price: 30_000_000 }), product(4, { hour_price: 31_000_000 })];
    assert.equal(orderTotal(members, 'Hour', 2), (30_000_000 + 30_000_000 + 31_000_000) * 2);
  });

  it('a group priced apart has no one unit price: its total reads packs × one pack of each machine', () => {
    const same = [product(2, { hour_price: 30_000_000 }), product(3, { hour_price: 30_000_000 })];
    const apart = [...same, product(4, { hour_price: 31_000_000 })];
    assert.equal(sharedUnitPrice(same, 'Hour'), 30_000_000);
    assert.equal(sharedUnitPrice(apart, 'Hour'), undefined);
    assert.equal(sharedUnitPrice([...same, product(5, { hour_price: -1 })], 'Hour'), undefined, 'one without a price: no shared price');
    assert.equal(packOfAll(apart, 'Hour'), 91_000_000);
    assert.equal(orderTotal(apart, 'Hour', 2), 2 * (packOfAll(apart, 'Hour') ?? 0));
  });

  it('a price that is not a price (negative, NaN, fractional, huge, missing) gives no total and the entry cannot be rented', () => {
    for (const bad of [-1, Number.NaN, 1.5, Number.POSITIVE_INFINITY, 2 ** 60, undefined as unknown as number, '5' as unknown as number]) {
      const p = product(1, { hour_price: bad });
      assert.equal(packPrice(p, 'Hour'), undefined, String(bad));
      assert.equal(orderTotal([p], 'Hour', 1), undefined, String(bad));
      assert.equal(rentable(single(p), 'Hour'), false, String(bad));
      assert.equal(rentable(single(p), 'Day'), true, 'the other pack types still price');
    }
    assert.equal(orderTotal([product(1, { hour_price: 2 ** 52 })], 'Hour', 4), undefined, 'a sum past 2^53 is not exact');
  });

  it('packs are a whole number from 1 up; max_buy_count bounds them (the least of a group), a bad one makes the entry unavailable', () => {
    assert.equal(orderTotal([product(1)], 'Hour', 0), undefined);
    assert.equal(orderTotal([product(1)], 'Hour', 1.5), undefined);
    assert.equal(orderTotal([], 'Hour', 1), undefined);
    assert.equal(maxPacksOf([product(1, { max_buy_count: 10 }), product(2, { max_buy_count: 4 })]), 4);
    assert.equal(maxPacksOf([product(1, { max_buy_count: -3 })]), 0);
    assert.equal(maxPacksOf([product(1, { max_buy_count: Number.NaN })]), 0);
    assert.equal(rentable(single(product(1, { max_buy_count: 0 })), 'Hour'), false);
    assert.equal(rentable(group([]), 'Hour'), false, 'an empty group');
  });

  it('a changed price replaces the one that applies (the discount when there is one)', () => {
    assert.equal(packPrice(withPrice(product(1), 'Hour', 29_000_000), 'Hour'), 29_000_000);
    const discounted = withPrice(product(1, { hour_price_discount: 20_000_000 }), 'Hour', 21_000_000);
    assert.equal(discounted.hour_price_discount, 21_000_000);
    assert.equal(discounted.hour_price, 28_000_000);
  });
});

describe('machine catalogue: filters and facets', () => {
  const entries = [
    single(product(1, { gpu_model: 'NVIDIA A100', gpu_count: 8, hour_price: 28_000_000 })),
    single(product(2, { gpu_model: 'RTX 4090', gpu_count: 4, zone_name: '西南一区', hour_price: 6_000_000 })),
    single(product(3, { gpu_model: 'RTX 4090', gpu_count: 4, hour_price: -5 })),
    group([product(4, { zone_name: undefined }), product(5, { zone_name: undefined })]),
  ];

  it('filters by GPU model (case-insensitive), count and zone; cheapest first, unpriced last', () => {
    assert.deepEqual(filterCatalogue(entries, { billing: 'Hour', gpuModel: 'rtx 4090' }).map((entry) => (entry.kind === 'single' ? entry.product.device_id : 0)), [2, 3]);
    assert.equal(filterCatalogue(entries, { billing: 'Hour', gpuCount: 8 }).length, 2);
    assert.equal(filterCatalogue(entries, { billing: 'Hour', zone: '西南一区' }).length, 1);
    assert.equal(zoneOf(entries[3] as CatalogueEntry), '华东一区', "a group's zone is the group's");
    const all = filterCatalogue(entries, { billing: 'Hour' });
    assert.equal(all.at(-1), entries[2], 'the unpriced entry sorts last');
    assert.equal(all[0], entries[1], 'the cheapest first');
  });

  it('facets list each GPU model, count and zone once, from what the catalogue lists', () => {
    assert.deepEqual(facetsOf(entries), { gpuModels: ['NVIDIA A100', 'RTX 4090'], gpuCounts: [4, 8], zones: ['华东一区', '西南一区'] });
  });

  it('hostile text: control characters, escapes and bidi overrides go, long text is cut, and filters compare what is shown', () => {
    const hostile = single(product(9, { gpu_model: `A100\u001b]8;;https://evil\u0007\u202e\r\nrm -rf${'x'.repeat(100_000)}`, zone_name: '\u0000zone\u009b31m', gpu_count: -4 }));
    const facets = facetsOf([hostile]);
    assert.equal(facets.gpuCounts.length, 0, 'a negative GPU count is not a count');
    const [model] = facets.gpuModels;
    assert.ok(model && model.length <= 80, model);
    assert.doesNotMatch(model ?? '', /[\u0000-\u001f\u007f-\u009f\u202e]/);
    assert.equal(matches(hostile, { billing: 'Hour', gpuModel: model as string }), true);
    assert.doesNotMatch(facets.zones[0] ?? '', /[\u0000-\u001f\u009b]/);
  });

  it('sizes in MB read as GB/TB; a size that is not one reads as nothing', () => {
    assert.equal(megabytes(81920), '80 GB');
    assert.equal(megabytes(1_907_729), '1.8 TB');
    assert.equal(megabytes(-1), '');
    assert.equal(megabytes(Number.NaN), '');
  });

  it('filtering a long hostile catalogue takes linear time', () => {
    assertLinearTime(
      'filterCatalogue',
      (n) => Array.from({ length: n / 100 }, (_, index) => single(product(index + 1, { gpu_model: `\u001b[${'9;'.repeat(40)}m${'G'.repeat(300)}`, hour_price: index % 7 }))),
      (list) => {
        filterCatalogue(list, { billing: 'Hour', gpuModel: 'g' });
        facetsOf(list);
      },
      { n: 20_000 },
    );
  });
});
