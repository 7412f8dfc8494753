// The Storage view: object storage (JuiceFS) and shared volumes with their status.
import { Commands, Views } from '../commandIds';
import * as vscode from 'vscode';
import type { StorageItem } from '../../core/compute/api';
import { STORAGE_LIST_STATUSES } from '../../core/tasks/listing';
import { storageServiceOf } from '../client/computeServices';
import type { ExtensionServices } from '../services';
import { formatDateTime } from '../ui/dates';
import { RemoteTree } from '../trees/remoteTree';
import { formatUsage } from './storageValues';
import { ErrorRow, viewMessage } from '../trees/treeMessages';
import { errorMessage } from '../../shared/errorMessage';
import { markdownText as md } from '../markdownText';

export const STORAGE_VIEW_ID = Views.storage;

export class StorageRow extends vscode.TreeItem {
  readonly kind = 'storage' as const;
  constructor(readonly storage: StorageItem) {
    super(storage.storage_name, vscode.TreeItemCollapsibleState.None);
    this.id = `storage/${storage.storage_id}`;
    const location = storageLocation(storage);
    const usage = formatUsage(storage.use_size, storage.size);
    this.description = [storageStateName(storage.status), usage, location].filter(Boolean).join(' · ');
    const created = formatDateTime(storage.create_time);
    this.tooltip = new vscode.MarkdownString(
      [
        `**${md(storage.storage_name)}** · ${md(storage.storage_type)} · ${vscode.l10n.t('storage id {0}', md(storage.storage_id))}`,
        '',
        `- ${vscode.l10n.t('Status: {0}', `**${md(storageStateName(storage.status))}**`)} (${md(storage.status)})`,
        ...(usage ? [`- ${vscode.l10n.t('Used: {0}', md(usage))}`] : []),
        `- ${vscode.l10n.t('Bucket: {0}, directory {1}', md(storage.bucket || '—'), md(storage.dir || '/'))}`,
        `- ${vscode.l10n.t('Endpoint: {0} (region id {1})', md(storage.endpoint || '—'), md(storage.juicefs_region_id))}`,
        ...(created ? [`- ${vscode.l10n.t('Created: {0}', md(created))}`] : []),
        '',
        `_${md(vscode.l10n.t('Right-click → Check Storage Credentials… to test access with your keys.'))}_`,
      ].join('\n'),
    );
    this.iconPath = storageIcon(storage.status);
    this.contextValue = 'storage';
  }
}

/** "bucket/dir" as a user writes it: the platform's dir often starts with "/" ("/imagenet"), so no "//". */
export function storageLocation(storage: Pick<StorageItem, 'bucket' | 'dir'>): string {
  const dir = (storage.dir ?? '').replace(/^\/+/, '');
  return [storage.bucket, dir].filter((part) => part && part.length > 0).join('/');
}

/** The platform's state words ("Activate") as a person reads them ("Active"). */
export function storageStateName(status: string): string {
  switch (status) {
    case 'Activate':
      return vscode.l10n.t('Active');
    case 'Unactivated':
      return vscode.l10n.t('Not activated');
    case 'Delete':
      return vscode.l10n.t('Deleted');
    default:
      return status;
  }
}

function storageIcon(status: StorageItem['status']): vscode.ThemeIcon {
  switch (status) {
    case 'Activate':
      return new vscode.ThemeIcon('database', new vscode.ThemeColor('testing.iconPassed'));
    case 'Unactivated':
      return new vscode.ThemeIcon('circle-large-outline', new vscode.ThemeColor('charts.yellow'));
    default:
      return new vscode.ThemeIcon('trash', new vscode.ThemeColor('disabledForeground'));
  }
}

export type StorageElement = StorageRow | ErrorRow;

export class StorageTree extends RemoteTree<StorageItem[], StorageElement> {
  constructor(services: ExtensionServices) {
    super(services, STORAGE_VIEW_ID, (signal) => this.loadStorage(signal));
  }

  message(): string | undefined {
    if (!this.services.profiles.active) return undefined;
    return viewMessage(this.data.state, 'storage', this.services.redactor, (items) => items.length === 0, vscode.l10n.t('No storage configured on this account. Add buckets in the platform console.'));
  }

  async getChildren(element?: StorageElement): Promise<StorageElement[]> {
    if (element || !this.services.profiles.active) return [];
    await this.data.ensureLoaded();
    const state = this.data.state;
    const items = this.data.value;
    if (!items) return state.kind === 'failed' ? [new ErrorRow(state.error, 'storage', Commands.storageRefresh, this.services.redactor)] : [];
    return items.map((item) => new StorageRow(item));
  }

  /** The listed storages (loading them once if needed), for the check wizard to offer; empty when unknown. */
  async listed(): Promise<readonly StorageItem[]> {
    if (!this.services.profiles.active) return [];
    await this.data.ensureLoaded();
    return this.data.value ?? [];
  }

  /** Object storage (JuiceFS) buckets, the kind the credentials check is for; deleted ones left out. */
  private async loadStorage(signal: AbortSignal): Promise<StorageItem[]> {
    try {
      const listed = await storageServiceOf(this.services).list({ storageType: 'Juicefs', statuses: STORAGE_LIST_STATUSES }, { signal });
      if (listed.truncated) this.services.logger.warn(`Storage: showing the first ${listed.items.length} of ${listed.count} items (listing cap).`);
      return listed.items;
    } catch (error) {
      this.services.logger.warn(`Storage: could not load the storage list: ${errorMessage(error)}`);
      throw error;
    }
  }
}
