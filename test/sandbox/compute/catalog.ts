// The sandbox's resource catalogue and storage list: shapes and units as on the real platform
// (docs/platform.md), values generated from a seed so every run with it is identical.

import type { Device, Region, ResourceSpec, StorageItem } from '../../../src/core/compute/api';
import { seededRandom, type SeededRandom } from './random';

/** 1 yuan = 1,000,000 points; prices are points per second, so 1 yuan/hour ≈ 278 points/s. */
const POINTS_PER_SECOND_PER_YUAN_HOUR = 1_000_000 / 3600;

interface RegionInfo {
  tag: string;
  name: string;
}

const REGIONS = {
  hebei: { tag: 'hebeif-1', name: '河北一区' },
  beijing: { tag: 'beijing-jxq-p1', name: '北京一区' },
  guangdong: { tag: 'guangdong', name: '广东一区' },
  zhejiang: { tag: 'zhejiang-hz1', name: '浙江一区' },
} satisfies Record<string, RegionInfo>;

interface DeviceTemplate {
  gpuName: string | null;
  gpuCount: number;
  /** Per card, MiB. */
  gpuMemory: number;
  memory: number;
  cpuCores: number;
  diskSize: number;
  yuanPerHour: number;
  regions: RegionInfo[];
  /** Regions listed but not sold (price null, no inventory), as the platform shows some. */
  unsold?: string[];
}

const DEVICE_TEMPLATES: DeviceTemplate[] = [
  { gpuName: 'H20', gpuCount: 8, gpuMemory: 98304, memory: 1572864, cpuCores: 192, diskSize: 81920, yuanPerHour: 59.1, regions: [REGIONS.hebei, REGIONS.beijing] },
  { gpuName: 'RTX 4090', gpuCount: 1, gpuMemory: 24560, memory: 64512, cpuCores: 16, diskSize: 20480, yuanPerHour: 1.68, regions: [REGIONS.beijing, REGIONS.guangdong, REGIONS.hebei, REGIONS.zhejiang] },
  { gpuName: 'RTX 4090', gpuCount: 2, gpuMemory: 24560, memory: 129024, cpuCores: 32, diskSize: 40960, yuanPerHour: 3.36, regions: [REGIONS.beijing, REGIONS.guangdong, REGIONS.hebei] },
  { gpuName: 'RTX 4090', gpuCount: 4, gpuMemory: 24560, memory: 258048, cpuCores: 64, diskSize: 81920, yuanPerHour: 6.72, regions: [REGIONS.guangdong, REGIONS.beijing] },
  { gpuName: 'A100', gpuCount: 8, gpuMemory: 81920, memory: 1048576, cpuCores: 128, diskSize: 81920, yuanPerHour: 72, regions: [REGIONS.beijing, REGIONS.hebei, REGIONS.zhejiang], unsold: ['zhejiang-hz1'] },
  { gpuName: 'L40S', gpuCount: 1, gpuMemory: 46068, memory: 98304, cpuCores: 24, diskSize: 20480, yuanPerHour: 2.6, regions: [REGIONS.hebei, REGIONS.guangdong] },
  { gpuName: 'L40S', gpuCount: 2, gpuMemory: 46068, memory: 196608, cpuCores: 48, diskSize: 40960, yuanPerHour: 5.2, regions: [REGIONS.hebei, REGIONS.guangdong, REGIONS.zhejiang] },
  { gpuName: null, gpuCount: 0, gpuMemory: 0, memory: 32768, cpuCores: 16, diskSize: 20480, yuanPerHour: 0.3, regions: [REGIONS.beijing, REGIONS.zhejiang] },
];

/** What the sandbox remembers about each `mark` it issued, so task create can check it. */
export interface IssuedMark {
  resource: ResourceSpec;
  regionName: string;
  inventory: number;
  /** discount_price ?? price, points per second per node; 0 when not sold. */
  pricePerSecond: number;
}

export interface Catalog {
  devices: Device[];
  marks: ReadonlyMap<string, IssuedMark>;
  storage: StorageItem[];
}

export function buildCatalog(seed: number): Catalog {
  const random = seededRandom(seed);
  const marks = new Map<string, IssuedMark>();
  const devices = DEVICE_TEMPLATES.map((template) => buildDevice(template, random, marks));
  return { devices, marks, storage: buildStorage() };
}

