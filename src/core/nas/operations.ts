// NAS volumes (集群存储), SFTP sessions and S3 ↔ NAS transfers (docs/nas.md): each operation's
// parameter and result types next to its catalog entry. The compute catalog and client take these in
// (compute/api.ts, compute/operations.ts), so NAS calls are signed, encrypted, retried and diagnosed
// exactly like every other platform call.

import { declare, int, paging, str } from '../compute/operationEntry';

// ---- shapes (sizes are bytes; display_unit_price is yuan per GB per month; unit_price 积分/GB/10 min) ----

export type VolumeStatus = 'Creating' | 'Active' | 'Expanding' | 'Deleting' | 'Deleted' | 'Exception';
export const VOLUME_STATUSES: readonly VolumeStatus[] = ['Creating', 'Active', 'Expanding', 'Deleting', 'Exception'];
/** Statuses that change by themselves: volumes are polled only while one of them holds. */
export const TRANSITIONAL_VOLUME_STATUSES: readonly VolumeStatus[] = ['Creating', 'Expanding', 'Deleting'];

export interface NasRegion {
  tag: string;
  name: string;
}

export interface NasMount {
  instance_id?: number;
  instance_name?: string;
  instance_type?: string;
  mount_path?: string;
}

export interface NasVolume {
  storage_id: number;
  name: string;
  region: NasRegion;
  storage_class: string;
  storage_class_name: string;
  unit_price: number;
  display_unit_price: string;
  total_size: number;
  /** -1 = not queryable: show as unknown, never as 0. */
  used_size: number;
  status: VolumeStatus;
  namespace: string;
  claim_name: string;
  instance_count: number;
  instances: NasMount[];
  create_time: string;
  last_update_time: string;
  error_code: string | null;
  error_message: string | null;
}

export interface NasSummary {
  volume_count: number;
  total_size: number;
  used_size: number;
  estimated_price: number | null;
  coin_sum_slice: number;
}

export interface NasDictionaries {
  regions: NasRegion[];
  storage_classes: { storage_class: string; storage_class_name: string }[];
}

export interface NasConfig {
  id: number;
  name: string;
  description: string | null;
  region: NasRegion;
  storage_class: string;
  storage_class_name: string;
  total_capacity: number;
  allocated_capacity: number;
  used_capacity: number;
  unit_price: number;
  display_unit_price: string;
  status: 'Available' | 'Unavailable';
}

export interface VolumeAnswer {
  storage_id: number;
  status: VolumeStatus;
  message: string | null;
}

export type SftpSessionStatus = 'Pending' | 'Running' | 'Exception';

/** obtain's data. username/password/sftp_url/expire_at are set only while Running. */
export interface SftpSessionInfo {
  id: number;
  status: SftpSessionStatus;
  username: string | null;
  password: string | null;
  sftp_url: string | null;
  web_url: string | null;
  webdav_url: string | null;
  expire_at: string | null;
  error_code: string | null;
  error_message: string | null;
}

export type TransferStatus = 'Queuing' | 'Pending' | 'Running' | 'Stopped' | 'Completed' | 'Error' | 'Exception' | 'Deleted';
export const TERMINAL_TRANSFER_STATUSES: readonly TransferStatus[] = ['Completed', 'Stopped', 'Error', 'Exception', 'Deleted'];
/** 1 = object storage → NAS, 2 = NAS → object storage. */
export type TransferDirection = 1 | 2;
/** 1 = always overwrite, 2 = skip existing names (default), 3 = compare by content hash. */
export type TransferOverwritePolicy = 1 | 2 | 3;

export interface TransferRecord {
  id: number;
  name: string;
  ready_files: number;
  total_files: number;
  transferred_bytes: number;
  total_bytes: number;
  /** bytes per second; 0 when unknown or finished */
  bps: number;
  remaining_seconds: number;
  status: TransferStatus;
  direction: TransferDirection;
  overwrite_policy: TransferOverwritePolicy;
  create_time: string;
  last_update_time: string;
  end_time: string | null;
  storage_id: number;
  storage_name: string;
  s3_supplier: string;
  s3_endpoint: string;
  s3_bucket: string;
  s3_prefix: string;
  nas_path: string;
  ignore_patterns: string[];
  error_code: string | null;
  error_message: string | null;
}

export interface TransferList {
  count: number;
  status_counts: Record<'pending' | 'running' | 'stopped' | 'completed' | 'error' | 'exception' | 'queuing', number>;
  results: TransferRecord[];
}

export interface TransferCreateBody {
  storage_id: number;
  name?: string;
  direction: TransferDirection;
  s3_supplier: string;
  s3_endpoint: string;
  s3_access_key: string;
  s3_secret_key: string;
  s3_bucket: string;
  s3_prefix?: string | null;
  nas_path?: string | null;
  overwrite_policy?: TransferOverwritePolicy;
  ignore_patterns?: string[] | null;
}

export interface TransferCheckBody {
  supplier: string;
  endpoint: string;
  ak: string;
  sk: string;
  bucket: string;
  prefix: string;
}

export interface VolumeListQuery {
  regions?: string;
  storage_class?: string;
  statuses?: string;
  storage_ids?: string;
  page?: number;
  page_size?: number;
}

const NAS = '/api/storage/nas/v1';
const transferFields = [
  int('storage_id', true),
  str('name'),
  int('direction', true),
  str('s3_supplier', true),
  str('s3_endpoint', true),
  str('s3_access_key', true, true),
  str('s3_secret_key', true, true),
  str('s3_bucket', true),
  str('s3_prefix'),
  str('nas_path'),
  int('overwrite_policy'),
];
type NoParams = Record<string, never>;
type IdStatus = { id: number; status: TransferStatus };

