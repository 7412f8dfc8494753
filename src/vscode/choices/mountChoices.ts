// The NAS mount step of Create Task and Create Job: the Active volumes of the chosen region, from the
// volume store (a volume mounts only in its own region: docs/nas.md), with "No NAS volume" first. Below
// jobs, views and nas (docs/areas.md, "Floors"): the wizards reach it without sitting on the NAS area.

import * as vscode from 'vscode';
import { mountableVolumes } from '../../core/nas/mounts';
import type { NasVolume } from '../../core/nas/operations';
import { formatGiB } from '../../core/nas/units';
import { VOLUME_STATE } from '../../core/nas/volumeState';
import type { RemoteState } from '../state/index';

export type MountItem = vscode.QuickPickItem & { volume?: NasVolume };

export interface LoadedVolumes {
  list: readonly NasVolume[];
  /** The store could not read them: the step offers no volume and says so. */
  failed: boolean;
}

/** The account's volumes from the store; a failed read leaves the step without volumes. */
export function loadVolumes(state: RemoteState): Promise<LoadedVolumes> {
  return state.items(VOLUME_STATE).then(
    (list) => ({ list, failed: state.store(VOLUME_STATE)?.loaded !== true }),
    () => ({ list: [] as NasVolume[], failed: true }),
  );
}

/** "No NAS volume" (saying why there is no other choice), then the volumes a task or job in `regionName` can mount. */
export function mountChoices(loaded: LoadedVolumes, regionName: string, unreadDetail: string): { none: MountItem; items: MountItem[] } {
  const candidates = mountableVolumes(loaded.list, regionName);
  const none: MountItem = {
    label: vscode.l10n.t('$(circle-slash) No NAS volume'),
    detail: loaded.failed
      ? unreadDetail
      : candidates.length === 0
        ? vscode.l10n.t('No Active NAS volume in {0}: create one in the NAS view to mount it.', regionName || vscode.l10n.t('this region'))
        : undefined,
  };
  const items = candidates.map((volume): MountItem => ({ label: volume.name, iconPath: new vscode.ThemeIcon('database'), description: vscode.l10n.t('{0} · {1} GiB · id {2}', volume.region.name, formatGiB(volume.total_size), volume.storage_id), volume }));
  return { none, items: [none, ...items] };
}

/** The placeholder of the mount pick. */
export function mountPlaceholder(regionName: string): string {
  return vscode.l10n.t('Mount a NAS volume in the container (optional; volumes in {0})', regionName || vscode.l10n.t('this region'));
}
