// The Resources view: devices ("RTX 4090 × 2") → regions with price, discount and inventory.
import { Commands, Views } from '../commandIds';
import * as vscode from 'vscode';
import type { Device, Region } from '../../core/compute/api';
import type { ExtensionServices } from '../services';
import {
  cheapestInStock,
  deviceLabel,
  deviceSpecs,
  formatInventory,
  formatRegionPrice,
  discountNote,
  effectivePrice,
  isSoldOut,
  formatYuanPerHour,
  sortDevicesByPrice,
  yuanPerHour,
} from '../ui/format';
import { RemoteTree } from '../trees/remoteTree';
import type { ResourceFilterStore } from './resourceFilter';
import { searchDevices, sortRegions } from './resourceSearch';
import { ErrorRow, viewMessage } from '../trees/treeMessages';
import { markdownText as md } from '../markdownText';

export const RESOURCES_VIEW_ID = Views.resources;

export class DeviceItem extends vscode.TreeItem {
  readonly kind = 'device' as const;
  constructor(
    readonly device: Device,
    readonly regions: readonly Region[],
  ) {
    super(deviceLabel(device), vscode.TreeItemCollapsibleState.Collapsed);
    this.id = `device/${device.device_name}`;
    const cheapest = cheapestInStock(device);
    const cheapestPrice = cheapest ? effectivePrice(cheapest) : null;
    const inStock = device.regions.reduce((total, region) => total + Math.max(0, region.inventory), 0);
    // What decides a choice first (price, stock): the default 300 px side bar cuts the end of a row.
    this.description = cheapestPrice !== null
      ? vscode.l10n.t('from {0} · {1} in stock · {2}', formatYuanPerHour(yuanPerHour(cheapestPrice)), inStock, deviceSpecs(device))
      : vscode.l10n.t('sold out · {0}', deviceSpecs(device));
    this.tooltip = new vscode.MarkdownString(
      [
        `**${md(deviceLabel(device))}** (${md(device.device_name)})`,
        '',
        `- ${md(deviceSpecs(device))}`,
        `- ${vscode.l10n.t('Disk: {0}', `${device.disk_size >= 1024 ? `${Math.round(device.disk_size / 1024)} GB` : `${device.disk_size} MB`} ${md(device.disk_type)}`)}`,
        `- ${vscode.l10n.t('Regions: {0} ({1} in stock)', device.regions.length, device.regions.filter((region) => !isSoldOut(region)).length)}`,
      ].join('\n'),
    );
    this.iconPath = new vscode.ThemeIcon(device.gpu_count > 0 ? 'circuit-board' : 'server');
    this.contextValue = 'device';
  }
}

export class RegionItem extends vscode.TreeItem {
  readonly kind = 'region' as const;
  constructor(
    readonly device: Device,
    readonly region: Region,
    readonly parent: DeviceItem,
  ) {
    super(region.region_name || region.region, vscode.TreeItemCollapsibleState.None);
    this.id = `device/${device.device_name}/region/${region.region}`;
    const soldOut = isSoldOut(region);
    const discount = discountNote(region);
    const price = effectivePrice(region);
    this.description = `${price === null ? vscode.l10n.t('price n/a') : formatYuanPerHour(yuanPerHour(price))} · ${soldOut ? vscode.l10n.t('sold out') : vscode.l10n.t('{0} available', region.inventory)}${discount ? ` · ${discount}` : ''}`;
    this.tooltip = new vscode.MarkdownString(
      [
        vscode.l10n.t('{0} in {1}', `**${md(deviceLabel(device))}**`, `**${md(region.region_name)}** (${md(region.region)})`),
        '',
        `- ${vscode.l10n.t('Price: {0}', md(formatRegionPrice(region)))}`,
        `- ${vscode.l10n.t('Inventory: {0}', md(formatInventory(region)))}`,
        `- ${md(deviceSpecs(device))}`,
        '',
        `_${soldOut ? vscode.l10n.t('Sold out: a task created here stays Pending until capacity frees up.') : vscode.l10n.t('Right-click → Create Task Here…')}_`,
      ].join('\n'),
    );
    // Sold-out regions stay listed (prices are still useful) but read as unavailable.
    this.iconPath = soldOut
      ? new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('disabledForeground'))
      : new vscode.ThemeIcon('location', new vscode.ThemeColor('testing.iconPassed'));
    this.contextValue = 'region';
  }
}

export type ResourceElement = DeviceItem | RegionItem | ErrorRow;

export class ResourcesTree extends RemoteTree<Device[], ResourceElement> {
  constructor(
    services: ExtensionServices,
    private readonly filter: ResourceFilterStore,
  ) {
    super(services, RESOURCES_VIEW_ID, (signal) => searchDevices(services, filter, signal));
    this.disposables.push(filter.onDidChange(() => void this.refresh()));
  }

  message(): string | undefined {
    if (!this.services.profiles.active) return undefined;
    return viewMessage(
      this.data.state,
      'resources',
      this.services.redactor,
      (devices) => devices.length === 0,
      vscode.l10n.t('No devices match the current filter. Use the filter button to widen it.'),
    );
  }

  getParent(element: ResourceElement): ResourceElement | undefined {
    return element.kind === 'region' ? element.parent : undefined;
  }

  async getChildren(element?: ResourceElement): Promise<ResourceElement[]> {
    if (element) return element.kind === 'device' ? element.regions.map((region) => new RegionItem(element.device, region, element)) : [];
    if (!this.services.profiles.active) return []; // the welcome view offers to create one
    await this.data.ensureLoaded();
    const state = this.data.state;
    const devices = this.data.value;
    if (!devices) return state.kind === 'failed' ? [new ErrorRow(state.error, 'resources', Commands.resourcesRefresh, this.services.redactor)] : [];
    // searchDevices already narrowed the devices and regions by the filter.
    return sortDevicesByPrice(devices).map((device) => new DeviceItem(device, sortRegions(device.regions)));
  }

  /** Also shows the active filter as the view's description. */
  protected override render(): void {
    if (this.view) this.view.description = this.filter.describe();
    super.render();
  }
}

