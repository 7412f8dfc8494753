// Resource search shared by the Resources view, the search command and the create wizard:
// one fresh search per use (a region's mark must be fresh before a create), flattened to region rows.
import * as vscode from 'vscode';
import type { Device, Region } from '../../core/compute/api';
import { resourceServiceOf } from '../client/computeServices';
import type { ExtensionServices } from '../services';
import { deviceLabel, deviceSpecs, effectivePrice, formatInventory, formatRegionPrice, isSoldOut } from '../ui/format';
import type { ResourceFilterStore } from './resourceFilter';
import { narrowDevices } from './resourceNarrowing';

/** In-stock regions first, cheapest first; sold-out ones after. */
export function sortRegions(regions: readonly Region[]): Region[] {
  return [...regions].sort((a, b) => {
    const soldOut = Number(isSoldOut(a)) - Number(isSoldOut(b));
    if (soldOut !== 0) return soldOut;
    return (effectivePrice(a) ?? Number.MAX_SAFE_INTEGER) - (effectivePrice(b) ?? Number.MAX_SAFE_INTEGER);
  });
}

/** What the platform lists for the filter's device and task type, before any local narrowing. */
export async function searchAllDevices(services: ExtensionServices, filter: ResourceFilterStore, signal: AbortSignal): Promise<Device[]> {
  const result = await resourceServiceOf(services).search(filter.query(), signal);
  return result.results;
}

/**
 * A fresh resource search with the current filter (marks must be fresh before a create), narrowed by
 * GPU model, VRAM, price, region and stock: the view, the search command and the wizard all use it.
 */
export async function searchDevices(services: ExtensionServices, filter: ResourceFilterStore, signal: AbortSignal): Promise<Device[]> {
  return narrowDevices(await searchAllDevices(services, filter, signal), filter.current);
}

/** One row of the region pickers (search command, create wizard). */
export interface RegionChoice {
  device: Device;
  region: Region;
}

export function flattenRegions(devices: readonly Device[]): RegionChoice[] {
  const choices: RegionChoice[] = [];
  for (const device of devices) for (const region of sortRegions(device.regions)) choices.push({ device, region });
  return choices;
}

export interface RegionPickItem extends vscode.QuickPickItem {
  choice: RegionChoice;
}

export function regionPickItem(choice: RegionChoice): RegionPickItem {
  const soldOut = isSoldOut(choice.region);
  return {
    label: `${soldOut ? '$(circle-slash)' : '$(server)'} ${deviceLabel(choice.device)} · ${choice.region.region_name}`,
    // The region code too, so typing "bj" finds 北京 regions.
    description: `${formatRegionPrice(choice.region)} · ${choice.region.region}`,
    detail: `${formatInventory(choice.region)} · ${deviceSpecs(choice.device)}`,
    choice,
  };
}
