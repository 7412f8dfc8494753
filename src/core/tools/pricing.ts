// Finding GPU offers in a resource search and what they cost: used by the search tool, and by the
// confirmations of create and change-node-count, which must show the money before it is spent.

import type { Device, Region, TaskResource } from '../compute/api';
import { formatYuan, yuanPerHour } from '../spend/units';
import { deviceLabel } from '../deviceLabel';
import { ConfigError } from '../errors';
import type { ResourceService } from '../resources/resourceService';

/** One region of one device: what the search tool lists and create takes. */
export interface Offer {
  device: Device;
  region: Region;
  /** Per node, ¥/h, from discount_price ?? price; undefined when not sold. */
  yuanPerHour: number | undefined;
}

export function offerPrice(region: Region): number | undefined {
  const points = region.discount_price ?? region.price;
  return points === null || points === undefined ? undefined : yuanPerHour(points);
}

export function offersOf(devices: readonly Device[]): Offer[] {
  const offers: Offer[] = [];
  for (const device of devices) {
    for (const region of device.regions ?? []) offers.push({ device, region, yuanPerHour: offerPrice(region) });
  }
  return offers;
}

/** "2 × RTX 4090 × 1 in 北京一区 ≈ ¥3.36/h (¥1.68/h per node)". */
export function costLine(nodes: number, device: Device, regionName: string, perNode: number | undefined): string {
  const what = `${nodes} × ${deviceLabel(device)} in ${regionName}`;
  if (perNode === undefined) return `${what} (price not listed)`;
  const total = `${what} ≈ ${formatYuan(perNode * nodes)}/h`;
  return nodes === 1 ? total : `${total} (${formatYuan(perNode)}/h per node)`;
}

function matchesRegion(region: Region, wanted: string): boolean {
  const w = wanted.trim().toLowerCase();
  return region.region.toLowerCase() === w || region.region_name.trim().toLowerCase() === w;
}

/** The offer create asks for: device by its listed device_name, region by tag or display name. */
export async function findOffer(resources: Pick<ResourceService, 'gpuDeployments'>, deviceName: string, regionWanted: string, signal?: AbortSignal): Promise<Offer> {
  const devices = await resources.gpuDeployments(signal);
  const wantedDevice = deviceName.trim().toLowerCase();
  const device = devices.results.find((d) => d.device_name.trim().toLowerCase() === wantedDevice);
  if (!device) {
    const names = [...new Set(devices.results.map((d) => d.device_name))].slice(0, 20).join('", "');
    throw new ConfigError(`No device "${deviceName}" is offered.`, `Use a device_name exactly as compute_search_gpus lists it: "${names}".`);
  }
  const region = device.regions.find((r) => matchesRegion(r, regionWanted));
  if (!region) {
    const regions = device.regions.map((r) => `${r.region_name} (${r.region})`).join(', ');
    throw new ConfigError(`"${device.device_name}" is not offered in region "${regionWanted}".`, `Regions for this device: ${regions}.`);
  }
  return { device, region, yuanPerHour: offerPrice(region) };
}

/** The per-node price of a running task's resource, looked up in a fresh search (undefined if unlisted). */
export async function taskResourceOffer(resources: Pick<ResourceService, 'gpuDeployments'>, resource: TaskResource | undefined, signal?: AbortSignal): Promise<Offer | undefined> {
  if (!resource) return undefined;
  const devices = await resources.gpuDeployments(signal);
  for (const offer of offersOf(devices.results)) {
    if (offer.region.mark.mark === resource.mark) return offer;
  }
  const spec = resource.resource;
  for (const offer of offersOf(devices.results)) {
    if (offer.device.device_name === spec.device_name && offer.region.region === spec.region) return offer;
  }
  return undefined;
}
