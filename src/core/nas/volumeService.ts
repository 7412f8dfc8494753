// NAS volumes on the platform: the only caller of the client for creating, expanding, renaming and
// deleting a volume, for the usage summary and for a volume's SFTP session (what NasSessions obtains and
// closes, sessions.ts). Every change of a volume wakes the store once.

import { NO_WAKE, send, type ClientSource, type WakeStore } from '../state/servicePorts';
import type { NasSummary, NasVolume, SftpSessionInfo, VolumeAnswer } from './operations';
import type { SessionApi } from './sessions';
import { createChoices, deleteBlock, getVolume, listVolumes, requireMountableVolume, type CreateChoice, type DeleteBlock } from './volumes';

export class VolumeService implements SessionApi {
  constructor(
    private readonly client: ClientSource,
    private readonly wake: WakeStore = NO_WAKE,
  ) {}

  async create(params: { name: string; nasConfigId: number; totalSize: number }, signal?: AbortSignal): Promise<VolumeAnswer> {
    const created = await send(this.client, 'nas.create', { name: params.name, nas_config_id: params.nasConfigId, total_size: params.totalSize }, signal);
    await this.wake();
    return created;
  }

  async expand(storageId: number, totalSize: number, signal?: AbortSignal): Promise<void> {
    await send(this.client, 'nas.expand', { id: storageId, total_size: totalSize }, signal);
    await this.wake();
  }

  async rename(storageId: number, name: string, signal?: AbortSignal): Promise<void> {
    await send(this.client, 'nas.rename', { id: storageId, name }, signal);
    await this.wake();
  }

  /** Deletes the volume and every file on it. */
  async remove(storageId: number, signal?: AbortSignal): Promise<void> {
    await send(this.client, 'nas.delete', { id: storageId }, signal);
    await this.wake();
  }

  /** Every volume matching the filter, page after page (the agent tools; the editor reads the store). */
  list(filter: { regions?: string; statuses?: string; storage_ids?: string } = {}, signal?: AbortSignal): Promise<NasVolume[]> {
    return listVolumes(this.client(), filter, signal);
  }

  /** The volume, read now, or undefined when there is none with this id. */
  get(storageId: number, signal?: AbortSignal): Promise<NasVolume | undefined> {
    return getVolume(this.client(), storageId, signal);
  }

  /** What may be created: region, class and price of each configuration. */
  choices(signal?: AbortSignal): Promise<CreateChoice[]> {
    return createChoices(this.client(), signal);
  }

  /** Why the volume cannot be deleted now (mounted, transfers running, its status), or undefined. */
  deleteBlock(volume: NasVolume, signal?: AbortSignal): Promise<DeleteBlock | undefined> {
    return deleteBlock(this.client(), volume, signal);
  }

  /** The volume, read now, if a task in `regionName` can mount it; throws saying why not otherwise. */
  requireMountable(storageId: number, regionName: string, signal?: AbortSignal): Promise<NasVolume> {
    return requireMountableVolume(this.client(), storageId, regionName, signal);
  }

  summary(signal?: AbortSignal): Promise<NasSummary> {
    return send(this.client, 'nas.summary', {}, signal);
  }

  /** The volume's SFTP session (Pending until the platform has started it; obtaining again is idempotent). */
  sftpObtain(storageId: number, signal?: AbortSignal): Promise<SftpSessionInfo | null> {
    return send(this.client, 'nas.sftpObtain', { storage_id: storageId }, signal);
  }

  /** Closes the volume's SFTP session on the platform: its credentials stop working. */
  async sftpDestroy(storageId: number, signal?: AbortSignal): Promise<void> {
    await send(this.client, 'nas.sftpDestroy', { storage_id: storageId }, signal);
  }
}
