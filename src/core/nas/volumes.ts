// Volume and transfer calls on top of the compute client: every page of the list, the create choices
// (dictionaries + creatable configs) with the monthly price, the delete pre-checks the platform's rules
// ask for, and transfer create/retry with the connection check first.

import type { ComputeClient } from '../compute/api';
import { ConfigError, coreText } from '../errors';
import { sameRegion } from './mounts';
import { checkPage, listAll, type Listed } from '../tasks/listing';
import { S3CheckFailedError } from './errors';
import type { NasConfig, NasVolume, TransferCheckBody, TransferCreateBody, TransferRecord, VolumeStatus } from './operations';
import { TRANSITIONAL_VOLUME_STATUSES } from './operations';
import { monthlyPriceYuan } from './units';

/** A bound on volumes read for one list (100 pages of 100). */
const VOLUME_CAP = 10_000;

export type NasApi = Pick<ComputeClient, 'call'>;

/** Every volume (all pages, up to the cap, which is reported), newest first as the platform orders them. */
export function readVolumes(api: NasApi, filter: { regions?: string; statuses?: string; storage_ids?: string } = {}, signal?: AbortSignal): Promise<Listed<NasVolume>> {
  return listAll(
    async (page, size, pageSignal) => checkPage<NasVolume>(await api.call('nas.list', { ...filter, page, page_size: size }, pageSignal ? { signal: pageSignal } : undefined), 'nas.list'),
    { key: (volume) => volume.storage_id, cap: VOLUME_CAP, ...(signal ? { signal } : {}) },
  );
}

/** Every volume (all pages). The NAS view reads the volume store instead (core/nas/volumeState.ts). */
export async function listVolumes(api: NasApi, filter: { regions?: string; statuses?: string; storage_ids?: string } = {}, signal?: AbortSignal): Promise<NasVolume[]> {
  return (await readVolumes(api, filter, signal)).items;
}

export async function getVolume(api: NasApi, storageId: number, signal?: AbortSignal): Promise<NasVolume | undefined> {
  const answer = await api.call('nas.list', { storage_ids: String(storageId), page: 1, page_size: 10 }, signal ? { signal } : undefined);
  return answer.results.find((v) => v.storage_id === storageId);
}

/**
 * The volume a task or job in `regionName` is about to mount, read once before anything is uploaded or
 * sent: the platform mounts only an Active volume of the task's region (docs/nas.md, docs/sandbox-rules.md).
 */
export async function requireMountableVolume(api: NasApi, storageId: number, regionName: string, signal?: AbortSignal): Promise<NasVolume> {
  const volume = await getVolume(api, storageId, signal);
  if (!volume) throw new ConfigError(coreText('nas.mountMissing', storageId), coreText('nas.mountPick.hint', regionName));
  if (!sameRegion(volume, regionName)) throw new ConfigError(coreText('nas.mountOtherRegion', storageId, volume.region.name, regionName), coreText('nas.mountPick.hint', regionName));
  if (volume.status !== 'Active') throw new ConfigError(coreText('nas.mountNotActive', storageId, volume.status), coreText('nas.mountPick.hint', regionName));
  return volume;
}

export function isTransitional(status: VolumeStatus): boolean {
  return TRANSITIONAL_VOLUME_STATUSES.includes(status);
}

/** A creatable config with what a user chooses by: region and class names, free room, price. */
export interface CreateChoice {
  config: NasConfig;
  freeBytes: number;
}

/** Available configs (the platform: create only from Available ones), with their free room. */
export async function createChoices(api: NasApi, signal?: AbortSignal): Promise<CreateChoice[]> {
  const { configs } = await api.call('nas.preCreate', {}, signal ? { signal } : undefined);
  return configs.filter((c) => c.status === 'Available').map((config) => ({ config, freeBytes: Math.max(0, config.total_capacity - config.allocated_capacity) }));
}

/** What a volume of `totalBytes` on `config` costs per month, in yuan (undefined when the price is unreadable). */
export function volumeMonthlyYuan(totalBytes: number, displayUnitPrice: string): number | undefined {
  return monthlyPriceYuan(totalBytes, displayUnitPrice);
}

