// The NAS view (集群存储): a summary row, then each volume with its status, used / total GiB (used shown as
// unknown when the platform says −1), region and price per month. Polled only while a volume changes.

import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { NasSummary, NasVolume } from '../../core/nas/operations';
import { formatGiB, formatYuan, knownUsedBytes, monthlyPriceYuan } from '../../core/nas/units';
import { errorMessage } from '../../shared/errorMessage';
import type { ExtensionServices } from '../services';
import { nasCore } from './nasCore';
import { VolumePolling } from './volumePolling';

export function volumeStatusName(status: string): string {
  switch (status) {
    case 'Creating':
      return vscode.l10n.t('Creating');
    case 'Active':
      return vscode.l10n.t('Active');
    case 'Expanding':
      return vscode.l10n.t('Expanding');
    case 'Deleting':
      return vscode.l10n.t('Deleting');
    case 'Deleted':
      return vscode.l10n.t('Deleted');
    case 'Exception':
      return vscode.l10n.t('Exception');
    default:
      return status;
  }
}

/** "1.5 / 50 GiB" or "? / 50 GiB" when the platform cannot say. */
export function usageText(used: number, total: number): string {
  const known = knownUsedBytes(used);
  return vscode.l10n.t('{0} / {1} GiB', known === undefined ? '?' : formatGiB(known), formatGiB(total));
}

export function monthlyText(totalBytes: number, displayUnitPrice: string): string | undefined {
  const yuan = monthlyPriceYuan(totalBytes, displayUnitPrice);
  return yuan === undefined ? undefined : vscode.l10n.t('¥{0}/month', formatYuan(yuan));
}

export class VolumeRow extends vscode.TreeItem {
  readonly kind = 'volume' as const;
  constructor(readonly volume: NasVolume) {
    super(volume.name, vscode.TreeItemCollapsibleState.None);
    this.id = `nas/${volume.storage_id}`;
    const price = monthlyText(volume.total_size, volume.display_unit_price);
    this.description = [volumeStatusName(volume.status), usageText(volume.used_size, volume.total_size), volume.region.name, price].filter(Boolean).join(' · ');
    const mounts = volume.instances.map((m) => `${m.instance_name ?? m.instance_id ?? '?'} → ${m.mount_path ?? ''}`);
    const tooltip = new vscode.MarkdownString(undefined, false);
    tooltip.appendMarkdown(`**`).appendText(volume.name).appendMarkdown(`** · `).appendText(vscode.l10n.t('volume id {0}', volume.storage_id)).appendMarkdown('\n\n');
    tooltip.appendText(`${vscode.l10n.t('Status: {0}', volumeStatusName(volume.status))}\n`);
    tooltip.appendText(`${knownUsedBytes(volume.used_size) === undefined ? vscode.l10n.t('Used space not available') : vscode.l10n.t('Used: {0}', usageText(volume.used_size, volume.total_size))}\n`);
    tooltip.appendText(`${vscode.l10n.t('Region: {0}', `${volume.region.name} (${volume.region.tag})`)} · ${volume.storage_class_name}\n`);
    if (price) tooltip.appendText(`${price} (¥${volume.display_unit_price}/GB/${vscode.l10n.t('month')})\n`);
    if (mounts.length > 0) tooltip.appendText(`${vscode.l10n.t('Mounted by: {0}', mounts.join(', '))}\n`);
    if (volume.error_message) tooltip.appendText(`${volume.error_code ?? ''} ${volume.error_message}\n`);
    this.tooltip = tooltip;
    this.iconPath = new vscode.ThemeIcon(
      volume.status === 'Active' ? 'database' : volume.status === 'Exception' ? 'error' : 'loading~spin',
      volume.status === 'Active' ? new vscode.ThemeColor('testing.iconPassed') : undefined,
    );
    this.contextValue = `nasVolume.${volume.status}`;
    if (volume.status === 'Active') this.command = { command: Commands.nasOpenInExplorer, title: vscode.l10n.t('Open Volume in Explorer'), arguments: [this] };
  }
}

export class SummaryRow extends vscode.TreeItem {
  readonly kind = 'summary' as const;
  constructor(summary: NasSummary) {
    super(vscode.l10n.t('{0} volumes', summary.volume_count), vscode.TreeItemCollapsibleState.None);
    this.id = 'nas/summary';
    this.description = usageText(summary.used_size, summary.total_size);
    this.iconPath = new vscode.ThemeIcon('graph');
    this.contextValue = 'nasSummary';
  }
}

export class MessageRow extends vscode.TreeItem {
  readonly kind = 'message' as const;
  constructor(text: string) {
    super(text, vscode.TreeItemCollapsibleState.None);
    this.iconPath = new vscode.ThemeIcon('warning');
  }
}

export type NasElement = VolumeRow | SummaryRow | MessageRow;

export class NasTree implements vscode.TreeDataProvider<NasElement>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly polling = new VolumePolling(() => this.refresh());
  private loading: Promise<void> | undefined;
  volumes: NasVolume[] | undefined;
  summary: NasSummary | undefined;
  error: unknown;

  constructor(private readonly services: ExtensionServices) {}

  refresh(): void {
    this.loading = undefined;
    this.changed.fire();
  }

  /** The current list (loading it once when needed). */
  async load(): Promise<NasVolume[]> {
    this.loading ??= this.fetch();
    await this.loading;
    return this.volumes ?? [];
  }

  get pollingActive(): boolean {
    return this.polling.active;
  }

  private async fetch(): Promise<void> {
    if (!this.services.profiles.active) {
      this.volumes = [];
      return;
    }
    try {
      const client = this.services.computeClient();
      const [volumes, summary] = await Promise.all([nasCore().listVolumes(client), client.call('nas.summary', {})]);
      this.volumes = volumes;
      this.summary = summary;
      this.error = undefined;
      this.polling.update(volumes);
    } catch (error) {
      this.error = error;
      this.polling.stop();
      this.services.logger.warn(`NAS: could not load the volumes: ${errorMessage(error)}`);
    }
  }

  getTreeItem(element: NasElement): vscode.TreeItem {
    return element;
  }

  async getChildren(element?: NasElement): Promise<NasElement[]> {
    if (element || !this.services.profiles.active) return [];
    await this.load();
    if (this.error) return [new MessageRow(vscode.l10n.t('Could not load NAS volumes: {0}', errorMessage(this.error)))];
    const rows: NasElement[] = [];
    if (this.summary) rows.push(new SummaryRow(this.summary));
    for (const volume of this.volumes ?? []) rows.push(new VolumeRow(volume));
    return rows;
  }

  dispose(): void {
    this.polling.dispose();
    this.changed.dispose();
  }
}
