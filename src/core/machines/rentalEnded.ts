// A rental that is over (Finished, Canceled, CanceledRefunded: platform-storage-and-metal.md §7): its
// login is gone for good, so whatever was connected to it says so once instead of retrying.

import { ConfigError, coreText } from '../errors';
import type { OrderDetailStatus } from './operations';

const ENDED: ReadonlySet<OrderDetailStatus> = new Set(['Finished', 'Canceled', 'CanceledRefunded']);

/** Whether a machine's order status means its rental is over. */
export function rentalIsOver(status: string | null | undefined): boolean {
  return ENDED.has(status as OrderDetailStatus);
}

/** The machine's rental ended: no login, no reconnect (a terminal, a run, a forward end here). */
export class RentalEndedError extends ConfigError {
  readonly code = 'rental-ended' as const;
  constructor(
    readonly deviceId: number,
    readonly status: string,
  ) {
    super(coreText('machines.rentalEnded', deviceId));
  }
}
