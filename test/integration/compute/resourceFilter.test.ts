// The Resources filters against the sandbox: "in stock", maximum ¥/h, region code and GPU model hold in
// the view and in the region list the search command and the create wizard offer.
import * as assert from 'node:assert/strict';
import type { ComputeApi, RegionChoice } from '../../../src/vscode/views/index';
import type { ResourceFilter } from '../../../src/vscode/resources/resourceFilter';
import { regionPickItem } from '../../../src/vscode/resources/resourceSearch';
import { computeWithSandbox } from './computeTestApi';

const yuanPerHour = (choice: RegionChoice): number | null => {
  const points = choice.region.discount_price ?? choice.region.price;
  return points === null ? null : Math.round((points * 3600) / 10_000) / 100;
};

describe('compute: Resources filters', () => {
  let compute: ComputeApi;
  let original: ResourceFilter;
  let all: RegionChoice[];

  before(async () => {
    compute = await computeWithSandbox();
    original = compute.resourceFilter.current;
    await compute.resourceFilter.set({ ...original, gpuModels: [], region: '', hideSoldOut: false });
    all = await compute.searchRegions();
    assert.ok(all.some((choice) => choice.region.inventory <= 0), 'the sandbox lists a sold-out region to hide');
  });

  afterEach(async () => {
    await compute.resourceFilter.set(original);
    await compute.refresh('resources');
  });

  async function withFilter(change: Partial<ResourceFilter>): Promise<{ choices: RegionChoice[]; regionRows: number; description: string }> {
    await compute.resourceFilter.set({ ...compute.resourceFilter.current, ...change });
    await compute.refresh('resources');
    const snapshot = await compute.snapshot('resources', { depth: 2 });
    const choices = await compute.searchRegions();
    const regionRows = snapshot.rows.reduce((sum, device) => sum + (device.children?.length ?? 0), 0);
    assert.equal(choices.length, regionRows, 'the search and the wizard offer what the view shows');
    return { choices, regionRows, description: compute.resourceFilter.describe() };
  }

  it('"hide sold-out" holds in the view, the search and the wizard', async () => {
    const { choices, description } = await withFilter({ hideSoldOut: true });
    assert.ok(choices.length > 0 && choices.length < all.length, `${choices.length} of ${all.length}`);
    assert.deepEqual(choices.filter((choice) => choice.region.inventory <= 0), []);
    assert.match(description, /in stock/);
  });

  it('a maximum ¥/h keeps only regions at or under it', async () => {
    const prices = all.map(yuanPerHour).filter((price): price is number => price !== null).sort((a, b) => a - b);
    const limit = prices[Math.floor(prices.length / 2)]!;
    const { choices } = await withFilter({ maxYuanPerHour: limit });
    assert.ok(choices.length > 0 && choices.length < all.length, `${choices.length} of ${all.length} at ≤ ¥${limit}/h`);
    for (const choice of choices) assert.ok((yuanPerHour(choice) ?? Infinity) <= limit, `${choice.region.region}: ${yuanPerHour(choice)} > ${limit}`);
  });

  it('a region code keeps that region, and the pickers match it by code', async () => {
    const code = all[0]!.region.region;
    const { choices } = await withFilter({ region: code.toUpperCase() });
    assert.ok(choices.length > 0);
    for (const choice of choices) assert.ok(choice.region.region.toLowerCase().includes(code.toLowerCase()) || choice.region.region_name.toLowerCase().includes(code.toLowerCase()));
    assert.ok(regionPickItem(choices[0]!).description?.includes(code), 'the region code is in the pick item, so typing it finds the region');
  });

  it('a GPU model keeps only that model', async () => {
    const model = all[all.length - 1]!.device.gpu_name;
    const { choices } = await withFilter({ gpuModels: [model] });
    assert.ok(choices.length > 0);
    assert.deepEqual([...new Set(choices.map((choice) => choice.device.gpu_name))], [model]);
  });
});
