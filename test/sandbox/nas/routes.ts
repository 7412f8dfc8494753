// The NAS, SFTP-session and S3-transfer routes of interface A (docs/nas.md), as strict as the
// platform's docs: required fields, enums, ranges, and the three encrypt/s3 calls RSA-only with an
// encrypted text/plain body (the compute handler refuses token-mode keys and plain JSON for them).

import { SandboxFailure, invalidParam } from '../compute/codes';
import { asArray, queryInt, queryList, requireInt, type JsonObject, type Paging } from '../compute/params';
import type { Route } from '../compute/routes';
import type { SessionStore } from './sessions';
import type { SandboxSftpServer } from './sftpServer';
import { TRANSFER_STATUSES, type TransferInput, type TransferStore } from './transfers';
import { DICTIONARIES, VOLUME_STATUSES, type VolumeStore } from './volumes';

const NAS = '/api/storage/nas/v1';
const MAX_NAS_PAGE_SIZE = 100;

/** `page` ≤ 0 reads as 1 and `page_size` ≤ 0 as 10 (the docs say so); above 100 is refused. */
function nasPaging(query: URLSearchParams): Paging {
  const page = queryInt(query, 'page') ?? 1;
  const size = queryInt(query, 'page_size') ?? 10;
  if (size > MAX_NAS_PAGE_SIZE) throw invalidParam('page_size', `must be at most ${MAX_NAS_PAGE_SIZE}, got ${size}`);
  return { page: page <= 0 ? 1 : page, pageSize: size <= 0 ? 10 : size };
}

function volumeName(body: JsonObject): string {
  const value = body.name;
  if (value === undefined) throw invalidParam('name', 'is required');
  if (typeof value !== 'string') throw invalidParam('name', 'expected a string');
  const trimmed = value.trim();
  if ([...trimmed].length < 1 || [...trimmed].length > 32) throw invalidParam('name', 'must be 1–32 characters after trimming');
  return trimmed;
}

function optionalBool(body: JsonObject, key: string): boolean {
  const value = body[key];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw invalidParam(key, 'expected a boolean');
  return value;
}

function stringField(body: JsonObject, key: string, options: { required: boolean; allowEmpty?: boolean }): string {
  const value = body[key];
  if (value === undefined || value === null) {
    if (options.required) throw invalidParam(key, 'is required');
    return '';
  }
  if (typeof value !== 'string') throw invalidParam(key, 'expected a string');
  if (options.required && !options.allowEmpty && value.trim() === '') throw invalidParam(key, 'must not be empty');
  return value;
}

function idList(query: URLSearchParams, field: string): number[] | undefined {
  const items = queryList(query, field);
  return items?.map((item) => {
    if (!/^\d{1,15}$/.test(item)) throw invalidParam(field, `"${item.slice(0, 20)}" is not an id`);
    return Number(item);
  });
}

function transferInput(body: JsonObject): TransferInput {
  const direction = requireInt(body, 'direction', { min: 1, max: 2 }) as 1 | 2;
  const policy = body.overwrite_policy === undefined || body.overwrite_policy === null ? 2 : requireInt(body, 'overwrite_policy', { min: 1, max: 3 });
  const patterns = body.ignore_patterns === undefined || body.ignore_patterns === null ? [] : asArray('ignore_patterns', body.ignore_patterns);
  patterns.forEach((p, i) => {
    if (typeof p !== 'string') throw invalidParam(`ignore_patterns[${i}]`, 'expected a string');
  });
  return {
    storageId: requireInt(body, 'storage_id', { min: 1 }),
    name: stringField(body, 'name', { required: false }),
    direction,
    supplier: stringField(body, 's3_supplier', { required: true }),
    endpoint: stringField(body, 's3_endpoint', { required: true }),
    accessKey: stringField(body, 's3_access_key', { required: true }),
    secretKey: stringField(body, 's3_secret_key', { required: true }),
    bucket: stringField(body, 's3_bucket', { required: true }),
    prefix: stringField(body, 's3_prefix', { required: false }),
    nasPath: stringField(body, 'nas_path', { required: false }),
    overwritePolicy: policy as 1 | 2 | 3,
    ignorePatterns: patterns as string[],
  };
}

