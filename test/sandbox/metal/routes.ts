// The bare-metal routes of interface A (docs/machines.md), as strict as the platform's docs: every
// required field, its type and enum; a buy refused when it breaks a documented rule (one item for a
// single machine, one per machine of one group, `buy_count` ≤ `max_buy_count`, a machine already
// rented) and when the `unit_price` sent is not the current price (the answer names the new price).

import { SandboxFailure, invalidParam } from '../compute/codes';
import { asArray, asObject, requireInt, type JsonObject } from '../compute/params';
import type { Route } from '../compute/routes';
import { BILLING_TYPES, NETWORK_TYPES, unitPrice, wireProduct, type BillingType, type MetalCatalogue, type NetworkGroup, type Product } from './catalogue';
import { rfc3339, type Order, type Rental, type RentalStore } from './rentals';

const BASE = '/api/output/v2';
const MAX_PAGE_SIZE = 100;

function requireEnum<T extends string>(body: JsonObject, key: string, values: readonly T[], path = key): T {
  const value = body[key];
  if (value === undefined) throw invalidParam(path, 'is required');
  if (typeof value !== 'string' || !values.includes(value as T)) throw invalidParam(path, `must be one of ${values.join(', ')}`);
  return value as T;
}

function requireBool(body: JsonObject, key: string): boolean {
  const value = body[key];
  if (value === undefined) throw invalidParam(key, 'is required');
  if (typeof value !== 'boolean') throw invalidParam(key, 'expected a boolean');
  return value;
}

function optionalInt(body: JsonObject, key: string, path = key): number | undefined {
  if (body[key] === undefined || body[key] === null) return undefined;
  return requireInt(body, key, { min: 0 }, path);
}

function optionalModels(body: JsonObject, key: string, path = key, required = false): string[] {
  const value = body[key];
  if (value === undefined || value === null) {
    if (required) throw invalidParam(path, 'is required');
    return [];
  }
  return asArray(path, value).map((item, index) => {
    if (typeof item !== 'string') throw invalidParam(`${path}[${index}]`, 'expected a string');
    return item;
  });
}

function paging(body: JsonObject): { page: number; pageSize: number } {
  return { page: requireInt(body, 'page', { min: 1 }), pageSize: requireInt(body, 'page_size', { min: 1, max: MAX_PAGE_SIZE }) };
}

function matches(product: Product, models: string[], zoneId: number | undefined, gpuCount: number | undefined): boolean {
  return (models.length === 0 || models.includes(product.gpu_model)) && (zoneId === undefined || product.zoneId === zoneId) && (gpuCount === undefined || product.gpu_count === gpuCount);
}

function detail(rental: Rental): Record<string, unknown> {
  const serving = rental.status === 'Serving';
  const p = rental.product;
  return {
    order_details_id: rental.orderDetailsId,
    billing_type: rental.billingType,
    network_type: rental.group?.network_type ?? null,
    network_name: rental.group ? `${rental.group.network_type}-${rental.group.network_id}` : null,
    operating_system: p.operating_system,
    cpu_model: p.cpu_model,
    memory_size: p.memory_size,
    gpu_count: p.gpu_count,
    gpu_model: p.gpu_model,
    gpu_driver_version: p.gpu_driver_version,
    cuda_version: p.cuda_version,
    system_disk_size: p.system_disk_size,
    order_detail_status: rental.status,
    // Only once Serving: the login, the inner IP and the exposed ports (the docs' warning).
    pub_ip: serving ? rental.machine.address.host : '',
    inner_ip: serving ? rental.innerIp : '',
    ssh_port: serving ? rental.machine.address.port : null,
    device_username: serving ? rental.machine.login.username : null,
    device_passwd: serving ? rental.machine.login.password : null,
    expose_ports: serving ? [{ local_port: 6006, mapping_port: 46006 }] : [],
    start_time: rental.startMs === undefined ? null : rfc3339(rental.startMs),
    end_time: rental.endMs === undefined ? null : rfc3339(rental.endMs),
    estimated_time: '',
  };
}

function singleItem(rental: Rental): Record<string, unknown> {
  return {
    ...wireProduct(rental.product),
    device_id: rental.deviceId,
    order_id: rental.orderId,
    order_details_id: rental.orderDetailsId,
    order_detail_status: rental.status,
    billing_type: rental.billingType,
    intranet_ip: rental.status === 'Serving' ? rental.innerIp : '',
    extranet_ip: rental.status === 'Serving' ? rental.machine.address.host : '',
    use_start_time: rental.startMs === undefined ? null : rfc3339(rental.startMs),
    use_end_time: rental.endMs === undefined ? null : rfc3339(rental.endMs),
    create_channel: 'OutputPlatform',
    auto_renew_type: rental.autoRenew?.billingType ?? null,
  };
}

