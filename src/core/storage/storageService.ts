// Storage on the platform: a page of the list, and the storage check (its body holds storage
// credentials, so it is always sent encrypted).

import { send, type ClientSource } from '../state/servicePorts';
import type { OperationParams, OperationResult, StorageItem } from '../compute/api';
import { listStorage, type Listed, type ListOptions } from '../tasks/listing';
import type { StorageCheckBody } from './operations';

export class StorageService {
  constructor(private readonly client: ClientSource) {}

  /** One page of storage of a type and status (the Storage view lists every page through core/tasks/listing). */
  page(params: OperationParams<'storage.list'>, signal?: AbortSignal): Promise<OperationResult<'storage.list'>> {
    return send(this.client, 'storage.list', params, signal);
  }

  /** Every page of storage of a type and statuses, up to the listing cap (core/tasks/listing). */
  list(query: { storageType: string; statuses: readonly string[] }, options?: Omit<ListOptions<StorageItem>, 'key'>): Promise<Listed<StorageItem>> {
    return listStorage(this.client(), query, options);
  }

  encryptCheck(body: StorageCheckBody, signal?: AbortSignal): Promise<unknown> {
    return send(this.client, 'storage.encryptCheck', body, signal, { encrypt: true });
  }
}
