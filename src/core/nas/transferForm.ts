// What the user fills in for an S3 ↔ NAS transfer (docs/nas.md, "Transfers"), checked before anything
// is sent, and the progress a record shows. The S3 keys never pass through here: they go straight
// from the password input into the one encrypted request body.

import type { TransferCreateBody, TransferDirection, TransferOverwritePolicy, TransferRecord } from './operations';

/** The vendors the platform's docs name (`s3_supplier`); any other S3-compatible one may be typed. */
export const S3_SUPPLIERS = ['tencent', 'aliyun', 'aws', 'minio'] as const;

export type FieldProblem = 'empty' | 'spaces' | 'characters' | 'too-long' | 'relative' | 'dots';

const CONTROL = /[\u0000-\u001f\u007f]/;

/** Endpoint: a host (optionally :port, optionally with an http(s) scheme), no spaces. */
export function endpointProblem(text: string): FieldProblem | undefined {
  const value = text.trim();
  if (value === '') return 'empty';
  if (value.length > 255) return 'too-long';
  if (/\s/.test(value)) return 'spaces';
  if (CONTROL.test(value) || !/^(https?:\/\/)?[A-Za-z0-9.-]+(:\d{1,5})?\/?$/.test(value)) return 'characters';
  return undefined;
}

/** Bucket: one name, no spaces or slashes. */
export function bucketProblem(text: string): FieldProblem | undefined {
  const value = text.trim();
  if (value === '') return 'empty';
  if (value.length > 255) return 'too-long';
  if (/\s/.test(value)) return 'spaces';
  if (CONTROL.test(value) || value.includes('/')) return 'characters';
  return undefined;
}

/** Prefix inside the bucket: may be empty (bucket root); no leading slash, no control characters. */
export function prefixProblem(text: string): FieldProblem | undefined {
  if (text.length > 1024) return 'too-long';
  if (CONTROL.test(text)) return 'characters';
  if (text.startsWith('/')) return 'relative';
  return undefined;
}

/** Folder on the volume: empty (root) or an absolute path without `.`/`..` segments. */
export function nasPathProblem(text: string): FieldProblem | undefined {
  const value = text.trim();
  if (value === '' || value === '/') return undefined;
  if (value.length > 1024) return 'too-long';
  if (CONTROL.test(value)) return 'characters';
  if (!value.startsWith('/')) return 'relative';
  if (value.split('/').some((segment) => segment === '.' || segment === '..')) return 'dots';
  return undefined;
}

/** ".tmp, .log" → [".tmp", ".log"] (file-name suffixes; empty → no filter). */
export function parseIgnorePatterns(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,\s]+/)
        .map((part) => part.trim())
        .filter((part) => part !== ''),
    ),
  ].slice(0, 50);
}

/** The fields of a transfer, without the keys (for the confirmation and for retry forms). */
export interface TransferPlan {
  storageId: number;
  name: string;
  direction: TransferDirection;
  supplier: string;
  endpoint: string;
  bucket: string;
  prefix: string;
  nasPath: string;
  overwritePolicy: TransferOverwritePolicy;
  ignorePatterns: string[];
}

/** The body of create (and retry): the plan plus the keys, which exist only in this object. */
export function transferBody(plan: TransferPlan, keys: { accessKey: string; secretKey: string }): TransferCreateBody {
  return {
    storage_id: plan.storageId,
    ...(plan.name.trim() !== '' ? { name: plan.name.trim() } : {}),
    direction: plan.direction,
    s3_supplier: plan.supplier.trim(),
    s3_endpoint: plan.endpoint.trim(),
    s3_access_key: keys.accessKey.trim(),
    s3_secret_key: keys.secretKey,
    s3_bucket: plan.bucket.trim(),
    s3_prefix: plan.prefix,
    nas_path: plan.nasPath.trim() === '' ? '/' : plan.nasPath.trim(),
    overwrite_policy: plan.overwritePolicy,
    ignore_patterns: plan.ignorePatterns.length > 0 ? plan.ignorePatterns : null,
  };
}

/** A retry starts from the failed job's own fields (keys are asked again: the platform never returns them). */
export function planOf(record: TransferRecord): TransferPlan {
  return {
    storageId: record.storage_id,
    name: record.name,
    direction: record.direction,
    supplier: record.s3_supplier,
    endpoint: record.s3_endpoint,
    bucket: record.s3_bucket,
    prefix: record.s3_prefix,
    nasPath: record.nas_path,
    overwritePolicy: record.overwrite_policy,
    ignorePatterns: [...(record.ignore_patterns ?? [])],
  };
}

/** Error and Exception jobs can be retried; only Running can be stopped (the platform's rules). */
export function canRetryTransfer(record: Pick<TransferRecord, 'status'>): boolean {
  return record.status === 'Error' || record.status === 'Exception';
}

export function canStopTransfer(record: Pick<TransferRecord, 'status'>): boolean {
  return record.status === 'Running';
}

/** Progress as the platform reports it; totals of 0 mean "still counting" and stay unknown. */
export interface TransferProgressView {
  filesDone: number;
  filesTotal: number | undefined;
  bytesDone: number;
  bytesTotal: number | undefined;
  /** bytes per second, when the platform gives one (> 0) */
  bytesPerSecond: number | undefined;
  secondsLeft: number | undefined;
}

export function transferProgressView(record: TransferRecord): TransferProgressView {
  const finite = (n: number): number => (Number.isFinite(n) && n > 0 ? n : 0);
  return {
    filesDone: finite(record.ready_files),
    filesTotal: finite(record.total_files) > 0 ? record.total_files : undefined,
    bytesDone: finite(record.transferred_bytes),
    bytesTotal: finite(record.total_bytes) > 0 ? record.total_bytes : undefined,
    bytesPerSecond: record.status === 'Running' && finite(record.bps) > 0 ? record.bps : undefined,
    secondsLeft: record.status === 'Running' && finite(record.remaining_seconds) > 0 ? record.remaining_seconds : undefined,
  };
}

