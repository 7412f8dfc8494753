// The Machines view: the rented machines at the top (the kind tree over MACHINE_KIND, the store's rows:
// one poll loop), then two sections read when opened and on Refresh — Orders and the Catalogue (single
// machines and network groups, with the view's filters: pack type, GPU model, GPU count, zone). The
// catalogue and orders are not remote state that moves on its own, so nothing polls them.
import * as vscode from 'vscode';
import { filterCatalogue, productsOf, rentable, type CatalogueEntry, type CatalogueFilter } from '../../core/machines/catalogueQuery';
import { shownText } from '../../core/machines/catalogue';
import type { RentedMachine } from '../../core/machines/machineState';
import type { MachineService } from '../../core/machines/machineService';
import type { MetalOrder } from '../../core/machines/operations';
import { formatPoints } from '../../core/spend/units';
import { Commands } from '../commandIds';
import { errorText } from '../errors/errorText';
import type { KindElement, KindTree } from '../kinds/kindTree';
import { formatDateTime } from '../ui/dates';
import { InfoRow } from '../trees/treeMessages';
import { entryDescription, entryFacts, entryLabel, machineStatusLabel, packName, slowStart, slowStartNote } from './machineText';

export type SectionName = 'orders' | 'catalogue';

export class SectionRow extends vscode.TreeItem {
  readonly kind = 'section' as const;
  constructor(
    readonly section: SectionName,
    label: string,
    description: string,
  ) {
    super(label, vscode.TreeItemCollapsibleState.Collapsed);
    this.id = `machines-section-${section}`;
    this.description = description;
    this.iconPath = new vscode.ThemeIcon(section === 'orders' ? 'list-unordered' : 'server');
    this.contextValue = `machines.${section}`;
  }
}

export class CatalogueRow extends vscode.TreeItem {
  readonly kind = 'catalogue' as const;
  constructor(
    readonly entry: CatalogueEntry,
    billing: CatalogueFilter['billing'],
  ) {
    super(entryLabel(entry), vscode.TreeItemCollapsibleState.None);
    const ids = productsOf(entry).map((product) => product.device_id);
    this.id = `catalogue-${entry.kind}-${entry.kind === 'group' ? entry.group.network_id : ids[0]}`;
    this.description = entryDescription(entry, billing);
    const tooltip = new vscode.MarkdownString();
    for (const fact of entryFacts(entry)) tooltip.appendText(`${fact}\n`);
    this.tooltip = tooltip;
    const ok = rentable(entry, billing);
    this.iconPath = new vscode.ThemeIcon(ok ? (entry.kind === 'group' ? 'server-environment' : 'server') : 'circle-slash');
    this.contextValue = ok ? 'machines.catalogue.rentable' : 'machines.catalogue.unavailable';
    if (ok && slowStart(entry)) this.description = `${this.description} · ${slowStartNote()}`;
  }
}

export class OrderRow extends vscode.TreeItem {
  readonly kind = 'order' as const;
  constructor(readonly order: MetalOrder) {
    super(vscode.l10n.t('Order {0}', shownText(order.order_no) || String(order.order_id)), vscode.TreeItemCollapsibleState.None);
    this.id = `order-${order.order_id}`;
    const gpus = (Array.isArray(order.gpu_models) ? order.gpu_models : []).map((item) => `${item.gpu_count} × ${shownText(item.gpu_model)}`).join(', ');
    const total = Number.isSafeInteger(order.total_price) && order.total_price >= 0 ? formatPoints(order.total_price) : '—';
    this.description = [machineStatusLabel(order.status), gpus, `${order.buy_count} × ${packName(order.billing_type)}`, total].filter((part) => part !== '').join(' · ');
    this.tooltip = vscode.l10n.t('Created {0}', formatDateTime(shownText(order.create_time)) ?? '—');
    this.iconPath = new vscode.ThemeIcon('receipt');
    this.contextValue = 'machines.order';
  }
}

