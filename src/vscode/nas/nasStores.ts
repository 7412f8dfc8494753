// What the NAS commands (and the in-host tests) read of the volume and transfer stores of the remote state;
// the view itself is the one kind tree over volumeKind.ts.
import type { NasVolume, TransferRecord } from '../../core/nas/operations';
import { TRANSFER_STATE } from '../../core/nas/transferState';
import { VOLUME_STATE } from '../../core/nas/volumeState';
import type { RemoteState } from '../state/index';

export class NasStores {
  constructor(
    private readonly state: RemoteState,
    private readonly hasProfile: () => boolean,
  ) {}

  /** Something was set moving (a create, an expand, a delete): the stores look again within the platform's floor. */
  wake(): void {
    this.state.wake();
  }

  /** The stores list now (after a change the user waits to see). */
  reload(): Promise<void> {
    return this.state.refresh();
  }

  /** The active profile's volumes as the store holds them (its first look awaited when needed). */
  async volumes(): Promise<NasVolume[]> {
    if (!this.hasProfile()) return [];
    return [...(await this.state.items(VOLUME_STATE))];
  }

  /** The active profile's S3 transfers as the store holds them (its first look awaited when needed). */
  async transfers(): Promise<readonly TransferRecord[]> {
    if (!this.hasProfile()) return [];
    return this.state.items(TRANSFER_STATE);
  }

  /** The volumes the store holds now, undefined before its first look. */
  get listed(): readonly NasVolume[] | undefined {
    const store = this.state.store(VOLUME_STATE);
    return store?.loaded ? store.items : undefined;
  }

  /** True while the volume store is polled on its own: a volume is Creating, Expanding or Deleting. */
  get volumesPolling(): boolean {
    const store = this.state.store(VOLUME_STATE);
    return store !== undefined && store.loaded && !store.atRest;
  }

  /** True while the transfer store is polled on its own: a job is Queuing, Pending or Running. */
  get transfersPolling(): boolean {
    const store = this.state.store(TRANSFER_STATE);
    return store !== undefined && store.loaded && !store.atRest;
  }
}
