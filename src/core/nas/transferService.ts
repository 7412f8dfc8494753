// S3 ⇄ NAS transfers on the platform: the only caller of the client for creating, retrying, stopping
// and deleting a transfer. Every change wakes the store once.

import { NO_WAKE, send, type ClientSource, type WakeStore } from '../state/servicePorts';
import type { TransferCreateBody } from './operations';
import { createTransfer } from './volumes';

export class TransferService {
  constructor(
    private readonly client: ClientSource,
    private readonly wake: WakeStore = NO_WAKE,
  ) {}

  /** Checks the object-storage connection, then creates the transfer (or retries `retryOf`). */
  async create(body: TransferCreateBody, options: { retryOf?: number; signal?: AbortSignal } = {}): Promise<{ id: number; status: string }> {
    const created = await createTransfer(this.client(), body, options);
    await this.wake();
    return created;
  }

  async stop(transferId: number, signal?: AbortSignal): Promise<void> {
    await send(this.client, 'nas.transferStop', { id: transferId }, signal);
    await this.wake();
  }

  /** Deletes the record only: the volume and the files already copied stay. */
  async remove(transferId: number, signal?: AbortSignal): Promise<void> {
    await send(this.client, 'nas.transferDelete', { id: transferId }, signal);
    await this.wake();
  }
}