export type MachineElement = KindElement<RentedMachine> | SectionRow | CatalogueRow | OrderRow | InfoRow;

/** How many catalogue rows the view shows (the rest are left to the filters). */
const SHOWN_ENTRIES = 200;

export class MachinesTree implements vscode.TreeDataProvider<MachineElement>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<MachineElement | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  filter: CatalogueFilter = { billing: 'Hour' };
  private catalogue: Promise<CatalogueEntry[]> | undefined;
  private orders: Promise<MetalOrder[]> | undefined;

  constructor(
    readonly rented: KindTree<RentedMachine>,
    private readonly service: () => MachineService,
    onProfileChange: vscode.Event<unknown>,
  ) {
    this.disposables.push(
      rented.onDidChangeTreeData(() => this.changed.fire(undefined)),
      onProfileChange(() => this.forget()),
    );
  }

  /** The catalogue for the current pack type (read once until Refresh or a new pack type). */
  catalogueEntries(): Promise<CatalogueEntry[]> {
    this.catalogue ??= this.service().catalogue(this.filter.billing);
    this.catalogue.catch(() => (this.catalogue = undefined));
    return this.catalogue;
  }

  /** The entries the view shows: filtered, cheapest first. */
  async shownEntries(): Promise<CatalogueEntry[]> {
    return filterCatalogue(await this.catalogueEntries(), this.filter);
  }

  orderList(): Promise<MetalOrder[]> {
    this.orders ??= this.service().orders();
    this.orders.catch(() => (this.orders = undefined));
    return this.orders;
  }

  /** Forgets the catalogue and orders (Refresh, a new pack type, a profile switch, after renting). */
  forget(): void {
    this.catalogue = undefined;
    this.orders = undefined;
    this.changed.fire(undefined);
  }

  setFilter(filter: CatalogueFilter): void {
    const billingChanged = filter.billing !== this.filter.billing;
    this.filter = filter;
    if (billingChanged) this.catalogue = undefined;
    this.changed.fire(undefined);
  }

  filterText(): string {
    const parts = [packName(this.filter.billing)];
    if (this.filter.gpuModel) parts.push(this.filter.gpuModel);
    if (this.filter.gpuCount !== undefined) parts.push(vscode.l10n.t('{0} GPUs', this.filter.gpuCount));
    if (this.filter.zone) parts.push(this.filter.zone);
    return parts.join(' · ');
  }

  getTreeItem(element: MachineElement): vscode.TreeItem {
    return element;
  }

  async getChildren(element?: MachineElement): Promise<MachineElement[]> {
    if (!element) {
      const machines = await this.rented.getChildren();
      return [...machines, new SectionRow('orders', vscode.l10n.t('Orders'), ''), new SectionRow('catalogue', vscode.l10n.t('Catalogue'), this.filterText())];
    }
    if (!(element instanceof SectionRow)) return [];
    try {
      if (element.section === 'orders') {
        const orders = await this.orderList();
        return orders.length > 0 ? orders.map((order) => new OrderRow(order)) : [new InfoRow('orders-empty', vscode.l10n.t('No orders yet.'))];
      }
      const entries = await this.shownEntries();
      if (entries.length === 0) return [new InfoRow('catalogue-empty', vscode.l10n.t('Nothing in the catalogue matches {0}.', this.filterText()))];
      const rows: MachineElement[] = entries.slice(0, SHOWN_ENTRIES).map((entry) => new CatalogueRow(entry, this.filter.billing));
      if (entries.length > SHOWN_ENTRIES) rows.push(new InfoRow('catalogue-more', vscode.l10n.t('{0} more: narrow the filters.', entries.length - SHOWN_ENTRIES)));
      return rows;
    } catch (error) {
      const row = new InfoRow(`${element.section}-error`, vscode.l10n.t('Could not load: {0}', errorText(error)), 'error');
      row.command = { command: Commands.machinesRefresh, title: vscode.l10n.t('Retry') };
      return [row];
    }
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }
}
