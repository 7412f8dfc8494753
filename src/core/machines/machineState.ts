// Rented machines as a kind of remote state (core/state, CONTRIBUTING "Add a kind of remote state"):
// the single machines and every network group's machines, one row each, from the two rented lists
// (docs/machines.md), each with its order where one can be told (orderMatch.ts: read with the same listing,
// so the view's order rows and machine rows agree). A machine whose order ended (Finished, Canceled) is left out: the lists may still
// carry it next to a new rental of the same device. At rest unless a machine is Waiting (only that
// changes on its own; the rental's end is known from `use_end_time`).

import type { ComputeClient } from '../compute/api';
import type { StateDefinition } from '../state/definition';
import { packPrice } from './catalogueQuery';
import { BILLING_TYPES, type BillingType, type MetalOrder, type NetworkType, type OrderDetailStatus, type RentedGroupMachine, type RentedSingle } from './operations';
import { ordersExplain, withOrders, type OrderLink } from './orderMatch';

export interface RentedMachine {
  deviceId: number;
  status: OrderDetailStatus;
  billingType: BillingType;
  gpuModel: string;
  gpuCount: number;
  /** The rental window, ms (undefined while Waiting). */
  startMs: number | undefined;
  endMs: number | undefined;
  autoRenew: BillingType | undefined;
  /** Points one pack of the rented pack type costs (the row's own price for `billing_type`); undefined when not a price. */
  price: number | undefined;
  /** Points one renewal costs (the row's price for the auto-renew pack); undefined when off or not a price. */
  renewPrice: number | undefined;
  /** The row's own price of one pack of each type (what a renewal by that pack costs); a type left out has none. */
  packPrices?: Readonly<Partial<Record<BillingType, number>>>;
  innerIp: string;
  publicIp: string;
  /** Set for a machine of a network group. */
  group: { networkId: number; networkType: NetworkType; name: string } | undefined;
  /** The platform's `order_id` (single machines only) and `order_details_id` (every machine), as listed. */
  orderId?: number | undefined;
  orderDetailsId?: number | undefined;
  /** The machine's order, matched in the store (orderMatch.ts); undefined when it cannot be told. */
  order?: OrderLink | undefined;
}

const LIVE: readonly OrderDetailStatus[] = ['Default', 'Waiting', 'Serving'];

function time(text: string | null | undefined): number | undefined {
  if (!text) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}

function common(item: RentedSingle | RentedGroupMachine): Omit<RentedMachine, 'innerIp' | 'publicIp' | 'group'> {
  const autoRenew = item.auto_renew_type ?? undefined;
  return {
    deviceId: item.device_id,
    orderDetailsId: item.order_details_id,
    status: item.order_detail_status,
    billingType: item.billing_type,
    gpuModel: item.gpu_model,
    gpuCount: item.gpu_count,
    startMs: time(item.use_start_time),
    endMs: time(item.use_end_time),
    autoRenew,
    price: packPrice(item as never, item.billing_type),
    // The rented rows carry the catalogue's price fields (docs/machines.md); a value that is not a price is dropped.
    renewPrice: autoRenew === undefined ? undefined : packPrice(item as never, autoRenew),
    packPrices: Object.fromEntries(BILLING_TYPES.flatMap((type) => {
      const price = packPrice(item as never, type);
      return price === undefined ? [] : [[type, price]];
    })),
  };
}

/** Both rented lists as one row per live machine (the only caller of the two list operations). */
export async function readRentedMachines(client: ComputeClient, signal?: AbortSignal): Promise<RentedMachine[]> {
  const options = signal ? { signal } : undefined;
  const [singles, groups] = await Promise.all([client.call('metal.rentedSingle', {}, options), client.call('metal.rentedGroups', {}, options)]);
  const machines: RentedMachine[] = singles.map((item) => ({ ...common(item), orderId: item.order_id, innerIp: item.intranet_ip ?? '', publicIp: item.extranet_ip ?? '', group: undefined }));
  for (const group of groups) {
    for (const item of group.inner) {
      machines.push({ ...common(item), innerIp: item.inner_ip ?? '', publicIp: item.pub_ip ?? '', group: { networkId: group.network_id, networkType: group.network_type, name: group.network_name } });
    }
  }
  return machines.filter((machine) => LIVE.includes(machine.status));
}

/** Milliseconds of the rental left at `now` (0 once over; undefined while Waiting). */
export function timeLeftMs(machine: RentedMachine, now: number): number | undefined {
  return machine.endMs === undefined ? undefined : Math.max(0, machine.endMs - now);
}

const ORDER_PAGE_SIZE = 100;
/** Orders are read newest first until they explain the machines, at most this many pages. */
const ORDER_PAGES = 5;

/**
 * The orders that explain `machines` (orderMatch.ts): pages of the order list until every single machine's
 * order and one order of each network group is in them. The machines do not depend on it: when the order
 * list fails, the machines are listed without their orders (the Orders section shows that failure itself).
 */
async function ordersFor(client: ComputeClient, machines: readonly RentedMachine[], signal?: AbortSignal): Promise<MetalOrder[]> {
  const orders: MetalOrder[] = [];
  try {
    for (let page = 1; page <= ORDER_PAGES && machines.length > 0; page++) {
      const answer = await client.call('metal.orders', { page, page_size: ORDER_PAGE_SIZE, conditional: { condition: '' } }, signal ? { signal } : undefined);
      orders.push(...answer.results);
      if (ordersExplain(orders, machines) || answer.results.length < ORDER_PAGE_SIZE || orders.length >= answer.count) break;
    }
  } catch (error) {
    if (signal?.aborted) throw error;
  }
  return orders;
}

/** The rented machines, each with its order where one can be told (the store's listing). */
export async function readMachinesWithOrders(client: ComputeClient, signal?: AbortSignal): Promise<RentedMachine[]> {
  const machines = await readRentedMachines(client, signal);
  return withOrders(machines, await ordersFor(client, machines, signal));
}

const sameOrder = (a: OrderLink | undefined, b: OrderLink | undefined): boolean => a?.orderId === b?.orderId && a?.orderNo === b?.orderNo && a?.inferred === b?.inferred;

export const MACHINE_STATE: StateDefinition<RentedMachine, number, ComputeClient> = {
  kind: 'machines',
  key: (machine) => machine.deviceId,
  list: async (client, signal) => {
    const items = await readMachinesWithOrders(client, signal);
    return { items, complete: true, total: items.length };
  },
  atRest: (machines) => !machines.some((machine) => machine.status === 'Waiting' || machine.status === 'Default'),
  equal: (a, b) => a.status === b.status && a.startMs === b.startMs && a.endMs === b.endMs && a.autoRenew === b.autoRenew && a.renewPrice === b.renewPrice && BILLING_TYPES.every((type) => a.packPrices?.[type] === b.packPrices?.[type]) && a.price === b.price && a.innerIp === b.innerIp && a.publicIp === b.publicIp && sameOrder(a.order, b.order),
};
