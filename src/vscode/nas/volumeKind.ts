// NAS volumes as a kind (kinds/kindDescriptor.ts), the NAS view (集群存储) on the one kind tree: a summary
// row, then each volume with its status, used / total GiB (used shown as unknown when the platform says
// −1), region and price per month, then the "Transfers" group (transferKind.ts). The volumes come from the
// volume store (core/nas/volumeState.ts, on the profile's one poll loop: listed only while a volume is
// Creating, Expanding or Deleting, or on a wake); the summary is read again when they change.

import * as vscode from 'vscode';
import { Commands, Views } from '../commandIds';
import type { NasVolume } from '../../core/nas/operations';
import { VOLUME_STATE } from '../../core/nas/volumeState';
import { formatGiB, formatYuan, knownUsedBytes, monthlyPriceYuan } from '../../core/nas/units';
import { errorMessage } from '../../shared/errorMessage';
import type { KindDescriptor, KindRow } from '../kinds/kindDescriptor';
import type { Logger } from '../../core/log';
import type { VolumeService } from '../../core/nas/volumeService';
import { TRANSFERS_GROUP } from './transferKind';
import { counted } from '../ui/counts';
import { volumeStatusName } from '../ui/statusWords';


/** "1.5 / 50 GiB" or "? / 50 GiB" when the platform cannot say. */
export function usageText(used: number, total: number): string {
  const known = knownUsedBytes(used);
  return vscode.l10n.t('{0} / {1} GiB', known === undefined ? '?' : formatGiB(known), formatGiB(total));
}

export function monthlyText(totalBytes: number, displayUnitPrice: string): string | undefined {
  const yuan = monthlyPriceYuan(totalBytes, displayUnitPrice);
  return yuan === undefined ? undefined : vscode.l10n.t('¥{0}/month', formatYuan(yuan));
}

/** The row of one volume: status, usage, region and monthly price; an Active one opens in the Explorer. */
export function volumeRow(volume: NasVolume): KindRow {
  const price = monthlyText(volume.total_size, volume.display_unit_price);
  const mounts = volume.instances.map((m) => `${m.instance_name ?? m.instance_id ?? '?'} → ${m.mount_path ?? ''}`);
  const tooltip = new vscode.MarkdownString(undefined, false);
  tooltip.appendMarkdown(`**`).appendText(volume.name).appendMarkdown(`** · `).appendText(vscode.l10n.t('volume id {0}', volume.storage_id)).appendMarkdown('\n\n');
  tooltip.appendText(`${vscode.l10n.t('Status: {0}', volumeStatusName(volume.status))}\n`);
  tooltip.appendText(`${knownUsedBytes(volume.used_size) === undefined ? vscode.l10n.t('Used space not available') : vscode.l10n.t('Used: {0}', usageText(volume.used_size, volume.total_size))}\n`);
  tooltip.appendText(`${vscode.l10n.t('Region: {0}', `${volume.region.name} (${volume.region.tag})`)} · ${volume.storage_class_name}\n`);
  if (price) tooltip.appendText(`${price} (¥${volume.display_unit_price}/GB/${vscode.l10n.t('month')})\n`);
  if (mounts.length > 0) tooltip.appendText(`${vscode.l10n.t('Mounted by: {0}', mounts.join(', '))}\n`);
  if (volume.error_message) tooltip.appendText(`${volume.error_code ?? ''} ${volume.error_message}\n`);
  const row: KindRow = {
    id: `nas/${volume.storage_id}`,
    label: volume.name,
    description: [volumeStatusName(volume.status), usageText(volume.used_size, volume.total_size), volume.region.name, price].filter(Boolean).join(' · '),
    tooltip,
    icon: new vscode.ThemeIcon(
      volume.status === 'Active' ? 'database' : volume.status === 'Exception' ? 'error' : 'loading~spin',
      volume.status === 'Active' ? new vscode.ThemeColor('testing.iconPassed') : undefined,
    ),
    contextValue: `nasVolume.${volume.status}`,
  };
  if (volume.status === 'Active') row.command = { command: Commands.nasOpenInExplorer, title: vscode.l10n.t('Open Volume in Explorer'), arguments: [volume.storage_id] };
  return row;
}

/** The NAS view as a descriptor: the summary row, the volumes, the Transfers group. */
export function volumeKind(volumes: () => VolumeService, logger: Logger): KindDescriptor<NasVolume> {
  return {
    state: VOLUME_STATE as KindDescriptor<NasVolume>['state'],
    viewId: Views.nas,
    refreshCommand: Commands.nasRefresh,
    what: () => vscode.l10n.t('NAS volumes'),
    // No volumes: the summary and the Transfers group still show.
    emptyText: () => undefined,
    row: volumeRow,
    // One summary call per change of the volumes (never polled on its own); without it the view shows the rest.
    lead: () =>
      volumes()
        .summary()
        .then(
          (summary): KindRow[] => [{ id: 'nas/summary', label: counted(summary.volume_count, 'volume'), description: usageText(summary.used_size, summary.total_size), icon: new vscode.ThemeIcon('graph'), contextValue: 'nasSummary' }],
          (error: unknown) => {
            logger.warn(`NAS: could not read the summary: ${errorMessage(error)}`);
            return [];
          },
        ),
    groups: [TRANSFERS_GROUP],
  };
}
