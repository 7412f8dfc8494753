// The storage (bucket) operations: each entry's params and result types sit beside it (CONTRIBUTING.md,
// "Add a platform operation"); src/core/compute/catalog.ts assembles the area catalogs into one.


import { declare, int, paging, query, str } from '../compute/operationEntry';
import type { Paged } from '../compute/wire';

export interface StorageItem {
  storage_id: number;
  storage_type: 'Juicefs' | 'ShareStorage';
  storage_name: string;
  juicefs_region_id: number;
  bucket: string;
  dir: string;
  endpoint: string;
  status: 'Activate' | 'Unactivated' | 'Delete';
  create_time?: string;
  /** Capacity and usage in bytes (not always sent). */
  size?: number | null;
  use_size?: number | null;
  [more: string]: unknown;
}

export interface StorageCheckBody {
  storage_name: string;
  juicefs_region_id: number;
  bucket: string;
  dir: string;
  endpoint: string;
  access_key: string;
  secret_key: string;
}

export const STORAGE_OPERATIONS = {
  'storage.list': declare<{ params: { storage_type: string; status: string; page?: number; page_size?: number }; result: Paged<StorageItem> }>({
    title: 'List storage',
    effect: 'read',
    method: 'GET',
    path: '/api/storage/get_storage',
    encryption: 'never',
    idempotent: true,
    fields: [query('storage_type', 'Juicefs'), query('status', 'Activate,Unactivated'), ...paging],
  }),
  'storage.encryptCheck': declare<{ params: StorageCheckBody; result: unknown }>({
    title: 'Check storage credentials',
    effect: 'read',
    method: 'POST',
    path: '/api/storage/encrypt/check',
    encryption: 'required',
    idempotent: true,
    fields: [
      str('storage_name', true),
      int('juicefs_region_id', true),
      str('bucket', true),
      str('dir', true),
      str('endpoint', true),
      str('access_key', true, true),
      str('secret_key', true, true),
    ],
  }),
};
