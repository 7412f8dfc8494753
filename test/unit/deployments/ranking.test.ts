// Ranking the GPUs that fit (docs/deployments.md): in stock first, then cheapest, then most inventory;
// several cards of a device are used together (tensor parallel) when one is not enough.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Device, Region } from '../../../src/core/compute/api';
import { cardsNeeded, rankFits } from '../../../src/core/deployments/ranking';

const GIB = 1024 ** 3;

function region(code: string, price: number | null, inventory: number, discount: number | null = null): Region {
  return { region: code, region_name: code, price, discount_price: discount, inventory, mark: { mark: `m-${code}`, resource: {} as never } };
}

function device(name: string, cards: number, perCardMiB: number, regions: Region[]): Device {
  return { device_name: name, gpu_name: name, gpu_count: cards, gpu_memory: perCardMiB * cards, memory: 0, cpu_cores: 0, disk_size: 0, disk_type: '', regions };
}

describe('rankFits', () => {
  const devices = [
    device('4090', 1, 24_560, [region('a', 467, 3), region('b', 400, 0)]),
    device('4090x2', 2, 24_560, [region('c', 933, 5), region('d', 933, 9)]),
    device('L40S', 1, 46_068, [region('e', 722, 1, 700), region('f', null, 0)]),
    device('CPU', 0, 0, [region('g', 10, 10)]),
  ];

  it('a model that fits one 4090: cheapest in-stock first, sold-out and unpriced last', () => {
    const fits = rankFits(devices, 20 * GIB);
    assert.deepEqual(fits.map((fit) => fit.region.region), ['a', 'e', 'd', 'c', 'b', 'f']);
    assert.equal(fits[0]?.tensorParallel, 1);
    assert.equal(fits.at(-1)?.available, false);
  });

  it('a model too big for one 24 GB card fits two with tensor parallel 2, or one 46 GB card', () => {
    const fits = rankFits(devices, 30 * GIB);
    assert.deepEqual(fits.map((fit) => `${fit.device.device_name}:${fit.tensorParallel}`), ['L40S:1', '4090x2:2', '4090x2:2', 'L40S:1']);
    assert.equal(fits[0]?.pointsPerSecond, 700, 'the discount price counts');
  });

  it('nothing fits → empty; cardsNeeded says how many cards of a size would', () => {
    assert.deepEqual(rankFits(devices, 100 * GIB), []);
    assert.equal(cardsNeeded(24_560 * 1024 ** 2, 20 * GIB), 1);
    assert.equal(cardsNeeded(24_560 * 1024 ** 2, 30 * GIB), 2);
    assert.equal(cardsNeeded(24_560 * 1024 ** 2, 1000 * GIB), undefined);
  });
});
