// The spec ↔ wire field table of a service's mounts, one row per list (docs/shapes.md): Deploy, Update
// and Plan build the platform's body with mountsToWire (taskBody.ts, jobBody.ts); Save as Spec File
// reads a live task or job back with mountsFromWire (taskBody.ts, fromLive.ts). Nothing else names
// these fields.

import type { Mount, MountByName, NasMount } from './types';

/** Each mount list: its spec field, its wire field, and the key naming the volume on each side. */
export const MOUNT_FIELDS = [
  { spec: 'storage', wire: 'storage_config', specKey: 'storageId', wireKey: 'storage_id' },
  { spec: 'sharedStorage', wire: 'share_storage_config', specKey: 'storageId', wireKey: 'storage_id' },
  { spec: 'nas', wire: 'nas_storage_config', specKey: 'volumeId', wireKey: 'storage_id' },
  { spec: 'sharedMemoryMounts', wire: 'share_mem_config', specKey: 'volume', wireKey: 'volume_name' },
  { spec: 'sharedDiskMounts', wire: 'share_disk_config', specKey: 'volume', wireKey: 'volume_name' },
] as const;

type Row = (typeof MOUNT_FIELDS)[number];
export type MountField = Row['spec'];

/** The mount lists a deployment's service has; a job's service has them all. */
export const TASK_MOUNTS = ['storage', 'sharedStorage', 'nas'] as const satisfies readonly MountField[];
export const JOB_MOUNTS = MOUNT_FIELDS.map((row) => row.spec);

interface SpecMountOf {
  storage: Mount;
  sharedStorage: Mount;
  nas: NasMount;
  sharedMemoryMounts: MountByName;
  sharedDiskMounts: MountByName;
}
type WireMountOf<R extends Row> = (R['wireKey'] extends 'storage_id' ? { storage_id: number } : { volume_name: string }) & { target_dir: string };
export type WireMounts<F extends MountField> = { [R in Row as R['spec'] extends F ? R['wire'] : never]: WireMountOf<R>[] | null };
export type SpecMounts<F extends MountField> = { [K in F]?: SpecMountOf[K][] };

function rowOf(field: MountField): Row {
  return MOUNT_FIELDS.find((row) => row.spec === field) as Row;
}

/** The wire fields of `fields`, in table order; an absent or empty list is null. */
export function mountsToWire<F extends MountField>(service: SpecMounts<F>, fields: readonly F[]): WireMounts<F> {
  const wire: Record<string, unknown> = {};
  for (const field of fields) {
    const row = rowOf(field);
    const items = service[field] as Record<string, unknown>[] | undefined;
    wire[row.wire] = items && items.length > 0 ? items.map((item) => ({ [row.wireKey]: item[row.specKey], target_dir: item.targetDir })) : null;
  }
  return wire as WireMounts<F>;
}

/** The spec lists of `fields` a live service has, in table order; empty or absent lists are left out. */
export function mountsFromWire<F extends MountField>(service: object, fields: readonly F[]): SpecMounts<F> {
  const spec: Record<string, unknown> = {};
  for (const field of fields) {
    const row = rowOf(field);
    const items = (service as Record<string, unknown>)[row.wire];
    if (!Array.isArray(items) || items.length === 0) continue;
    spec[field] = items.map((item: Record<string, unknown> | null | undefined) => ({
      [row.specKey]: row.wireKey === 'storage_id' ? Number(item?.[row.wireKey]) : String(item?.[row.wireKey] ?? ''),
      targetDir: String(item?.target_dir ?? ''),
    }));
  }
  return spec as SpecMounts<F>;
}
