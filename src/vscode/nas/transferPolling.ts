// The one place S3 ↔ NAS transfers are polled (the remote-state store can replace this file by following
// TRANSFER_STATE, core/nas/transferState.ts): the list is read when the Transfers group is shown, then
// again every 10 s (the platform's rule, docs/nas.md) only while a job is Queuing, Pending or Running.

import type { TransferRecord } from '../../core/nas/operations';
import type { TransferListing } from '../../core/nas/transferState';
import { MOVING_TRANSFER_STATUSES } from '../../core/nas/transferState';
import { errorMessage } from '../../shared/errorMessage';

export const TRANSFER_POLL_MS = 10_000;

export class TransferPolling {
  private timer: NodeJS.Timeout | undefined;
  private loading: Promise<void> | undefined;
  private controller: AbortController | undefined;
  listing: TransferListing | undefined;
  error: unknown;
  /** Listing calls made (the in-host tests compare it). */
  listings = 0;

  constructor(
    private readonly list: (signal: AbortSignal) => Promise<TransferListing>,
    private readonly changed: () => void,
    private readonly log: { warn(line: string): void },
    private readonly intervalMs = TRANSFER_POLL_MS,
  ) {}

  /** The current jobs (reading them once when needed). */
  async load(): Promise<readonly TransferRecord[]> {
    this.loading ??= this.fetch();
    await this.loading;
    return this.listing?.items ?? [];
  }

  /** Forgets the list (a refresh, an action of the user, a profile switch) and tells the view. */
  reload(): void {
    this.stop();
    this.controller?.abort();
    this.loading = undefined;
    this.changed();
  }

  /** Forgets the list and the last error (a profile switch). */
  reset(): void {
    this.listing = undefined;
    this.error = undefined;
    this.reload();
  }

  get active(): boolean {
    return this.timer !== undefined;
  }

  private async fetch(): Promise<void> {
    this.stop();
    const controller = new AbortController();
    this.controller = controller;
    try {
      this.listings += 1;
      const listing = await this.list(controller.signal);
      if (controller.signal.aborted) return;
      this.listing = listing;
      this.error = undefined;
      if (listing.items.some((record) => MOVING_TRANSFER_STATUSES.includes(record.status))) {
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.reload();
        }, this.intervalMs);
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      this.error = error;
      this.log.warn(`NAS: could not load the S3 transfers: ${errorMessage(error)}`);
    }
  }

  private stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.stop();
    this.controller?.abort();
  }
}
