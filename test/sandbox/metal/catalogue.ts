// The bare-metal catalogue of the sandbox (docs/machines.md; the platform's §6.2–6.3): single
// machines and network groups, every Product field the docs list as required, prices in points
// (1,000,000 = 1 yuan), sizes in MB. `addProduct` lets a test list hostile text.

export const BILLING_TYPES = ['Hour', 'Day', 'Week', 'Month'] as const;
export type BillingType = (typeof BILLING_TYPES)[number];
export const NETWORK_TYPES = ['Ib', 'Roce', 'NVLinkSwitch', 'EthernetFast'] as const;
export type NetworkType = (typeof NETWORK_TYPES)[number];

/** A pack's length in ms. */
export const PACK_MS: Record<BillingType, number> = { Hour: 3_600_000, Day: 86_400_000, Week: 7 * 86_400_000, Month: 30 * 86_400_000 };

export interface Product {
  device_id: number;
  zone_name: string;
  idc_name: string;
  idc_id: number;
  network_type: NetworkType | null;
  network_id: number | null;
  cores: number;
  cpu_model: string;
  gpu_model: string;
  gpu_count: number;
  gpu_memory: number;
  memory_size: number;
  gpu_driver_version: string;
  cuda_version: string;
  operating_system: string;
  system_disk_size: number;
  system_disk_type: 'NVMe' | 'SSD' | 'HDD' | 'SCSI';
  start_time: string;
  end_time: string;
  listing_mode: 'Single' | 'Proxy' | 'Direct';
  gateway_type: string;
  cooperation_mode: 'IdleElastic' | 'IdleFullRent';
  migration_mode: 'Flexible' | 'Fast' | null;
  allow_switch_to_elastic_full_rent: boolean;
  max_buy_count: number;
  hour_price: number;
  day_price: number;
  week_price: number;
  month_price: number;
  hour_price_discount: number | null;
  day_price_discount: number | null;
  week_price_discount: number | null;
  month_price_discount: number | null;
  /** Sandbox only (not sent): the zone's id for the `zone_id` filter. */
  zoneId: number;
}

export interface NetworkGroup {
  network_type: NetworkType;
  zone_name: string;
  idc_name: string;
  network_id: number;
  inner: Product[];
}

/** The price a buy must send for `billing`: the discounted one when there is one. */
export function unitPrice(product: Product, billing: BillingType): number {
  const key = billing.toLowerCase() as 'hour' | 'day' | 'week' | 'month';
  return product[`${key}_price_discount`] ?? product[`${key}_price`];
}

const RFC3339 = (ms: number): string => new Date(ms).toISOString().replace('Z', '+00:00');

function product(id: number, gpu: string, count: number, zone: [number, string], hourPrice: number, extra: Partial<Product> = {}): Product {
  const now = Date.now();
  return {
    device_id: id,
    zone_name: zone[1],
    idc_name: `${zone[1]}-IDC1`,
    idc_id: zone[0] * 10 + 1,
    network_type: null,
    network_id: null,
    cores: 64,
    cpu_model: 'Intel Xeon Platinum 8358',
    gpu_model: gpu,
    gpu_count: count,
    gpu_memory: 81920,
    memory_size: 524288,
    gpu_driver_version: '550.54.15',
    cuda_version: '12.4',
    operating_system: 'Ubuntu 22.04',
    system_disk_size: 1_907_729,
    system_disk_type: 'NVMe',
    start_time: RFC3339(now - 86_400_000),
    end_time: RFC3339(now + 90 * 86_400_000),
    listing_mode: 'Single',
    gateway_type: '',
    cooperation_mode: 'IdleFullRent',
    migration_mode: null,
    allow_switch_to_elastic_full_rent: false,
    max_buy_count: 720,
    hour_price: hourPrice,
    day_price: hourPrice * 22,
    week_price: hourPrice * 150,
    month_price: hourPrice * 600,
    hour_price_discount: null,
    day_price_discount: null,
    week_price_discount: null,
    month_price_discount: null,
    zoneId: zone[0],
    ...extra,
  };
}

const ZONE_A: [number, string] = [1, '华东一区'];
const ZONE_B: [number, string] = [2, '西南一区'];

export class MetalCatalogue {
  readonly singles: Product[] = [
    product(9001, 'NVIDIA A100-SXM4-80GB', 8, ZONE_A, 28_000_000),
    product(9002, 'NVIDIA GeForce RTX 4090', 4, ZONE_B, 6_000_000, { gpu_memory: 24576, hour_price_discount: 5_400_000 }),
    product(9003, 'NVIDIA H100 80GB HBM3', 8, ZONE_A, 52_000_000, { listing_mode: 'Proxy', gateway_type: 'frp' }),
  ];
  readonly groups: NetworkGroup[] = [
    {
      network_type: 'Ib',
      zone_name: ZONE_A[1],
      idc_name: `${ZONE_A[1]}-IDC1`,
      network_id: 501,
      inner: [9101, 9102, 9103].map((id) => product(id, 'NVIDIA A100-SXM4-80GB', 8, ZONE_A, 30_000_000, { network_type: 'Ib', network_id: 501 })),
    },
  ];

  single(deviceId: number): Product | undefined {
    return this.singles.find((item) => item.device_id === deviceId);
  }

  groupOf(deviceId: number): NetworkGroup | undefined {
    return this.groups.find((group) => group.inner.some((item) => item.device_id === deviceId));
  }

  product(deviceId: number): Product | undefined {
    return this.single(deviceId) ?? this.groupOf(deviceId)?.inner.find((item) => item.device_id === deviceId);
  }

  /** A test lists (or changes) a single machine: hostile text, a new price. */
  addProduct(fields: Partial<Product> & { device_id: number }): Product {
    const existing = this.product(fields.device_id);
    if (existing) return Object.assign(existing, fields);
    const added = product(fields.device_id, 'NVIDIA A100-SXM4-80GB', 8, ZONE_A, 28_000_000, fields);
    this.singles.push(added);
    return added;
  }

  /** A test lists one more Ib network group of A100 × 8 machines (device ids of its own). */
  addGroup(networkId: number, deviceIds: readonly number[]): NetworkGroup {
    const existing = this.groups.find((group) => group.network_id === networkId);
    if (existing) return existing;
    const added: NetworkGroup = { network_type: 'Ib', zone_name: ZONE_A[1], idc_name: `${ZONE_A[1]}-IDC1`, network_id: networkId, inner: deviceIds.map((id) => product(id, 'NVIDIA A100-SXM4-80GB', 8, ZONE_A, 30_000_000, { network_type: 'Ib', network_id: networkId })) };
    this.groups.push(added);
    return added;
  }
}

/** A product as the wire carries it (without the sandbox's own fields); network inner items lack listing and place names. */
export function wireProduct(item: Product, inner = false): Record<string, unknown> {
  const { zoneId: _zone, ...wire } = item;
  if (!inner) return wire;
  const { listing_mode: _l, gateway_type: _g, zone_name: _z, idc_name: _i, ...innerWire } = wire;
  return innerWire;
}
