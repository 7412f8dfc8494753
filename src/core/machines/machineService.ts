// The machines service (docs/machines.md): the only caller of the client for the bare-metal operations
// besides the store's listing (machineState.ts); it wakes the store after a change. Renting sends the
// catalogue's unit price; a refusal because the price changed becomes PriceChangedError with the new
// price (nothing was ordered). Connecting reads the login of a Serving machine and hands it to
// connect.ts; the password goes no further.

import type { ComputeClient } from '../compute/api';
import { ComputeApiError } from '../compute/errors';
import { AbortedError, ConfigError, coreText } from '../errors';
import { sleep } from '../http/retry';
import { listAll } from '../tasks/listing';
import { duration } from '../duration';
import type { Logger } from '../log';
import { totalPoints, unitPriceOf } from './catalogue';
import type { MachineLogin } from './connect';
import { readRentedMachines, type RentedMachine } from './machineState';
import type { CatalogueEntry } from './catalogueQuery';
import { NETWORK_TYPES, type BillingType, type DeviceDetail, type GroupCatalogueQuery, type MetalGroup, type MetalOrder, type MetalProduct } from './operations';

import { PriceChangedError } from './priceChanged';
import { RentalEndedError, rentalIsOver } from './rentalEnded';

export { PriceChangedError };

export interface RentRequest {
  /** One single machine, or the machines of one network group. */
  products: readonly MetalProduct[];
  billing: BillingType;
  packs: number;
  softwareInit: boolean;
}

export interface WaitOptions {
  pollMs?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  now?: () => number;
  /** Waits between polls (tests pass one that resolves at once). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const PAGE_SIZE = 100;
/** The most catalogue machines or orders read (50 pages): the view shows a few; a hostile count ends here. */
const CATALOGUE_CAP = 5_000;

export class MachineService {
  constructor(
    private readonly client: ComputeClient,
    /** Wakes the remote-state store (the rented machines changed). */
    private readonly wake: () => void = () => undefined,
    private readonly logger?: Logger,
  ) {}

  /**
   * Single machines for `billing` (every page, at most CATALOGUE_CAP; `gpuModels` empty = all), each machine
   * once: a listing that shifts between pages repeats a row, and the view's rows are keyed by machine.
   */
  async singles(billing: BillingType, filters: { gpuModels?: string[]; zoneId?: number; gpuCount?: number } = {}, signal?: AbortSignal): Promise<MetalProduct[]> {
    const conditional = { billing_type: billing, gpu_models: filters.gpuModels ?? [], ...(filters.zoneId !== undefined ? { zone_id: filters.zoneId } : {}), ...(filters.gpuCount !== undefined ? { gpu_count: filters.gpuCount } : {}) };
    const fetchPage = (page: number, pageSize: number, pageSignal?: AbortSignal) => this.client.call('metal.catalogueSingle', { page, page_size: pageSize, conditional }, pageSignal ? { signal: pageSignal } : undefined);
    return (await listAll(fetchPage, { pageSize: PAGE_SIZE, cap: CATALOGUE_CAP, key: (product) => product.device_id, ...(signal ? { signal } : {}) })).items;
  }

  groups(query: GroupCatalogueQuery, signal?: AbortSignal): Promise<MetalGroup[]> {
    return this.client.call('metal.catalogueGroups', query, signal ? { signal } : undefined);
  }

  /**
   * The whole catalogue for `billing`: every single machine, and the network groups of every network type
   * offering at least `groupSize` machines (the group listing needs a machine count and a network type).
   */
  async catalogue(billing: BillingType, groupSize = 2, signal?: AbortSignal): Promise<CatalogueEntry[]> {
    const [singles, ...groups] = await Promise.all([
      this.singles(billing, {}, signal),
      ...NETWORK_TYPES.map((networkType) => this.groups({ billing_type: billing, device_count: groupSize, network_type: networkType }, signal)),
    ]);
    return [...singles.map((product) => ({ kind: 'single' as const, product })), ...groups.flat().map((group) => ({ kind: 'group' as const, group }))];
  }

  /** Every order (every page, at most CATALOGUE_CAP), each once: a row repeated across pages is dropped. */
  async orders(signal?: AbortSignal): Promise<MetalOrder[]> {
    const fetchPage = (page: number, pageSize: number, pageSignal?: AbortSignal) => this.client.call('metal.orders', { page, page_size: pageSize, conditional: { condition: '' } }, pageSignal ? { signal: pageSignal } : undefined);
    return (await listAll(fetchPage, { pageSize: PAGE_SIZE, cap: CATALOGUE_CAP, key: (order) => order.order_id, ...(signal ? { signal } : {}) })).items;
  }