export type VolumeNameProblem = 'empty' | 'too-long' | 'dots' | 'characters';

/**
 * Volume names: 1–32 characters after trimming (the platform's rule), and, because a volume's name
 * also names folders (a download of its root), not "." or "..", no "/" or "\" and no control
 * characters (C0, C1). Returns the problem or undefined.
 */
export function volumeNameProblem(name: string): VolumeNameProblem | undefined {
  const trimmed = name.trim();
  const length = [...trimmed].length;
  if (length === 0) return 'empty';
  if (length > 32) return 'too-long';
  if (/^\.+$/.test(trimmed)) return 'dots';
  if (/[\u0000-\u001f\u007f-\u009f/\\]/.test(trimmed)) return 'characters';
  return undefined;
}

/** Why a delete must not go ahead without force, per the platform's rules; undefined when it may. */
export type DeleteBlock = { reason: 'mounted'; instances: string[] } | { reason: 'transfers'; count: number } | { reason: 'status'; status: VolumeStatus };

export async function deleteBlock(api: NasApi, volume: NasVolume, signal?: AbortSignal): Promise<DeleteBlock | undefined> {
  if (volume.status !== 'Active' && volume.status !== 'Exception') return { reason: 'status', status: volume.status };
  if (volume.status === 'Exception') return undefined;
  if (volume.instances.length > 0 || volume.instance_count > 0) {
    return { reason: 'mounted', instances: volume.instances.map((m) => m.instance_name ?? String(m.instance_id ?? '?')) };
  }
  const transfers = await api.call('nas.transferList', { storage_id: volume.storage_id, statuses: 'Queuing,Pending,Running', page: 1, page_size: 1 }, signal ? { signal } : undefined);
  if (transfers.count > 0) return { reason: 'transfers', count: transfers.count };
  return undefined;
}

/** The S3 fields in the check call's names (they differ from create's). */
export function checkBodyOf(body: TransferCreateBody): TransferCheckBody {
  return { supplier: body.s3_supplier, endpoint: body.s3_endpoint, ak: body.s3_access_key, sk: body.s3_secret_key, bucket: body.s3_bucket, prefix: body.s3_prefix ?? '' };
}

/**
 * Checks the object-storage connection, then creates (or, with `retryOf`, retries) the transfer. Needs an
 * RSA-mode profile: the compute client refuses a token-mode key with an error that names RSA mode.
 */
export async function createTransfer(api: NasApi, body: TransferCreateBody, options: { retryOf?: number; signal?: AbortSignal } = {}): Promise<{ id: number; status: string }> {
  const call = options.signal ? { signal: options.signal } : undefined;
  const check = await api.call('nas.transferCheck', checkBodyOf(body), call);
  if (!check.pass) {
    throw new S3CheckFailedError(maskKeys((check.message ?? 'no reason given').slice(0, 300).replace(/[\u0000-\u001f\u007f]+/g, ' '), body));
  }
  const full = { ...body, s3_prefix: body.s3_prefix ?? '', nas_path: body.nas_path ?? '' };
  return options.retryOf !== undefined ? api.call('nas.transferRetry', { ...full, id: options.retryOf }, call) : api.call('nas.transferCreate', full, call);
}

/** Server text that might echo a key back: every occurrence of either key is masked. */
export function maskKeys(text: string, body: Pick<TransferCreateBody, 's3_access_key' | 's3_secret_key'>): string {
  let masked = text;
  for (const key of [body.s3_secret_key, body.s3_access_key]) if (key.length >= 4) masked = masked.split(key).join('••••••');
  return masked;
}

/** Fraction done of a transfer (bytes when known, else files), or undefined before counting finishes. */
export function transferFraction(record: TransferRecord): number | undefined {
  if (record.status === 'Completed') return 1;
  if (record.total_bytes > 0) return Math.min(1, record.transferred_bytes / record.total_bytes);
  if (record.total_files > 0) return Math.min(1, record.ready_files / record.total_files);
  return undefined;
}
