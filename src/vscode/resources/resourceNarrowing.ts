// The Resources filters applied on this side of the platform's query: GPU model, minimum VRAM, maximum
// ¥/h, region (code or name) and "in stock". One function narrows the devices for the tree, the search
// command and the create wizard alike, so a filter means the same everywhere. Pure: no editor API.
import type { Device, Region } from '../../core/compute/api';
import { effectivePrice, isSoldOut, yuanPerHour } from '../ui/format';

export interface ResourceNarrowing {
  /** GPU models to keep (`gpu_name`, or `device_name` for a CPU device); empty keeps all. */
  gpuModels: string[];
  /** Least memory per GPU, in GB (GiB, as the trees show it); undefined keeps all. */
  minVramGb?: number;
  /** Highest effective price per hour in yuan; undefined keeps all. */
  maxYuanPerHour?: number;
  /** Text a region's code or name must contain (case-insensitive); empty keeps all. */
  region: string;
  hideSoldOut: boolean;
}

export const NO_NARROWING: ResourceNarrowing = { gpuModels: [], region: '', hideSoldOut: false };

/** The model a device is filtered by: its GPU name, or its device name when it has no GPU. */
export function gpuModelOf(device: Pick<Device, 'gpu_name' | 'gpu_count' | 'device_name'>): string {
  const gpu = device.gpu_name?.trim();
  return gpu && device.gpu_count > 0 ? gpu : device.device_name;
}

/** Every model in the devices, once, in the order first met. */
export function gpuModelsOf(devices: readonly Device[]): string[] {
  return [...new Set(devices.map(gpuModelOf))];
}

export function regionMatches(region: Pick<Region, 'region' | 'region_name'>, text: string): boolean {
  const wanted = text.trim().toLowerCase();
  if (wanted === '') return true;
  return region.region.toLowerCase().includes(wanted) || (region.region_name ?? '').toLowerCase().includes(wanted);
}

function deviceMatches(device: Device, narrowing: ResourceNarrowing): boolean {
  if (narrowing.gpuModels.length > 0 && !narrowing.gpuModels.includes(gpuModelOf(device))) return false;
  if (narrowing.minVramGb !== undefined && device.gpu_memory / 1024 < narrowing.minVramGb - 1e-9) return false;
  return true;
}

function regionKept(region: Region, narrowing: ResourceNarrowing): boolean {
  if (narrowing.hideSoldOut && isSoldOut(region)) return false;
  if (narrowing.maxYuanPerHour !== undefined) {
    const price = effectivePrice(region);
    // Compared as shown (to the fen): "≤ ¥2.30/h" keeps a region the view shows at ¥2.30/h.
    if (price === null || Math.round(yuanPerHour(price) * 100) > Math.round(narrowing.maxYuanPerHour * 100)) return false;
  }
  return regionMatches(region, narrowing.region);
}

/** True when the narrowing can hide a device or region. */
export function isNarrowing(narrowing: ResourceNarrowing): boolean {
  return narrowing.gpuModels.length > 0 || narrowing.minVramGb !== undefined || narrowing.maxYuanPerHour !== undefined || narrowing.region.trim() !== '' || narrowing.hideSoldOut;
}

/**
 * The devices that pass, each with only the regions that pass; a device left with no region is
 * dropped when a region condition is set (otherwise a device the platform lists with no region stays).
 */
export function narrowDevices(devices: readonly Device[], narrowing: ResourceNarrowing): Device[] {
  const regionConditions = narrowing.hideSoldOut || narrowing.maxYuanPerHour !== undefined || narrowing.region.trim() !== '';
  const kept: Device[] = [];
  for (const device of devices) {
    if (!deviceMatches(device, narrowing)) continue;
    const regions = device.regions.filter((region) => regionKept(region, narrowing));
    if (regions.length === 0 && regionConditions) continue;
    kept.push(regions.length === device.regions.length ? device : { ...device, regions });
  }
  return kept;
}

/** Short words for the view's description, e.g. ["RTX 4090", "≥ 24 GB", "≤ ¥3.00/h", "bj", "in stock"]. */
export function describeNarrowing(narrowing: ResourceNarrowing, words: { inStock: string }): string[] {
  const parts: string[] = [];
  if (narrowing.gpuModels.length > 0) parts.push(narrowing.gpuModels.length <= 2 ? narrowing.gpuModels.join(', ') : `${narrowing.gpuModels.length} GPU`);
  if (narrowing.minVramGb !== undefined) parts.push(`≥ ${narrowing.minVramGb} GB`);
  if (narrowing.maxYuanPerHour !== undefined) parts.push(`≤ ¥${narrowing.maxYuanPerHour.toFixed(2)}/h`);
  if (narrowing.region.trim() !== '') parts.push(narrowing.region.trim());
  if (narrowing.hideSoldOut) parts.push(words.inStock);
  return parts;
}

/** Parses a positive number typed by a person ("24", "24GB", "¥3.5", "3,5"); undefined for empty. */
export function parsePositiveNumber(text: string): number | undefined | 'invalid' {
  const cleaned = text.trim().replace(/^[¥￥]/, '').replace(/\s*(gb|g|gib|元\/小时|元|\/h)$/i, '').replace(',', '.');
  if (cleaned === '') return undefined;
  if (!/^\d+(\.\d+)?$/.test(cleaned)) return 'invalid';
  const value = Number(cleaned);
  return value > 0 && Number.isFinite(value) ? value : 'invalid';
}

