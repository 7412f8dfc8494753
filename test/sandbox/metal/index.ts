// The bare-metal area of the sandbox (docs/machines.md): the catalogue, orders and rented machines,
// each Serving machine a real SSH server on loopback (sshMachine.ts), and what tests can do to them.

import type { SandboxClock } from '../clock';
import type { Route } from '../compute/routes';
import { MetalCatalogue, type Product } from './catalogue';
import { RentalStore, type Rental } from './rentals';
import { metalRoutes } from './routes';
import type { SshMachine } from './sshMachine';

export type { Product } from './catalogue';
export type { SshMachine } from './sshMachine';

export interface MetalSandboxOptions {
  /** How long an order stays Waiting (ms, default 300; Infinity: never Serving). */
  waitingMs?: number;
}

export interface MetalControl {
  /** Lists (or changes) a single machine in the catalogue: hostile text, a new price. */
  addProduct(fields: Partial<Product> & { device_id: number }): void;
  /** Lists one more network group (its own network id and device ids). */
  addGroup(networkId: number, deviceIds: readonly number[]): void;
  /** How long orders placed from now on stay Waiting (Infinity: never Serving). */
  setWaitingMs(ms: number): void;
  /** The rented machine's SSH server (its home, logins, last window size), once ordered. */
  machine(deviceId: number): SshMachine | undefined;
  rental(deviceId: number): Rental | undefined;
  /** Ends the rental now (as `use_end_time` would): Finished, every SSH session closed. */
  endRental(deviceId: number): Promise<boolean>;
  /** The machine shows a new host key from now on. */
  rotateHostKey(deviceId: number): Promise<boolean>;
}

export interface MetalSandbox extends MetalControl {
  routes: Route[];
  close(): Promise<void>;
}

export function createMetalSandbox(clock: SandboxClock, options: MetalSandboxOptions = {}): MetalSandbox {
  const catalogue = new MetalCatalogue();
  const rentals = new RentalStore(catalogue, clock.realNow, { waitingMs: options.waitingMs ?? 300 });
  return {
    routes: metalRoutes(catalogue, rentals),
    addProduct: (fields) => void catalogue.addProduct(fields),
    addGroup: (networkId, deviceIds) => void catalogue.addGroup(networkId, deviceIds),
    setWaitingMs(ms) {
      if (!(ms >= 0)) throw new RangeError('waitingMs must be 0 or more');
      rentals.timings.waitingMs = ms;
    },
    machine: (deviceId) => rentals.rental(deviceId)?.machine,
    rental: (deviceId) => rentals.rental(deviceId),
    async endRental(deviceId) {
      const rental = rentals.rental(deviceId);
      if (!rental || (rental.status !== 'Serving' && rental.status !== 'Waiting')) return false;
      await rentals.finish(rental);
      return true;
    },
    async rotateHostKey(deviceId) {
      const rental = rentals.rental(deviceId);
      if (rental?.status !== 'Serving') return false;
      await rental.machine.rotateHostKey();
      return true;
    },
    close: () => rentals.close(),
  };
}
