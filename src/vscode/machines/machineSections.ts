// The Machines view's Orders and Catalogue as sections of the machine kind (kinds/kindDescriptor.ts
// `KindSection`): collapsed rows after the rented machines, read when opened from MachineOffers, with
// the shared error row. The catalogue shows single machines and network groups through the view's
// filters (pack type, GPU model, GPU count, zone), at most SHOWN_ENTRIES rows.
import * as vscode from 'vscode';
import { productsOf, rentable, type CatalogueEntry, type CatalogueFilter } from '../../core/machines/catalogueQuery';
import { shownText } from '../../core/machines/catalogue';
import type { MetalOrder } from '../../core/machines/operations';
import type { RentedMachine } from '../../core/machines/machineState';
import { formatPoints } from '../../core/spend/units';
import type { KindDescriptor, KindRow, KindSection } from '../kinds/kindDescriptor';
import { formatDateTime } from '../ui/dates';
import { MACHINE_KIND } from './machineKind';
import type { MachineOffers } from './machineOffers';
import { entryDescription, entryFacts, entryLabel, machineStatusLabel, packName, slowStart, slowStartNote } from './machineText';

/** How many catalogue rows the view shows (the rest are left to the filters). */
const SHOWN_ENTRIES = 200;

/** A catalogue entry's row: price per pack, rentable or not (the context value the Rent menu matches). */
export function catalogueRow(entry: CatalogueEntry, billing: CatalogueFilter['billing']): KindRow {
  const ids = productsOf(entry).map((product) => product.device_id);
  const tooltip = new vscode.MarkdownString();
  for (const fact of entryFacts(entry)) tooltip.appendText(`${fact}\n`);
  const ok = rentable(entry, billing);
  const description = entryDescription(entry, billing);
  return {
    id: `catalogue-${entry.kind}-${entry.kind === 'group' ? entry.group.network_id : ids[0]}`,
    label: entryLabel(entry),
    description: ok && slowStart(entry) ? `${description} · ${slowStartNote()}` : description,
    tooltip,
    icon: new vscode.ThemeIcon(ok ? (entry.kind === 'group' ? 'server-environment' : 'server') : 'circle-slash'),
    contextValue: ok ? 'machines.catalogue.rentable' : 'machines.catalogue.unavailable',
  };
}

export function orderRow(order: MetalOrder): KindRow {
  const gpus = (Array.isArray(order.gpu_models) ? order.gpu_models : []).map((item) => `${item.gpu_count} × ${shownText(item.gpu_model)}`).join(', ');
  const total = Number.isSafeInteger(order.total_price) && order.total_price >= 0 ? formatPoints(order.total_price) : '—';
  return {
    id: `order-${order.order_id}`,
    label: vscode.l10n.t('Order {0}', shownText(order.order_no) || String(order.order_id)),
    description: [machineStatusLabel(order.status), gpus, `${order.buy_count} × ${packName(order.billing_type)}`, total].filter((part) => part !== '').join(' · '),
    tooltip: vscode.l10n.t('Created {0}', formatDateTime(shownText(order.create_time)) ?? '—'),
    icon: new vscode.ThemeIcon('receipt'),
    contextValue: 'machines.order',
  };
}

export function ordersSection(offers: MachineOffers): KindSection<MetalOrder> {
  return {
    id: 'machines-section-orders',
    row: () => ({ label: vscode.l10n.t('Orders'), description: '', icon: new vscode.ThemeIcon('list-unordered'), contextValue: 'machines.orders' }),
    what: () => vscode.l10n.t('machine orders'),
    read: () => offers.orderList(),
    entryRow: orderRow,
    empty: () => vscode.l10n.t('No orders yet.'),
    onDidChange: offers.onDidChange,
    // The rented machines the store matched to the order (core/machines/orderMatch.ts) show under it.
    members: (order, machines: readonly RentedMachine[]) => machines.filter((machine) => machine.order?.orderId === order.order_id),
  };
}

export function catalogueSection(offers: MachineOffers): KindSection<CatalogueEntry> {
  return {
    id: 'machines-section-catalogue',
    row: () => ({ label: vscode.l10n.t('Catalogue'), description: offers.filterText(), icon: new vscode.ThemeIcon('server'), contextValue: 'machines.catalogue' }),
    what: () => vscode.l10n.t('machine catalogue'),
    read: () => offers.shownEntries(),
    entryRow: (entry) => catalogueRow(entry, offers.filter.billing),
    empty: () => vscode.l10n.t('Nothing in the catalogue matches {0}.', offers.filterText()),
    limit: { count: SHOWN_ENTRIES, more: (hidden) => vscode.l10n.t('{0} more: narrow the filters.', hidden) },
    onDidChange: offers.onDidChange,
  };
}

/** The Machines view: the rented machines (the store's rows and notices), then Orders and the Catalogue. */
export function machinesView(orders: KindSection<MetalOrder>, catalogue: KindSection<CatalogueEntry>): KindDescriptor<RentedMachine> {
  return { ...MACHINE_KIND, sections: [orders, catalogue] };
}
