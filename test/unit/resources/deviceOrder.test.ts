import '../helpers/englishL10n';
// The Resources view lists devices in price order: the cheapest in-stock region decides, sold-out
// devices follow, devices without any price come last.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Device, Region } from '../../../src/core/compute/api';
import { sortDevicesByPrice } from '../../../src/vscode/ui/format';

function region(price: number | null, inventory: number, discount: number | null = null): Region {
  return { region: `r-${String(price)}-${inventory}`, region_name: 'r', price, discount_price: discount, inventory } as unknown as Region;
}

function device(name: string, regions: Region[]): Device {
  return { device_name: name, regions } as unknown as Device;
}

describe('device order', () => {
  it('cheapest in-stock price first; a discount counts; sold out and unpriced last', () => {
    const devices = [
      device('h20', [region(16416, 2)]),
      device('sold-out-cheap', [region(100, 0)]),
      device('4090', [region(800, 0), region(900, 3, 640)]),
      device('unpriced', [region(null, 5)]),
      device('3090', [region(700, 1)]),
    ];
    assert.deepEqual(sortDevicesByPrice(devices).map((d) => d.device_name), ['4090', '3090', 'h20', 'sold-out-cheap', 'unpriced']);
  });

  it('keeps the platform order between equal prices and does not change its input', () => {
    const devices = [device('b', [region(500, 1)]), device('a', [region(500, 1)])];
    assert.deepEqual(sortDevicesByPrice(devices).map((d) => d.device_name), ['b', 'a']);
    assert.deepEqual(devices.map((d) => d.device_name), ['b', 'a']);
  });
});
