// The Resources filters applied locally (src/vscode/resources/resourceNarrowing.ts): GPU model, minimum
// VRAM, maximum ¥/h, region code or name, and "in stock" — the same for the view, search and wizard.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Device, Region } from '../../../src/core/compute/api';
import { NO_NARROWING, describeNarrowing, gpuModelsOf, isNarrowing, narrowDevices, parsePositiveNumber, regionMatches } from '../../../src/vscode/resources/resourceNarrowing';

// Points per second for a price in yuan per hour (1 yuan = 1e6 points).
const pointsFor = (yuanPerHour: number): number => Math.round((yuanPerHour * 1_000_000) / 3600);

function region(code: string, name: string, yuanPerHour: number | null, inventory: number): Region {
  const price = yuanPerHour === null ? null : pointsFor(yuanPerHour);
  return { region: code, region_name: name, price, discount_price: null, inventory, mark: { resource: {} as Region['mark']['resource'], mark: `m-${code}` } };
}

function device(gpu: string, vramGb: number, regions: Region[], count = 1): Device {
  return { device_name: `${gpu}-${count}`, gpu_name: gpu, gpu_memory: vramGb * 1024, gpu_count: count, memory: 65536, cpu_cores: 16, disk_size: 102400, disk_type: 'SSD', regions };
}

const devices: Device[] = [
  device('RTX 4090', 24, [region('bj-a', '北京一区', 2.3, 5), region('sh-a', '上海一区', 2.0, 0)]),
  device('H20', 96, [region('bj-a', '北京一区', 7.5, 2), region('gz-b', '广州二区', 6.9, 1)]),
  device('RTX 3090', 24, [region('sh-a', '上海一区', 1.2, 3)]),
];

const names = (list: Device[]): string[] => list.map((d) => `${d.gpu_name}:${d.regions.map((r) => r.region).join(',')}`);

describe('narrowDevices', () => {
  it('keeps everything without a narrowing, the same objects', () => {
    const kept = narrowDevices(devices, NO_NARROWING);
    assert.deepEqual(kept, devices);
    assert.equal(kept[0], devices[0]);
    assert.equal(isNarrowing(NO_NARROWING), false);
  });

  it('filters by GPU model', () => {
    assert.deepEqual(names(narrowDevices(devices, { ...NO_NARROWING, gpuModels: ['H20', 'RTX 3090'] })), ['H20:bj-a,gz-b', 'RTX 3090:sh-a']);
    assert.deepEqual(gpuModelsOf(devices), ['RTX 4090', 'H20', 'RTX 3090']);
  });

  it('filters by minimum VRAM per GPU (GB, inclusive)', () => {
    assert.deepEqual(names(narrowDevices(devices, { ...NO_NARROWING, minVramGb: 24 })), names(devices));
    assert.deepEqual(names(narrowDevices(devices, { ...NO_NARROWING, minVramGb: 25 })), ['H20:bj-a,gz-b']);
  });

  it('filters regions by maximum ¥/h and drops a device left without regions', () => {
    assert.deepEqual(names(narrowDevices(devices, { ...NO_NARROWING, maxYuanPerHour: 2.3 })), ['RTX 4090:bj-a,sh-a', 'RTX 3090:sh-a']);
    assert.deepEqual(names(narrowDevices(devices, { ...NO_NARROWING, maxYuanPerHour: 2.29 })), ['RTX 4090:sh-a', 'RTX 3090:sh-a']);
    // A region without a price is not "under" any price.
    const unpriced = [device('A100', 80, [region('x', 'X', null, 1)])];
    assert.deepEqual(narrowDevices(unpriced, { ...NO_NARROWING, maxYuanPerHour: 100 }), []);
  });

  it('filters regions by code or name, case-insensitively', () => {
    assert.deepEqual(names(narrowDevices(devices, { ...NO_NARROWING, region: 'BJ' })), ['RTX 4090:bj-a', 'H20:bj-a']);
    assert.deepEqual(names(narrowDevices(devices, { ...NO_NARROWING, region: '上海' })), ['RTX 4090:sh-a', 'RTX 3090:sh-a']);
    assert.equal(regionMatches({ region: 'gz-b', region_name: '广州二区' }, '  '), true);
    assert.equal(regionMatches({ region: 'gz-b', region_name: '广州二区' }, 'bj'), false);
  });

  it('hides sold-out regions, and a device with only sold-out regions', () => {
    const soldOutOnly = [...devices, device('L40', 48, [region('sh-a', '上海一区', 3, 0)])];
    assert.deepEqual(names(narrowDevices(soldOutOnly, { ...NO_NARROWING, hideSoldOut: true })), ['RTX 4090:bj-a', 'H20:bj-a,gz-b', 'RTX 3090:sh-a']);
  });

  it('combines every condition', () => {
    const narrowing = { gpuModels: ['RTX 4090', 'H20'], minVramGb: 20, maxYuanPerHour: 7, region: 'a', hideSoldOut: true };
    assert.deepEqual(names(narrowDevices(devices, narrowing)), ['RTX 4090:bj-a']);
    assert.deepEqual(describeNarrowing(narrowing, { inStock: 'in stock' }), ['RTX 4090, H20', '≥ 20 GB', '≤ ¥7.00/h', 'a', 'in stock']);
  });
});

describe('parsePositiveNumber', () => {
  it('reads what a person types', () => {
    assert.equal(parsePositiveNumber('24'), 24);
    assert.equal(parsePositiveNumber(' 24 GB'), 24);
    assert.equal(parsePositiveNumber('¥3.5'), 3.5);
    assert.equal(parsePositiveNumber('3,5'), 3.5);
    assert.equal(parsePositiveNumber('3.5元/小时'), 3.5);
    assert.equal(parsePositiveNumber(''), undefined);
  });

  it('refuses what is not a positive number', () => {
    for (const text of ['0', '-1', 'abc', '1e9', '2.', 'Infinity']) assert.equal(parsePositiveNumber(text), 'invalid', text);
  });
});
