// Orders and rented machines of the sandbox's bare metal (docs/machines.md): an order is Waiting for
// `waitingMs` (forever when a test says so), then Serving with a real SSH server per machine
// (sshMachine.ts) and its login in the device detail; the rental ends at `use_end_time` (packs ×
// pack length) unless auto-renew adds a pack, and an ended rental is Finished and its server closed.

import { randomBytes } from 'node:crypto';
import { PACK_MS, unitPrice, type BillingType, type MetalCatalogue, type NetworkGroup, type Product } from './catalogue';
import { SshMachine } from './sshMachine';

export type OrderStatus = 'Default' | 'Waiting' | 'Serving' | 'Finished' | 'Canceled';

export interface Rental {
  deviceId: number;
  orderId: number;
  orderDetailsId: number;
  product: Product;
  group: NetworkGroup | undefined;
  billingType: BillingType;
  status: OrderStatus;
  innerIp: string;
  startMs: number | undefined;
  endMs: number | undefined;
  autoRenew: { billingType: BillingType; useDiscount: boolean } | undefined;
  machine: SshMachine;
}

export interface Order {
  orderId: number;
  orderNo: string;
  billingType: BillingType;
  buyCount: number;
  createMs: number;
  unitPrices: number[];
  rentals: Rental[];
  softwareInit: boolean;
}

export interface MetalTimings {
  /** How long an order stays Waiting (ms); Infinity: never Serving. */
  waitingMs: number;
}

const RFC3339 = (ms: number): string => new Date(ms).toISOString().replace('Z', '+00:00');
export const rfc3339 = RFC3339;

export class RentalStore {
  readonly orders: Order[] = [];
  private nextOrder = 70001;
  private nextDetail = 80001;
  private nextInner = 11;

  constructor(
    readonly catalogue: MetalCatalogue,
    private readonly now: () => number,
    readonly timings: MetalTimings,
  ) {}

  /** Machines whose order has not ended (the rented lists), after moving every clock-driven state. */
  async active(): Promise<Rental[]> {
    await this.advance();
    return this.orders.flatMap((order) => order.rentals).filter((rental) => rental.status === 'Waiting' || rental.status === 'Serving');
  }

  rental(deviceId: number): Rental | undefined {
    const all = this.orders.flatMap((order) => order.rentals).filter((rental) => rental.deviceId === deviceId);
    return all.find((rental) => rental.status === 'Waiting' || rental.status === 'Serving') ?? all.at(-1);
  }

  /** Moves Waiting → Serving (starting the SSH server) and Serving → Finished (or renewed) by the clock. */
  async advance(): Promise<void> {
    const now = this.now();
    for (const order of this.orders) {
      for (const rental of order.rentals) {
        if (rental.status === 'Waiting' && now - order.createMs >= this.timings.waitingMs) {
          await rental.machine.start();
          rental.status = 'Serving';
          rental.startMs = now;
          rental.endMs = now + order.buyCount * PACK_MS[order.billingType];
        }
        while (rental.status === 'Serving' && rental.endMs !== undefined && now >= rental.endMs) {
          if (rental.autoRenew) rental.endMs += PACK_MS[rental.autoRenew.billingType];
          else await this.finish(rental);
        }
      }
    }
  }

  async finish(rental: Rental): Promise<void> {
    rental.status = 'Finished';
    rental.autoRenew = undefined;
    await rental.machine.dispose();
  }

  buy(billingType: BillingType, buyCount: number, items: { product: Product; unitPrice: number }[], group: NetworkGroup | undefined, softwareInit: boolean): Order {
    const orderId = this.nextOrder++;
    const order: Order = {
      orderId,
      orderNo: `BM${orderId}${randomBytes(3).toString('hex').toUpperCase()}`,
      billingType,
      buyCount,
      createMs: this.now(),
      unitPrices: items.map((item) => item.unitPrice),
      softwareInit,
      rentals: [],
    };
    order.rentals = items.map(({ product }) => ({
      deviceId: product.device_id,
      orderId,
      orderDetailsId: this.nextDetail++,
      product,
      group,
      billingType,
      status: 'Waiting',
      innerIp: `10.20.0.${this.nextInner++}`,
      startMs: undefined,
      endMs: undefined,
      autoRenew: undefined,
      machine: new SshMachine({ username: 'root', password: `Pw-${randomBytes(9).toString('base64url')}` }),
    }));
    this.orders.push(order);
    return order;
  }

  totalPrice(order: Order): number {
    return order.rentals.reduce((sum, rental) => sum + unitPrice(rental.product, order.billingType) * order.buyCount, 0);
  }

  async close(): Promise<void> {
    await Promise.all(this.orders.flatMap((order) => order.rentals).map((rental) => rental.machine.dispose()));
  }
}
