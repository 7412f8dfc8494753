// Mounting a NAS volume in a task (docs/nas.md, "Mounting in tasks"): `services[].nas_storage_config =
// [{storage_id, target_dir}]`; the volume must be Active and in the task's region. How NAS region tags map
// to compute regions is not documented, so the display name is compared (北京一区 = 北京一区), and the tag too.

import { applyEdits, modify, parse, type ParseError } from 'jsonc-parser';
import type { NasVolume } from './operations';

export interface NasMountConfig {
  storage_id: number;
  target_dir: string;
}

export const DEFAULT_TARGET_DIR = '/mnt/nas';
const MAX_TARGET_DIR = 256;

/** True when the volume is in the region a task runs in (display name or tag). */
export function sameRegion(volume: Pick<NasVolume, 'region'>, regionName: string): boolean {
  const wanted = regionName.trim();
  return wanted !== '' && (volume.region.name === wanted || volume.region.tag === wanted);
}

/** The volumes a task in `regionName` may mount: Active ones in that region. */
export function mountableVolumes(volumes: readonly NasVolume[], regionName: string): NasVolume[] {
  return volumes.filter((volume) => volume.status === 'Active' && sameRegion(volume, regionName));
}

export type TargetDirProblem = 'relative' | 'root' | 'dots' | 'characters' | 'too-long';

/** What is wrong with a mount path inside the container, or undefined when it is fine. */
export function targetDirProblem(dir: string): TargetDirProblem | undefined {
  if (dir.length > MAX_TARGET_DIR) return 'too-long';
  if (!dir.startsWith('/')) return 'relative';
  if (/[\u0000-\u0020\u007f\\]/.test(dir)) return 'characters';
  const segments = dir.split('/').filter(Boolean);
  if (segments.length === 0) return 'root';
  if (segments.some((segment) => segment === '.' || segment === '..')) return 'dots';
  return undefined;
}

/** "/mnt/nas/" → "/mnt/nas" (the form sent). */
export function normalTargetDir(dir: string): string {
  return `/${dir.split('/').filter(Boolean).join('/')}`;
}

/**
 * Adds (or replaces, by storage_id) a mount in service `serviceIndex` of a task configuration being edited
 * as JSON, keeping the rest of the text as it is. Throws when the text is not a task configuration.
 */
export function addMountToConfig(text: string, mount: NasMountConfig, serviceIndex = 0): string {
  const errors: ParseError[] = [];
  const config = parse(text, errors, { allowTrailingComma: true }) as { services?: { nas_storage_config?: NasMountConfig[] | null }[] } | undefined;
  if (errors.length > 0 || !config || typeof config !== 'object' || !Array.isArray(config.services) || !config.services[serviceIndex]) {
    throw new Error('not-a-task-configuration');
  }
  const current = config.services[serviceIndex]?.nas_storage_config;
  const mounts = Array.isArray(current) ? current.filter((m) => m && m.storage_id !== mount.storage_id) : [];
  mounts.push({ storage_id: mount.storage_id, target_dir: normalTargetDir(mount.target_dir) });
  const edits = modify(text, ['services', serviceIndex, 'nas_storage_config'], mounts, { formattingOptions: { insertSpaces: true, tabSize: 2 } });
  return applyEdits(text, edits);
}
