// Storage checks on the platform: the only caller of the client for storage.encryptCheck (its body
// holds storage credentials, so it is always sent encrypted).

import { send, type ClientSource } from '../state/servicePorts';
import type { StorageCheckBody } from './operations';

export class StorageService {
  constructor(private readonly client: ClientSource) {}

  encryptCheck(body: StorageCheckBody, signal?: AbortSignal): Promise<unknown> {
    return send(this.client, 'storage.encryptCheck', body, signal, { encrypt: true });
  }
}