function networkInner(rental: Rental): Record<string, unknown> {
  return {
    ...wireProduct(rental.product, true),
    device_id: rental.deviceId,
    order_details_id: rental.orderDetailsId,
    order_detail_status: rental.status,
    billing_type: rental.billingType,
    inner_ip: rental.status === 'Serving' ? rental.innerIp : '',
    pub_ip: rental.status === 'Serving' ? rental.machine.address.host : '',
    use_start_time: rental.startMs === undefined ? null : rfc3339(rental.startMs),
    use_end_time: rental.endMs === undefined ? null : rfc3339(rental.endMs),
    create_channel: 'OutputPlatform',
    auto_renew_type: rental.autoRenew?.billingType ?? null,
  };
}

function orderItem(order: Order, total: number): Record<string, unknown> {
  const status = order.rentals.some((rental) => rental.status === 'Serving') ? 'Serving' : order.rentals.some((rental) => rental.status === 'Waiting') ? 'Waiting' : 'Finished';
  const models = new Map<string, Rental[]>();
  for (const rental of order.rentals) models.set(rental.product.gpu_model, [...(models.get(rental.product.gpu_model) ?? []), rental]);
  return {
    order_id: order.orderId,
    order_no: order.orderNo,
    status,
    buy_count: order.buyCount,
    total_price: total,
    create_time: rfc3339(order.createMs),
    billing_type: order.billingType,
    gpu_models: [...models].map(([model, rentals]) => ({
      gpu_model: model,
      gpu_count: rentals.reduce((sum, rental) => sum + rental.product.gpu_count, 0),
      order_details_id: rentals[0]?.orderDetailsId ?? 0,
      order_detail_status: rentals[0]?.status ?? 'Finished',
      total_price: rentals.length * (order.unitPrices[0] ?? 0) * order.buyCount,
      is_paid: true,
    })),
    discount_total_price: 0,
    actually_total_price: total,
    cancel_actually_total_price: 0,
    cancel_discount_total_price: 0,
  };
}