function deviceName(template: DeviceTemplate): string {
  return template.gpuName === null ? `CPU ${template.cpuCores}C` : `${template.gpuName} x ${template.gpuCount}`;
}

export function isGpuDevice(device: Device): boolean {
  return device.gpu_count > 0;
}

function buildDevice(template: DeviceTemplate, random: SeededRandom, marks: Map<string, IssuedMark>): Device {
  const name = deviceName(template);
  const regions = template.regions.map((info, index): Region => {
    const resource: ResourceSpec = {
      device_name: name,
      region: info.tag,
      gpu_name: template.gpuName,
      gpu_count: template.gpuCount,
      gpu_memory: template.gpuMemory * template.gpuCount,
      memory: template.memory,
      cpu_cores: template.cpuCores,
    };
    const unsold = template.unsold?.includes(info.tag) ?? false;
    // Regional prices vary by up to ±8 %; about half the offers carry a discount.
    const price = unsold ? null : Math.round(template.yuanPerHour * POINTS_PER_SECOND_PER_YUAN_HOUR * (0.92 + random.next() * 0.16));
    const discountPrice = price === null ? null : random.next() < 0.5 ? Math.round(price * 0.85) : price;
    // The first region always has stock so "pick the first offer" works; later ones may be sold out.
    const inventory = unsold ? 0 : index === 0 ? random.int(2, 24) : random.next() < 0.3 ? 0 : random.int(1, 16);
    const mark = random.bytes(96).toString('base64');
    marks.set(mark, { resource, regionName: info.name, inventory, pricePerSecond: discountPrice ?? price ?? 0 });
    return { region: info.tag, region_name: info.name, price, discount_price: discountPrice, inventory, mark: { resource, region_name: null, mark } };
  });
  return {
    device_name: name,
    gpu_name: template.gpuName ?? '',
    gpu_memory: template.gpuMemory * template.gpuCount,
    gpu_count: template.gpuCount,
    memory: template.memory,
    cpu_cores: template.cpuCores,
    disk_size: template.diskSize,
    disk_type: 'HDD',
    regions,
  };
}

function buildStorage(): StorageItem[] {
  const regions = [{ tag: REGIONS.beijing.tag, name: REGIONS.beijing.name }];
  return [
    {
      storage_id: 3101,
      storage_type: 'Juicefs',
      storage_name: 'datasets',
      juicefs_region_id: 7,
      juicefs_file_system_name: 'jfs-datasets',
      k3s_cloud_name: '火山引擎',
      k3s_region_name: '华北2（北京）',
      regions,
      activate_regions: regions,
      bucket: 'ml-datasets',
      dir: '/imagenet',
      endpoint: 'tos-s3-cn-beijing.volces.com',
      size: 1099511627776,
      use_size: 412316860416,
      status: 'Activate',
      remark: 'training data',
      create_time: '2026-09-03T10:12:44+08:00',
    },
    {
      storage_id: 3102,
      storage_type: 'Juicefs',
      storage_name: 'checkpoints',
      juicefs_region_id: 2,
      juicefs_file_system_name: 'jfs-checkpoints',
      k3s_cloud_name: '阿里云',
      k3s_region_name: '华东1（杭州）',
      regions: [],
      activate_regions: [],
      bucket: 'ckpt-bucket',
      dir: '/runs',
      endpoint: 'oss-cn-hangzhou.aliyuncs.com',
      size: 536870912000,
      use_size: 0,
      status: 'Unactivated',
      remark: null,
      create_time: '2026-10-18T16:40:02+08:00',
    },
    {
      storage_id: 3103,
      storage_type: 'ShareStorage',
      storage_name: 'team-share',
      juicefs_region_id: 7,
      share_storage_type: 'Multiple',
      regions,
      activate_regions: regions,
      bucket: 'team-share',
      dir: '/',
      endpoint: 'tos-s3-cn-beijing.volces.com',
      size: 107374182400,
      use_size: 5368709120,
      status: 'Activate',
      remark: 'shared between tasks',
      create_time: '2026-08-21T09:05:31+08:00',
    },
  ];
}
