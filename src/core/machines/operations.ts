// Bare-metal machines (裸金属, docs/machines.md): the catalogue of single machines and network groups,
// orders, rented machines and their login. Each operation's parameter and result types next to its
// catalog entry; prices are points (1,000,000 = 1 yuan), sizes MB, times RFC3339.

import { declare, int, str } from '../compute/operationEntry';

export type BillingType = 'Hour' | 'Day' | 'Week' | 'Month';
export const BILLING_TYPES: readonly BillingType[] = ['Hour', 'Day', 'Week', 'Month'];
export type NetworkType = 'Ib' | 'Roce' | 'NVLinkSwitch' | 'EthernetFast';
export const NETWORK_TYPES: readonly NetworkType[] = ['Ib', 'Roce', 'NVLinkSwitch', 'EthernetFast'];
export type OrderStatus = 'Default' | 'Waiting' | 'Serving' | 'Finished' | 'Canceled';
export type OrderDetailStatus = OrderStatus | 'CanceledRefunded';

/** A machine in the catalogue (a network group's inner items lack the listing and place names). */
export interface MetalProduct {
  device_id: number;
  zone_name?: string;
  idc_name?: string;
  idc_id: number;
  network_type: NetworkType | null;
  network_id: number | null;
  cores: number;
  cpu_model: string;
  gpu_model: string;
  gpu_count: number;
  /** MB */
  gpu_memory: number;
  /** MB */
  memory_size: number;
  gpu_driver_version: string;
  cuda_version: string;
  operating_system: string;
  /** MB */
  system_disk_size: number;
  system_disk_type: string;
  start_time: string;
  end_time: string;
  listing_mode?: 'Single' | 'Proxy' | 'Direct';
  gateway_type?: string;
  cooperation_mode: string;
  migration_mode: string | null;
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
}

export interface MetalGroup {
  network_type: NetworkType;
  zone_name: string;
  idc_name: string;
  network_id: number;
  inner: MetalProduct[];
}

export interface SingleCatalogueQuery {
  page: number;
  page_size: number;
  conditional: { billing_type: BillingType; gpu_models: string[]; zone_id?: number; gpu_count?: number };
}

export interface GroupCatalogueQuery {
  billing_type: BillingType;
  device_count: number;
  network_type: NetworkType;
  zone_id?: number;
  gpu_count?: number;
  gpu_models?: string[];
}

export interface BuyBody {
  billing_type: BillingType;
  /** Packs (how long), not machines. */
  buy_count: number;
  /** One item for a single machine; one per machine for a group. */
  inner: { device_id: number; unit_price: number }[];
  software_init: boolean;
  discount_relation_id: number | null;
}

export interface MetalOrder {
  order_id: number;
  order_no: string;
  status: OrderStatus;
  buy_count: number;
  total_price: number;
  create_time: string;
  billing_type: BillingType;
  gpu_models: { gpu_model: string; gpu_count: number; order_details_id: number; order_detail_status: OrderDetailStatus; total_price: number; is_paid: boolean }[];
  discount_total_price: number;
  actually_total_price: number;
  cancel_actually_total_price: number;
  cancel_discount_total_price: number;
}

/** A rented single machine. */
export interface RentedSingle extends Omit<MetalProduct, 'network_type' | 'network_id'> {
  order_id: number;
  order_details_id: number;
  order_detail_status: OrderDetailStatus;
  billing_type: BillingType;
  intranet_ip: string;
  extranet_ip: string;
  use_start_time: string | null;
  use_end_time: string | null;
  create_channel: string;
  auto_renew_type?: BillingType | null;
}

/** A machine of a rented network group. */
export interface RentedGroupMachine extends Omit<MetalProduct, 'network_type' | 'network_id'> {
  order_details_id: number;
  order_detail_status: OrderDetailStatus;
  billing_type: BillingType;
  inner_ip: string;
  pub_ip: string;
  use_start_time: string | null;
  use_end_time: string | null;
  create_channel: string;
  auto_renew_type?: BillingType | null;
}

export interface RentedGroup {
  network_id: number;
  network_type: NetworkType;
  network_name: string;
  inner: RentedGroupMachine[];
}

