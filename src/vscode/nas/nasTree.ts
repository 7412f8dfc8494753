// The NAS view (集群存储): a summary row, then each volume with its status, used / total GiB (used shown as
// unknown when the platform says −1), region and price per month. The volumes come from the volume store of
// the remote state (core/nas/volumeState.ts, on the profile's one poll loop: listed only while a volume is
// Creating, Expanding or Deleting, or on a wake); the summary is read again when they change. Last, the
// "Transfers" group: S3 ↔ NAS transfer jobs from the transfer store (core/nas/transferState.ts, listed
// while a job is Queuing, Pending or Running).

import * as vscode from 'vscode';
import { errorText } from '../errors/errorText';
import { Commands } from '../commandIds';
import type { NasSummary, NasVolume, TransferRecord } from '../../core/nas/operations';
import { TRANSFER_STATE } from '../../core/nas/transferState';
import { VOLUME_STATE } from '../../core/nas/volumeState';
import { volumeServiceOf } from '../client/computeServices';
import { formatGiB, formatYuan, knownUsedBytes, monthlyPriceYuan } from '../../core/nas/units';
import { errorMessage } from '../../shared/errorMessage';
import type { ExtensionServices } from '../services';
import type { RemoteState } from '../state/index';
import { TransfersGroupRow, transferChildren, type TransferMessageRow, type TransferRow } from './transfersGroup';
import { counted } from '../ui/counts';

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
    super(counted(summary.volume_count, 'volume'), vscode.TreeItemCollapsibleState.None);
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

export type NasElement = VolumeRow | SummaryRow | MessageRow | TransfersGroupRow | TransferRow | TransferMessageRow;

export class NasTree implements vscode.TreeDataProvider<NasElement>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];
  /** The summary of the volumes now shown, read once per change of them. */
  private summaryRead: Promise<NasSummary | undefined> | undefined;
  summary: NasSummary | undefined;

  constructor(
    private readonly services: ExtensionServices,
    private readonly state: RemoteState,
  ) {
    const isActive = (profileId: string): boolean => profileId === services.profiles.active?.id;
    this.subscriptions = [
      state.follow(
        VOLUME_STATE,
        (change, profile) => {
          if (!isActive(profile.id)) return;
          if (change.first || change.added.length > 0 || change.changed.length > 0 || change.removed.length > 0) this.summaryRead = undefined;
          this.changed.fire();
        },
        'view',
        (error, profile) => {
          if (!isActive(profile.id)) return;
          services.logger.warn(`NAS: could not load the volumes: ${errorMessage(error)}`);
          this.changed.fire();
        },
      ),
      state.follow(
        TRANSFER_STATE,
        (_change, profile) => {
          if (isActive(profile.id)) this.changed.fire();
        },
        'view',
        (error, profile) => {
          if (!isActive(profile.id)) return;
          services.logger.warn(`NAS: could not load the S3 transfers: ${errorMessage(error)}`);
          this.changed.fire();
        },
      ),
      services.profiles.onDidChangeActive(() => {
        this.summaryRead = undefined;
        this.summary = undefined;
        this.changed.fire();
      }),
    ];
  }

  /** Something was set moving (a create, an expand, a delete): the store looks again within the platform's floor. */
  refresh(): void {
    this.state.wake();
    this.changed.fire();
  }

  /** Refresh pressed: the store lists now. */
  async reload(): Promise<void> {
    this.summaryRead = undefined;
    await this.state.refresh();
    this.changed.fire();
  }

  /** The active profile's volumes as the store holds them (its first look awaited when needed). */
  async load(): Promise<NasVolume[]> {
    if (!this.services.profiles.active) return [];
    return [...(await this.state.items(VOLUME_STATE))];
  }

  get volumes(): readonly NasVolume[] | undefined {
    const store = this.state.store(VOLUME_STATE);
    return store?.loaded ? store.items : undefined;
  }

  /** The last listing's failure, until one succeeds. */
  get error(): unknown {
    return this.state.store(VOLUME_STATE)?.error;
  }

  /** True while the volume store is polled on its own: a volume is Creating, Expanding or Deleting. */
  get pollingActive(): boolean {
    const store = this.state.store(VOLUME_STATE);
    return store !== undefined && store.loaded && !store.atRest;
  }

  /** True while the transfer store is polled on its own: a job is Queuing, Pending or Running. */
  get transfersPolling(): boolean {
    const store = this.state.store(TRANSFER_STATE);
    return store !== undefined && store.loaded && !store.atRest;
  }

  getTreeItem(element: NasElement): vscode.TreeItem {
    return element;
  }

  /** The active profile's S3 transfers as the store holds them (its first look awaited when needed). */
  async loadTransfers(): Promise<readonly TransferRecord[]> {
    if (!this.services.profiles.active) return [];
    return this.state.items(TRANSFER_STATE);
  }

  async getChildren(element?: NasElement): Promise<NasElement[]> {
    if (element?.kind === 'transfers' && this.services.profiles.active) {
      await this.loadTransfers();
      const store = this.state.store(TRANSFER_STATE);
      return transferChildren(store?.loaded ? store.items : undefined, store?.error, store?.completeness.complete ?? true) as NasElement[];
    }
    if (element || !this.services.profiles.active) return [];
    const volumes = await this.load();
    if (this.error !== undefined && !this.state.store(VOLUME_STATE)?.loaded) return [new MessageRow(vscode.l10n.t('Could not load NAS volumes: {0}', errorText(this.error)))];
    const rows: NasElement[] = [];
    const summary = await this.readSummary();
    if (summary) rows.push(new SummaryRow(summary));
    for (const volume of volumes) rows.push(new VolumeRow(volume));
    // A fresh group row each time: its description (the count) is drawn from this read.
    const transfers = this.state.store(TRANSFER_STATE);
    const group = new TransfersGroupRow();
    group.describe(transfers?.loaded ? transfers.items : undefined);
    rows.push(group);
    return rows;
  }

  /** One summary call per change of the volumes (never polled on its own). */
  private readSummary(): Promise<NasSummary | undefined> {
    this.summaryRead ??= Promise.resolve()
      .then(() => volumeServiceOf(this.services).summary())
      .then(
        (summary) => (this.summary = summary),
        (error: unknown) => {
          this.services.logger.warn(`NAS: could not read the summary: ${errorMessage(error)}`);
          return undefined;
        },
      );
    return this.summaryRead;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }
}
