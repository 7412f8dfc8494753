// POST /api/storage/encrypt/check: validates the decrypted fields the catalog declares and answers
// `{pass, message}` like its NAS sibling (docs/platform.md). Credentials are checked for
// presence only and never echoed back.

import type { StorageItem } from '../../../src/core/compute/api';
import { invalidParam } from './codes';
import { requireInt, requireString, type JsonObject } from './params';

/** A bare host name such as tos-s3-cn-beijing.volces.com: no scheme, path or port. */
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

export interface StorageCheckResult {
  pass: boolean;
  message: string | null;
}

export function checkStorage(body: JsonObject, storage: readonly StorageItem[]): StorageCheckResult {
  requireString(body, 'storage_name');
  requireInt(body, 'juicefs_region_id', { min: 0 });
  const bucket = requireString(body, 'bucket');
  if (typeof body.dir !== 'string') throw invalidParam('dir', body.dir === undefined ? 'is required' : 'expected a string');
  const endpoint = requireString(body, 'endpoint');
  if (!HOST_NAME.test(endpoint)) {
    throw invalidParam('endpoint', 'expected the storage service host name (e.g. tos-s3-cn-beijing.volces.com), without scheme, path or port');
  }
  for (const secretField of ['access_key', 'secret_key'] as const) {
    if (typeof body[secretField] !== 'string') throw invalidParam(secretField, body[secretField] === undefined ? 'is required' : 'expected a string');
  }

  const known = storage.find((item) => item.bucket === bucket && item.endpoint.toLowerCase() === endpoint.toLowerCase());
  if (!known) return { pass: false, message: `bucket "${bucket}" was not found at ${endpoint}` };
  if (body.access_key === '' || body.secret_key === '') return { pass: false, message: 'access denied: access_key and secret_key must not be empty' };
  return { pass: true, message: null };
}
