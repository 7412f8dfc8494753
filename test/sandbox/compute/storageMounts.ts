// Object-storage and shared-storage mounts of a task or job service (docs/sandbox-rules.md): each
// `storage_config` item names a Juicefs storage and each `share_storage_config` item a ShareStorage
// volume of /api/storage/get_storage (storage reference §2.10: "whose ids come from get_storage"),
// never a NAS volume id and never a deleted storage. The item shapes are checked by the body parsers.

import type { StorageItem } from '../../../src/core/compute/api';
import { invalidParam } from './codes';

type Mount = { storage_id?: unknown };
type MountedService = { storage_config?: readonly Mount[] | null; share_storage_config?: readonly Mount[] | null };

const KINDS = [
  { key: 'storage_config', type: 'Juicefs', what: 'an object storage (Juicefs)' },
  { key: 'share_storage_config', type: 'ShareStorage', what: 'a shared storage (ShareStorage)' },
] as const;

export function checkStorageMounts(services: readonly MountedService[], storage: readonly StorageItem[]): void {
  services.forEach((service, serviceIndex) => {
    for (const kind of KINDS) {
      (service[kind.key] ?? []).forEach((mount, index) => {
        const item = storage.find((candidate) => candidate.storage_id === mount.storage_id);
        const path = `services[${serviceIndex}].${kind.key}[${index}].storage_id`;
        if (!item || item.status === 'Delete') throw invalidParam(path, `${String(mount.storage_id)} is not ${kind.what} of get_storage`);
        if (item.storage_type !== kind.type) throw invalidParam(path, `${item.storage_id} is a ${item.storage_type} storage, not ${kind.what}`);
      });
    }
  });
}
