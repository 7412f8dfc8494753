// The GPU resource operations: each entry's params and result types sit beside it (CONTRIBUTING.md,
// "Add a platform operation"); src/core/compute/catalog.ts assembles the area catalogs into one.


import { declare, query } from '../compute/operationEntry';
import type { Paged } from '../compute/wire';

export interface ResourceSpec {
  device_name: string;
  region: string;
  gpu_name: string | null;
  gpu_count: number;
  gpu_memory: number; // MiB
  memory: number; // MiB
  cpu_cores: number;
}

export interface Region {
  region: string;
  region_name: string;
  /** Points per second (1 yuan = 1,000,000 points); null when not sold. */
  price: number | null;
  discount_price: number | null;
  inventory: number;
  mark: { resource: ResourceSpec; mark: string; region_name?: string | null };
}

export interface Device {
  device_name: string;
  gpu_name: string;
  gpu_memory: number;
  gpu_count: number;
  memory: number;
  cpu_cores: number;
  disk_size: number;
  disk_type: string;
  regions: Region[];
}

export const RESOURCE_OPERATIONS = {
  'resource.search': declare<{ params: { task_type: string; device_type: string }; result: Paged<Device> }>({
    title: 'Search GPU resources',
    effect: 'read',
    method: 'GET',
    path: '/api/deployment/resource/search',
    encryption: 'never',
    idempotent: true,
    fields: [query('task_type', 'Deployment'), query('device_type', 'GpuDevice')],
  }),
};
