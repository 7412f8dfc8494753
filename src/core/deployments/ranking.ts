// Which GPUs a model fits on, ranked (docs/deployments.md): every device × region whose cards hold the
// estimate at vLLM's memory share, splitting across the device's cards (tensor parallel) when one card is
// not enough; in stock first, then cheapest, then most inventory. Pure.

import type { Device, Region } from '../compute/api';
import { effectivePointsPerSecond } from '../spend/units';
import { GPU_MEMORY_UTILIZATION } from './estimate';

const MIB = 1024 ** 2;

export interface GpuFit {
  device: Device;
  region: Region;
  /** Cards vLLM uses (`--tensor-parallel-size`): a power of two up to the device's cards. */
  tensorParallel: number;
  perCardBytes: number;
  /** What vLLM may use across those cards. */
  usableBytes: number;
  /** Effective price per node (points/s), null when the region is not sold. */
  pointsPerSecond: number | null;
  /** In stock and priced: can be created now. */
  available: boolean;
}

/** Largest power of two ≤ n (vLLM splits attention heads evenly; 1, 2, 4, 8 cards). */
function powerOfTwoAtMost(n: number): number {
  let power = 1;
  while (power * 2 <= n) power *= 2;
  return power;
}

export function rankFits(devices: readonly Device[], neededBytes: number): GpuFit[] {
  const fits: GpuFit[] = [];
  for (const device of devices) {
    if (device.gpu_count <= 0 || device.gpu_memory <= 0) continue;
    const perCardBytes = (device.gpu_memory / device.gpu_count) * MIB;
    const tensorParallel = powerOfTwoAtMost(device.gpu_count);
    const usableBytes = perCardBytes * tensorParallel * GPU_MEMORY_UTILIZATION;
    if (usableBytes < neededBytes) continue;
    for (const region of device.regions) {
      const pointsPerSecond = effectivePointsPerSecond(region);
      fits.push({ device, region, tensorParallel, perCardBytes, usableBytes, pointsPerSecond, available: region.inventory > 0 && pointsPerSecond !== null });
    }
  }
  return fits.sort(
    (a, b) =>
      Number(b.available) - Number(a.available) ||
      (a.pointsPerSecond ?? Infinity) - (b.pointsPerSecond ?? Infinity) ||
      b.region.inventory - a.region.inventory,
  );
}

/** The smallest tensor-parallel size a card of `perCardBytes` needs for `neededBytes` (undefined beyond 8). */
export function cardsNeeded(perCardBytes: number, neededBytes: number): number | undefined {
  for (const cards of [1, 2, 4, 8]) if (perCardBytes * cards * GPU_MEMORY_UTILIZATION >= neededBytes) return cards;
  return undefined;
}