export function metalRoutes(catalogue: MetalCatalogue, rentals: RentalStore): Route[] {
  const post = (path: string, handle: Route['handle']): Route => ({ method: 'POST', path: `${BASE}${path}`, encryption: 'optional', handle });
  const rentedDevice = async (body: JsonObject): Promise<Rental> => {
    const deviceId = requireInt(body, 'device_id', { min: 1 });
    await rentals.advance();
    const rental = rentals.rental(deviceId);
    if (!rental) throw new SandboxFailure('C010', `device ${deviceId} is not rented by this account`);
    return rental;
  };
  return [
    post('/device-output/page_list_product_single_v2', ({ body }) => {
      const { page, pageSize } = paging(body);
      const conditional = asObject('conditional', body.conditional ?? invalidThrow('conditional'));
      requireEnum(conditional, 'billing_type', BILLING_TYPES, 'conditional.billing_type');
      const models = optionalModels(conditional, 'gpu_models', 'conditional.gpu_models', true);
      const zoneId = optionalInt(conditional, 'zone_id', 'conditional.zone_id');
      const gpuCount = optionalInt(conditional, 'gpu_count', 'conditional.gpu_count');
      const found = catalogue.singles.filter((item) => matches(item, models, zoneId, gpuCount));
      return { count: found.length, results: found.slice((page - 1) * pageSize, page * pageSize).map((item) => wireProduct(item)) };
    }),
    post('/device-output/page_list_product_network_v2', ({ body }) => {
      requireEnum(body, 'billing_type', BILLING_TYPES);
      const deviceCount = requireInt(body, 'device_count', { min: 1 });
      const networkType = requireEnum(body, 'network_type', NETWORK_TYPES);
      const zoneId = optionalInt(body, 'zone_id');
      const gpuCount = optionalInt(body, 'gpu_count');
      const models = optionalModels(body, 'gpu_models');
      return catalogue.groups
        .filter((group) => group.network_type === networkType && group.inner.length >= deviceCount && group.inner.every((item) => matches(item, models, zoneId, gpuCount)))
        .map((group) => ({ network_type: group.network_type, zone_name: group.zone_name, idc_name: group.idc_name, network_id: group.network_id, inner: group.inner.map((item) => wireProduct(item, true)) }));
    }),
    post('/device_order/buy_v2', async ({ body }) => {
      const billing = requireEnum(body, 'billing_type', BILLING_TYPES);
      const buyCount = requireInt(body, 'buy_count', { min: 1 });
      const inner = asArray('inner', body.inner ?? invalidThrow('inner'));
      const softwareInit = requireBool(body, 'software_init');
      if (!('discount_relation_id' in body)) throw invalidParam('discount_relation_id', 'is required (null for no coupon)');
      if (body.discount_relation_id !== null) {
        requireInt(body, 'discount_relation_id', { min: 1 });
        throw new SandboxFailure('C010', 'discount_relation_id: no such coupon for this account');
      }
      if (inner.length === 0) throw invalidParam('inner', 'must hold at least one machine');
      const items = inner.map((raw, index) => {
        const item = asObject(`inner[${index}]`, raw);
        return { deviceId: requireInt(item, 'device_id', { min: 1 }, `inner[${index}].device_id`), unitPrice: requireInt(item, 'unit_price', { min: 0 }, `inner[${index}].unit_price`) };
      });
      if (new Set(items.map((item) => item.deviceId)).size !== items.length) throw invalidParam('inner', 'names a machine twice');
      const first = items[0] as { deviceId: number };
      let group: NetworkGroup | undefined;
      const single = catalogue.single(first.deviceId);
      if (single) {
        if (items.length !== 1) throw invalidParam('inner', 'a single machine is bought with exactly one item, whatever buy_count');
      } else {
        group = catalogue.groupOf(first.deviceId);
        if (!group) throw new SandboxFailure('C010', `device_id ${first.deviceId} is not in the catalogue`);
        const members = new Set(group.inner.map((item) => item.device_id));
        const stranger = items.find((item) => !members.has(item.deviceId));
        if (stranger) throw invalidParam('inner', `device ${stranger.deviceId} is not in network group ${group.network_id}: one item per machine of one group`);
      }
      const products = items.map((item) => catalogue.product(item.deviceId) as Product);
      for (const product of products) {
        if (buyCount > product.max_buy_count) throw invalidParam('buy_count', `must not exceed max_buy_count ${product.max_buy_count} of device ${product.device_id}`);
      }
      const busy = (await rentals.active()).find((rental) => items.some((item) => item.deviceId === rental.deviceId));
      if (busy) throw new SandboxFailure('C010', `device ${busy.deviceId} is already rented`);
      for (const [index, item] of items.entries()) {
        const current = unitPrice(products[index] as Product, billing);
        // The price shown to the user must be the price at order time: a changed one is refused with the new price.
        if (item.unitPrice !== current) throw new SandboxFailure('C010', `inner[${index}].unit_price: the ${billing} price of device ${item.deviceId} is now ${current} points (sent ${item.unitPrice})`);
      }
      const order = rentals.buy(billing as BillingType, buyCount, products.map((product, index) => ({ product, unitPrice: items[index]?.unitPrice ?? 0 })), group, softwareInit);
      return { order_id: order.orderId };
    }),
    post('/device_order/get_order_list_v2', async ({ body }) => {
      const { page, pageSize } = paging(body);
      const conditional = asObject('conditional', body.conditional ?? invalidThrow('conditional'));
      const condition = conditional.condition;
      if (condition === undefined) throw invalidParam('conditional.condition', 'is required ("" for all)');
      if (typeof condition !== 'string') throw invalidParam('conditional.condition', 'expected a string');
      await rentals.advance();
      const found = rentals.orders
        .filter((order) => condition === '' || order.orderNo.includes(condition) || order.rentals.some((rental) => rental.product.gpu_model.includes(condition)))
        .reverse();
      return { count: found.length, results: found.slice((page - 1) * pageSize, page * pageSize).map((order) => orderItem(order, rentals.totalPrice(order))) };
    }),
    post('/device-output/list_rent_device_single_v2', async () => (await rentals.active()).filter((rental) => !rental.group).map(singleItem)),
    post('/device-output/list_rent_device_network_v2', async () => {
      const groups = new Map<number, Rental[]>();
      for (const rental of (await rentals.active()).filter((item) => item.group)) {
        const id = (rental.group as NetworkGroup).network_id;
        groups.set(id, [...(groups.get(id) ?? []), rental]);
      }
      return [...groups.values()].map((members) => {
        const group = (members[0] as Rental).group as NetworkGroup;
        return { network_id: group.network_id, network_type: group.network_type, network_name: `${group.network_type}-${group.network_id}`, inner: members.map(networkInner) };
      });
    }),
    post('/device_order/get_device_details_v2', async ({ body }) => detail(await rentedDevice(body))),
    post('/auto_renew_device_config/set_auto_renew_config', async ({ body }) => {
      const billing = requireEnum(body, 'billing_type', BILLING_TYPES);
      const useDiscount = requireBool(body, 'use_discount');
      const rental = await rentedDevice(body);
      if (rental.status !== 'Serving' && rental.status !== 'Waiting') throw new SandboxFailure('C010', `device ${rental.deviceId}'s rental has ended`);
      rental.autoRenew = { billingType: billing, useDiscount };
      return null;
    }),
    post('/auto_renew_device_config/delete_auto_renew_config', async ({ body }) => {
      const rental = await rentedDevice(body);
      rental.autoRenew = undefined;
      return null;
    }),
  ];
}

function invalidThrow(field: string): never {
  throw invalidParam(field, 'is required');
}
