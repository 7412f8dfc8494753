// Storage on the platform: a page of the list, and the storage check (its body holds storage
// credentials, so it is always sent encrypted).

import { send, type ClientSource } from '../state/servicePorts';
import type { OperationParams, OperationResult } from '../compute/api';
import type { StorageCheckBody } from './operations';

export class StorageService {
  constructor(private readonly client: ClientSource) {}

  /** One page of storage of a type and status (the Storage view lists every page through core/tasks/listing). */
  page(params: OperationParams<'storage.list'>, signal?: AbortSignal): Promise<OperationResult<'storage.list'>> {
    return send(this.client, 'storage.list', params, signal);
  }

  encryptCheck(body: StorageCheckBody, signal?: AbortSignal): Promise<unknown> {
    return send(this.client, 'storage.encryptCheck', body, signal, { encrypt: true });
  }
}
