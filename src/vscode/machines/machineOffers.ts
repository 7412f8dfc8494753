// What the Machines view's Orders and Catalogue sections read (docs/machines.md): the catalogue for the
// view's pack type and the orders, each read once when shown and kept until Refresh, a new pack type, a
// profile switch or a rental forgets them. They are not remote state that moves on its own: nothing polls them.
import * as vscode from 'vscode';
import { DEFAULT_GROUP_SIZE, filterCatalogue, type CatalogueEntry, type CatalogueFilter } from '../../core/machines/catalogueQuery';
import type { MachineService } from '../../core/machines/machineService';
import type { MetalOrder } from '../../core/machines/operations';
import { packName } from './machineText';

export class MachineOffers implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when what the sections show changed (a forget, a filter). */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  filter: CatalogueFilter = { billing: 'Hour' };
  private catalogue: Promise<CatalogueEntry[]> | undefined;
  private orders: Promise<MetalOrder[]> | undefined;

  constructor(
    private readonly service: () => MachineService,
    onProfileChange: vscode.Event<unknown>,
  ) {
    this.disposables.push(onProfileChange(() => this.forget()));
  }

  /** The catalogue for the current pack type (read once until Refresh or a new pack type). */
  catalogueEntries(): Promise<CatalogueEntry[]> {
    this.catalogue ??= this.service().catalogue(this.filter.billing, this.filter.groupSize ?? DEFAULT_GROUP_SIZE);
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

  /** Forgets the catalogue and orders (Refresh, a profile switch, after renting). */
  forget(): void {
    this.catalogue = undefined;
    this.orders = undefined;
    this.changed.fire();
  }

  setFilter(filter: CatalogueFilter): void {
    // The pack type and the group size are asked of the platform; the rest filters what it listed.
    const billingChanged = filter.billing !== this.filter.billing || (filter.groupSize ?? DEFAULT_GROUP_SIZE) !== (this.filter.groupSize ?? DEFAULT_GROUP_SIZE);
    this.filter = filter;
    if (billingChanged) this.catalogue = undefined;
    this.changed.fire();
  }

  filterText(): string {
    const parts = [packName(this.filter.billing)];
    if (this.filter.gpuModel) parts.push(this.filter.gpuModel);
    if (this.filter.gpuCount !== undefined) parts.push(vscode.l10n.t('{0} GPUs', this.filter.gpuCount));
    if (this.filter.zone) parts.push(this.filter.zone);
    if ((this.filter.groupSize ?? DEFAULT_GROUP_SIZE) !== DEFAULT_GROUP_SIZE) parts.push(vscode.l10n.t('groups of {0}', this.filter.groupSize ?? DEFAULT_GROUP_SIZE));
    return parts.join(' · ');
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }
}