  /** The rented machines, read now as the store reads them (the agent tools; the editor reads the store). */
  rented(signal?: AbortSignal): Promise<RentedMachine[]> {
    return readRentedMachines(this.client, signal);
  }

  /** The total the user confirms: unit price × packs (× machines for a group), in points. */
  total(request: RentRequest): number {
    return totalPoints(request.products, request.billing, request.packs);
  }

  /** Places the order; a changed price is PriceChangedError (with the new price) and nothing is ordered. */
  async rent(request: RentRequest, signal?: AbortSignal): Promise<number> {
    const inner = request.products.map((product) => ({ device_id: product.device_id, unit_price: unitPriceOf(product, request.billing) }));
    try {
      const { order_id } = await this.client.call('metal.buy', { billing_type: request.billing, buy_count: request.packs, inner, software_init: request.softwareInit, discount_relation_id: null }, signal ? { signal } : undefined);
      this.logger?.info(`machines: order ${order_id} placed (${inner.length} machine(s), ${request.packs} × ${request.billing})`);
      return order_id;
    } catch (error) {
      if (error instanceof ComputeApiError) await this.priceChange(request, inner, error, signal);
      throw error;
    } finally {
      this.wake();
    }
  }

  /** After a refused buy: when a price now differs from the one sent, say so with the new price. */
  private async priceChange(request: RentRequest, sent: { device_id: number; unit_price: number }[], cause: unknown, signal?: AbortSignal): Promise<void> {
    const grouped = request.products.some((product) => product.network_id !== null);
    const now = grouped
      ? ((await this.groups({ billing_type: request.billing, device_count: request.products.length, network_type: request.products[0]?.network_type ?? 'Ib' }, signal)).find((group) => group.network_id === request.products[0]?.network_id)?.inner ?? [])
      : await this.singles(request.billing, {}, signal);
    for (const item of sent) {
      const current = now.find((product) => product.device_id === item.device_id);
      if (current && unitPriceOf(current, request.billing) !== item.unit_price) throw new PriceChangedError(item.device_id, unitPriceOf(current, request.billing), request.billing, { cause });
    }
  }

  detail(deviceId: number, signal?: AbortSignal): Promise<DeviceDetail> {
    return this.client.call('metal.detail', { device_id: deviceId }, signal ? { signal } : undefined);
  }

  /** The login of a Serving machine (`pub_ip:ssh_port`, user, password); refused before Serving. */
  async login(deviceId: number, signal?: AbortSignal): Promise<MachineLogin> {
    const detail = await this.detail(deviceId, signal);
    const status = detail.order_detail_status ?? 'Serving';
    if (rentalIsOver(status)) throw new RentalEndedError(deviceId, status);
    if (status !== 'Serving' || detail.ssh_port === null || !detail.pub_ip || !detail.device_username) {
      throw new ConfigError(coreText('machines.notServing', deviceId, status));
    }
    return { host: detail.pub_ip, port: detail.ssh_port, username: detail.device_username, password: detail.device_passwd };
  }

  /** Polls the machine until it is Serving; a bounded wait (default 45 minutes: Proxy/Direct take about 30). */
  async waitForServing(deviceId: number, options: WaitOptions = {}): Promise<DeviceDetail> {
    const now = options.now ?? Date.now;
    const timeoutMs = options.timeoutMs ?? 45 * 60_000;
    const sleep = options.sleep ?? delay;
    const started = now();
    for (;;) {
      if (options.signal?.aborted) throw new AbortedError('Waiting for the machine was cancelled.');
      const detail = await this.detail(deviceId, options.signal);
      const status = detail.order_detail_status ?? 'Serving';
      if (status === 'Serving' && detail.ssh_port !== null) {
        this.wake();
        return detail;
      }
      if (rentalIsOver(status) || now() - started >= timeoutMs) {
        throw new ConfigError(coreText('machines.neverServing', deviceId, duration(timeoutMs / 1000, { precision: 'minute', round: 'nearest' }), status));
      }
      await sleep(options.pollMs ?? 10_000, options.signal);
    }
  }

  async setAutoRenew(deviceId: number, billing: BillingType, useDiscount: boolean): Promise<void> {
    await this.client.call('metal.setAutoRenew', { billing_type: billing, device_id: deviceId, use_discount: useDiscount });
    this.wake();
  }

  async cancelAutoRenew(deviceId: number): Promise<void> {
    await this.client.call('metal.cancelAutoRenew', { device_id: deviceId });
    this.wake();
  }
}

/** The shared abortable wait (http/retry.ts: rejects at once on a signal already aborted), with this wait's words. */
function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return sleep(ms, signal).catch((error: unknown) => {
    throw error instanceof AbortedError ? new AbortedError('Waiting for the machine was cancelled.') : error;
  });
}
