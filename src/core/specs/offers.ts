// A spec names its resource by GPU model, count and region; the platform wants the row of a fresh
// resource search (its mark). This finds that row, or says why none fits.

import type { Device, Region, ResourceSpec } from '../compute/api';
import { effectivePointsPerSecond } from '../spend/units';
import { ENGLISH, type SpecMessages } from './messages';
import type { ResourceSelector } from './types';

export interface Offer {
  device: Device;
  region: Region;
}

export type OfferLookup = { offer: Offer } | { problem: string };

const same = (a: string | null | undefined, b: string | null | undefined): boolean => (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();

/** The one device × region the selector names; ambiguity and absence are problems, with what exists. */
export function findOffer(devices: readonly Device[], selector: ResourceSelector, messages: SpecMessages = ENGLISH): OfferLookup {
  const models = devices.filter((device) => same(device.gpu_name, selector.gpu) && device.gpu_count === selector.gpuCount);
  if (models.length === 0) {
    const counts = [...new Set(devices.filter((device) => same(device.gpu_name, selector.gpu)).map((device) => device.gpu_count))];
    return {
      problem:
        counts.length > 0
          ? messages.noSuchCount(selector.gpu, selector.gpuCount, counts.sort((a, b) => a - b).join(', '))
          : messages.noSuchModel(selector.gpu, [...new Set(devices.map((device) => device.gpu_name))].slice(0, 20).join(', ')),
    };
  }
  const fitting = models.filter(
    (device) =>
      (selector.device === undefined || same(device.device_name, selector.device)) &&
      (selector.memoryMi === undefined || device.memory === selector.memoryMi) &&
      (selector.cpuCores === undefined || device.cpu_cores === selector.cpuCores),
  );
  if (fitting.length === 0) return { problem: messages.noDeviceFits(selector.gpu, selector.gpuCount, models.map(deviceText).join('; ')) };
  const inRegion = fitting.flatMap((device) => device.regions.filter((region) => same(region.region, selector.region) || same(region.region_name, selector.region)).map((region) => ({ device, region })));
  if (inRegion.length === 0) {
    const regions = [...new Set(fitting.flatMap((device) => device.regions.map((region) => `${region.region} (${region.region_name})`)))];
    return { problem: messages.notInRegion(selector.gpu, selector.gpuCount, selector.region, regions.slice(0, 20).join(', ')) };
  }
  if (inRegion.length > 1) return { problem: messages.ambiguous(selector.gpu, selector.gpuCount, selector.region, inRegion.map((offer) => deviceText(offer.device)).join('; ')) };
  return { offer: inRegion[0]! };
}

function deviceText(device: Device): string {
  return `${device.device_name} (memoryMi ${device.memory}, cpuCores ${device.cpu_cores})`;
}

/** The price per node in points per second of the live resource, when the search lists it. */
export function livePrice(devices: readonly Device[], resource: ResourceSpec | undefined): number | undefined {
  if (!resource) return undefined;
  for (const device of devices) {
    if (!same(device.device_name, resource.device_name)) continue;
    const region = device.regions.find((candidate) => same(candidate.region, resource.region));
    if (region) return effectivePointsPerSecond(region) ?? undefined;
  }
  return undefined;
}