/** Device detail: the login exists only once Serving. */
export interface DeviceDetail {
  order_details_id: number;
  order_detail_status?: OrderDetailStatus;
  billing_type: BillingType;
  network_type: NetworkType | null;
  network_name: string | null;
  pub_ip: string;
  inner_ip: string;
  ssh_port: number | null;
  device_username: string | null;
  device_passwd: string | null;
  expose_ports: { local_port: number; mapping_port: number }[];
  start_time: string | null;
  end_time: string | null;
  estimated_time: string;
  operating_system: string;
  cpu_model: string;
  memory_size: number;
  gpu_count: number;
  gpu_model: string;
  gpu_driver_version: string;
  cuda_version: string;
  system_disk_size: number;
}

const METAL = '/api/output/v2';
type NoParams = Record<string, never>;

/** Buying is never retried (a lost answer would make a second order); the rest are reads or set a state. */
export const MACHINE_OPERATIONS = {
  'metal.catalogueSingle': declare<{ params: SingleCatalogueQuery; result: { count: number; results: MetalProduct[] } }>({
    title: 'Bare-metal catalogue (single machines)',
    effect: 'read',
    method: 'POST',
    path: `${METAL}/device-output/page_list_product_single_v2`,
    encryption: 'optional',
    idempotent: true,
    fields: [int('page', true), int('page_size', true)],
  }),
  'metal.catalogueGroups': declare<{ params: GroupCatalogueQuery; result: MetalGroup[] }>({
    title: 'Bare-metal catalogue (network groups)',
    effect: 'read',
    method: 'POST',
    path: `${METAL}/device-output/page_list_product_network_v2`,
    encryption: 'optional',
    idempotent: true,
    fields: [str('billing_type', true), int('device_count', true), str('network_type', true), int('zone_id'), int('gpu_count')],
  }),
  'metal.buy': declare<{ params: BuyBody; result: { order_id: number } }>({
    title: 'Rent bare-metal machines',
    effect: 'write',
    method: 'POST',
    path: `${METAL}/device_order/buy_v2`,
    encryption: 'optional',
    idempotent: false,
    fields: [str('billing_type', true), int('buy_count', true)],
  }),
  'metal.orders': declare<{ params: { page: number; page_size: number; conditional: { condition: string } }; result: { count: number; results: MetalOrder[] } }>({
    title: 'Bare-metal orders',
    effect: 'read',
    method: 'POST',
    path: `${METAL}/device_order/get_order_list_v2`,
    encryption: 'optional',
    idempotent: true,
    fields: [int('page', true), int('page_size', true)],
  }),
  'metal.rentedSingle': declare<{ params: NoParams; result: RentedSingle[] }>({ title: 'Rented machines (single)', effect: 'read', method: 'POST', path: `${METAL}/device-output/list_rent_device_single_v2`, encryption: 'optional', idempotent: true, fields: [] }),
  'metal.rentedGroups': declare<{ params: NoParams; result: RentedGroup[] }>({ title: 'Rented machines (network groups)', effect: 'read', method: 'POST', path: `${METAL}/device-output/list_rent_device_network_v2`, encryption: 'optional', idempotent: true, fields: [] }),
  'metal.detail': declare<{ params: { device_id: number }; result: DeviceDetail }>({ title: 'Machine detail and login', effect: 'read', method: 'POST', path: `${METAL}/device_order/get_device_details_v2`, encryption: 'optional', idempotent: true, fields: [int('device_id', true)] }),
  'metal.setAutoRenew': declare<{ params: { billing_type: BillingType; device_id: number; use_discount: boolean }; result: null }>({
    title: 'Turn on auto-renew',
    effect: 'write',
    method: 'POST',
    path: `${METAL}/auto_renew_device_config/set_auto_renew_config`,
    encryption: 'optional',
    idempotent: true,
    fields: [str('billing_type', true), int('device_id', true)],
  }),
  'metal.cancelAutoRenew': declare<{ params: { device_id: number }; result: null }>({
    title: 'Turn off auto-renew',
    effect: 'write',
    method: 'POST',
    path: `${METAL}/auto_renew_device_config/delete_auto_renew_config`,
    encryption: 'optional',
    idempotent: true,
    fields: [int('device_id', true)],
  }),
};

export type MachineOperationId = keyof typeof MACHINE_OPERATIONS;