export function nasRoutes(volumes: VolumeStore, sessions: SessionStore, sftp: SandboxSftpServer, transfers: TransferStore): Route[] {
  const volumeAnswer = (id: number, status: string) => ({ storage_id: id, status, message: null });
  return [
    { method: 'GET', path: `${NAS}/summary`, encryption: 'never', handle: () => volumes.summary() },
    { method: 'GET', path: `${NAS}/dictionaries`, encryption: 'never', handle: () => structuredClone(DICTIONARIES) },
    { method: 'GET', path: `${NAS}/pre-create`, encryption: 'never', handle: () => ({ configs: volumes.configs.map((c) => ({ ...c, region: { ...c.region } })) }) },
    {
      method: 'GET',
      path: `${NAS}/list`,
      encryption: 'never',
      handle: ({ query }) => {
        // Deleted is accepted and ignored (the docs say so); anything else outside the enum is refused.
        const statuses = queryList(query, 'statuses', [...VOLUME_STATUSES, 'Deleted'])?.filter((s) => s !== 'Deleted');
        return volumes.list(
          {
            regions: queryList(query, 'regions'),
            classes: queryList(query, 'storage_class'),
            ...(statuses ? { statuses } : {}),
            ids: idList(query, 'storage_ids'),
          },
          nasPaging(query),
        );
      },
    },
    {
      method: 'POST',
      path: `${NAS}/create`,
      encryption: 'never',
      handle: ({ body }) => {
        const name = volumeName(body);
        const record = volumes.create(name, requireInt(body, 'nas_config_id', { min: 1 }), requireInt(body, 'total_size', { min: 1 }));
        return volumeAnswer(record.id, record.phase);
      },
    },
    {
      method: 'POST',
      path: `${NAS}/expand`,
      encryption: 'never',
      handle: ({ body }) => {
        const record = volumes.expand(requireInt(body, 'id', { min: 1 }), requireInt(body, 'total_size', { min: 1 }));
        return volumeAnswer(record.id, record.phase);
      },
    },
    {
      method: 'POST',
      path: `${NAS}/rename`,
      encryption: 'never',
      handle: ({ body }) => {
        const id = requireInt(body, 'id', { min: 1 });
        const record = volumes.rename(id, volumeName(body));
        return volumeAnswer(record.id, record.phase);
      },
    },
    {
      method: 'POST',
      path: `${NAS}/delete`,
      encryption: 'never',
      handle: ({ body }) => {
        const id = requireInt(body, 'id', { min: 1 });
        stringField(body, 'reason', { required: false });
        const { status } = volumes.delete(id, optionalBool(body, 'force'));
        if (status === 'Deleted' || status === 'Deleting') sessions.destroy(id);
        return volumeAnswer(id, status);
      },
    },
    {
      method: 'POST',
      path: `${NAS}/sftp/obtain`,
      encryption: 'never',
      handle: async ({ body }) => {
        const id = requireInt(body, 'storage_id', { min: 1 });
        const volume = volumes.require(id, 'storage_id');
        if (volume.phase !== 'Active' && volume.phase !== 'Expanding') {
          throw invalidParam('storage_id', `volume ${id} is ${volume.phase}: SFTP needs an Active volume`);
        }
        const host = await sftp.start();
        return sessions.view(sessions.obtain(id), host);
      },
    },
    {
      method: 'POST',
      path: `${NAS}/sftp/destroy`,
      encryption: 'never',
      handle: ({ body }) => {
        const id = requireInt(body, 'storage_id', { min: 1 });
        volumes.require(id, 'storage_id');
        sessions.destroy(id);
        return null;
      },
    },
    {
      method: 'GET',
      path: `${NAS}/s3/list`,
      encryption: 'never',
      handle: ({ query }) => {
        const storageId = queryInt(query, 'storage_id');
        let statuses: string[] | undefined;
        try {
          statuses = queryList(query, 'statuses', TRANSFER_STATUSES);
        } catch (error) {
          // The docs name S002 for an illegal statuses value here.
          throw new SandboxFailure('S002', (error as Error).message);
        }
        return transfers.list(storageId !== undefined && storageId > 0 ? storageId : undefined, statuses, nasPaging(query));
      },
    },
    {
      method: 'GET',
      path: `${NAS}/s3/detail`,
      encryption: 'never',
      handle: ({ query }) => {
        const raw = query.get('id');
        if (raw === null) throw invalidParam('id', 'is required');
        const id = queryInt(query, 'id', { min: 1 }) as number;
        return transfers.detail(id);
      },
    },
    { method: 'POST', path: `${NAS}/s3/stop`, encryption: 'never', handle: ({ body }) => transfers.stop(requireInt(body, 'id', { min: 1 })) },
    { method: 'POST', path: `${NAS}/s3/delete`, encryption: 'never', handle: ({ body }) => transfers.delete(requireInt(body, 'id', { min: 1 })) },
    {
      method: 'POST',
      path: `${NAS}/encrypt/s3/create`,
      encryption: 'required',
      encryptedMediaTypes: ['text/plain'],
      handle: ({ body }) => transfers.create(transferInput(body)),
    },
    {
      method: 'POST',
      path: `${NAS}/encrypt/s3/retry`,
      encryption: 'required',
      encryptedMediaTypes: ['text/plain'],
      handle: ({ body }) => transfers.retry(requireInt(body, 'id', { min: 1 }), transferInput(body)),
    },
    {
      method: 'POST',
      path: `${NAS}/encrypt/s3/check`,
      encryption: 'required',
      encryptedMediaTypes: ['text/plain'],
      handle: ({ body }) =>
        transfers.check({
          supplier: stringField(body, 'supplier', { required: true }),
          endpoint: stringField(body, 'endpoint', { required: true }),
          ak: stringField(body, 'ak', { required: true }),
          sk: stringField(body, 'sk', { required: true }),
          bucket: stringField(body, 'bucket', { required: true }),
          prefix: stringField(body, 'prefix', { required: true, allowEmpty: true }),
        }),
    },
  ];
}