/**
 * Creating a volume or a transfer is never retried (a lost answer would make a second one); every
 * other call sets a state that a repeat cannot change further. Obtain is idempotent on the platform.
 */
export const NAS_OPERATIONS = {
  'nas.summary': declare<{ params: NoParams; result: NasSummary }>({ title: 'NAS usage summary', effect: 'read', method: 'GET', path: `${NAS}/summary`, encryption: 'never', idempotent: true, fields: [] }),
  'nas.dictionaries': declare<{ params: NoParams; result: NasDictionaries }>({ title: 'NAS regions and classes', effect: 'read', method: 'GET', path: `${NAS}/dictionaries`, encryption: 'never', idempotent: true, fields: [] }),
  'nas.preCreate': declare<{ params: NoParams; result: { configs: NasConfig[] } }>({ title: 'NAS creatable configs', effect: 'read', method: 'GET', path: `${NAS}/pre-create`, encryption: 'never', idempotent: true, fields: [] }),
  'nas.list': declare<{ params: VolumeListQuery; result: { count: number; results: NasVolume[] } }>({
    title: 'List NAS volumes',
    effect: 'read',
    method: 'GET',
    path: `${NAS}/list`,
    encryption: 'never',
    idempotent: true,
    fields: [str('regions'), str('storage_class'), str('statuses'), str('storage_ids'), ...paging],
  }),
  'nas.create': declare<{ params: { name: string; nas_config_id: number; total_size: number }; result: VolumeAnswer }>({
    title: 'Create NAS volume',
    effect: 'write',
    method: 'POST',
    path: `${NAS}/create`,
    encryption: 'never',
    idempotent: false,
    fields: [str('name', true), int('nas_config_id', true), int('total_size', true)],
  }),
  'nas.expand': declare<{ params: { id: number; total_size: number }; result: VolumeAnswer }>({ title: 'Expand NAS volume', effect: 'write', method: 'POST', path: `${NAS}/expand`, encryption: 'never', idempotent: true, fields: [int('id', true), int('total_size', true)] }),
  'nas.rename': declare<{ params: { id: number; name: string }; result: VolumeAnswer }>({ title: 'Rename NAS volume', effect: 'write', method: 'POST', path: `${NAS}/rename`, encryption: 'never', idempotent: true, fields: [int('id', true), str('name', true)] }),
  'nas.delete': declare<{ params: { id: number; force?: boolean; reason?: string | null }; result: VolumeAnswer }>({ title: 'Delete NAS volume', effect: 'destructive', method: 'POST', path: `${NAS}/delete`, encryption: 'never', idempotent: true, fields: [int('id', true), str('reason')] }),
  'nas.sftpObtain': declare<{ params: { storage_id: number }; result: SftpSessionInfo | null }>({ title: 'Open SFTP session', effect: 'write', method: 'POST', path: `${NAS}/sftp/obtain`, encryption: 'never', idempotent: true, fields: [int('storage_id', true)] }),
  'nas.sftpDestroy': declare<{ params: { storage_id: number }; result: null }>({ title: 'Close SFTP session', effect: 'write', method: 'POST', path: `${NAS}/sftp/destroy`, encryption: 'never', idempotent: true, fields: [int('storage_id', true)] }),
  'nas.transferList': declare<{ params: { storage_id?: number; statuses?: string; page?: number; page_size?: number }; result: TransferList }>({
    title: 'List S3 transfers',
    effect: 'read',
    method: 'GET',
    path: `${NAS}/s3/list`,
    encryption: 'never',
    idempotent: true,
    fields: [int('storage_id'), str('statuses'), ...paging],
  }),
  'nas.transferDetail': declare<{ params: { id: number }; result: TransferRecord }>({ title: 'S3 transfer detail', effect: 'read', method: 'GET', path: `${NAS}/s3/detail`, encryption: 'never', idempotent: true, fields: [int('id', true)] }),
  'nas.transferStop': declare<{ params: { id: number }; result: IdStatus }>({ title: 'Stop S3 transfer', effect: 'write', method: 'POST', path: `${NAS}/s3/stop`, encryption: 'never', idempotent: true, fields: [int('id', true)] }),
  'nas.transferDelete': declare<{ params: { id: number }; result: IdStatus }>({ title: 'Delete S3 transfer record', effect: 'destructive', method: 'POST', path: `${NAS}/s3/delete`, encryption: 'never', idempotent: true, fields: [int('id', true)] }),
  'nas.transferCreate': declare<{ params: TransferCreateBody; result: IdStatus }>({ title: 'Create S3 transfer', effect: 'write', method: 'POST', path: `${NAS}/encrypt/s3/create`, encryption: 'required', encryptedBodyType: 'text/plain', idempotent: false, fields: transferFields }),
  'nas.transferRetry': declare<{ params: TransferCreateBody & { id: number }; result: IdStatus }>({
    title: 'Retry S3 transfer',
    effect: 'write',
    method: 'POST',
    path: `${NAS}/encrypt/s3/retry`,
    encryption: 'required',
    encryptedBodyType: 'text/plain',
    idempotent: false,
    fields: [int('id', true), ...transferFields],
  }),
  'nas.transferCheck': declare<{ params: TransferCheckBody; result: { pass: boolean; message: string | null } }>({
    title: 'Check S3 connection',
    effect: 'read',
    method: 'POST',
    path: `${NAS}/encrypt/s3/check`,
    encryption: 'required',
    encryptedBodyType: 'text/plain',
    idempotent: true,
    fields: [str('supplier', true), str('endpoint', true), str('ak', true, true), str('sk', true, true), str('bucket', true), str('prefix')],
  }),
};

export type NasOperationId = keyof typeof NAS_OPERATIONS;
