// The machines area (docs/machines.md): the Machines view (rented machines from the store through
// MACHINE_KIND, then orders and the catalogue with its filters), Rent Machine…, Filter Catalogue…,
// Auto-Renew…, the Serving notification (the kind's notices) and the rental-end warnings. Connecting,
// terminals and port forwards live in ./connect. After a change the store is woken, never the tree.
import * as vscode from 'vscode';
import { facetsOf, orderTotal, productsOf, type CatalogueEntry, type CatalogueFilter } from '../../core/machines/catalogueQuery';
import type { MachineService } from '../../core/machines/machineService';
import { machineServiceOf } from '../client/computeServices';
import { BILLING_TYPES, type BillingType } from '../../core/machines/operations';
import type { RentedMachine } from '../../core/machines/machineState';
import { formatPoints } from '../../core/spend/units';
import { Commands } from '../commandIds';
import { registerCommandTable, type CommandEntry } from '../commands/commandTable';
import { Refusal } from '../errors/refusal';
import { createKindView, followKindNotices } from '../kinds/registerKind';
import { entryOfSection, KindItem, KindSectionItem } from '../kinds/kindTree';
import type { ExtensionServices } from '../services';
import type { RemoteState } from '../state/index';
import { environmentName } from '../ui/format';
import { MultiStepInput } from '../ui/multiStepInput';
import type { NotificationCenter } from '../ui/notificationCenter';
import { MACHINE_KIND, orderText } from './machineKind';
import { MachineOffers } from './machineOffers';
import { catalogueSection, machinesView, ordersSection } from './machineSections';
import { packName } from './machineText';
import { askRent, confirmAndRent } from './rentMachine';
import { pickCatalogueFilter } from './catalogueFilterPick';
import { RentalWarnings } from './rentalWarnings';
import { rentalsNote, spendRentalRows } from './spendRentals';
import type { SpendRentals } from '../../shared/spendProtocol';

export interface MachinesApi {
  /** The view as shown: the machine rows, the orders and the filtered catalogue. */
  snapshot(): Promise<{
    message: string | undefined;
    machines: { id: number; label: string; description: string; contextValue: string; order: string }[];
    /** Each order row with the device ids of the machine rows under it. */
    orders: { label: string; description: string; machines: number[] }[];
    catalogue: { label: string; description: string; contextValue: string; tooltip: string }[];
  }>;
  refresh(): Promise<void>;
  setFilter(filter: CatalogueFilter): void;
  /** Runs Rent Machine… as the command does (pickers and review shown); the order id, or undefined when cancelled. */
  rent(deviceId?: number): Promise<number | undefined>;
  /** The rented machines the store holds (what mconnect's commands take). */
  machines(): readonly RentedMachine[];
  /** The Spend page's rented machines: end, time left, auto-renew and its price (the store's first look awaited). */
  spendRentals(): Promise<SpendRentals>;
  /** The rental-end warnings' clock and check (tests move the clock instead of waiting). */
  warnings: { useClock(now: () => number): void; check(): void };
}

/** `own`: the registry's list for this area (areaRegistry.ts); each disposable goes in as it is created. */
export function registerMachines(services: ExtensionServices, state: RemoteState, center: NotificationCenter, own: vscode.Disposable[] = []): { api: MachinesApi; disposables: vscode.Disposable[] } {
  const service = (): MachineService => machineServiceOf(services, () => state.wake());
  const offers = new MachineOffers(service, services.profiles.onDidChangeActive);
  own.push(offers);
  const catalogue = catalogueSection(offers);
  // The one kind tree: the rented machines from the store, then Orders and the Catalogue as sections.
  const { tree: rented } = createKindView(services, state, machinesView(ordersSection(offers), catalogue), own);
  const autoRenewAction = (machine: RentedMachine) => [{ title: vscode.l10n.t('Auto-Renew…'), run: () => vscode.commands.executeCommand(Commands.machinesAutoRenew, machine.deviceId) }];
  const warnings = new RentalWarnings(services, state, center, autoRenewAction);
  own.push(warnings);
  own.push(followKindNotices(state, center, MACHINE_KIND, services));

  function profile() {
    const active = services.profiles.active;
    if (!active) throw new Refusal(vscode.l10n.t('No active profile'));
    return active;
  }

  async function entryFor(target: unknown): Promise<CatalogueEntry | undefined> {
    const shown = entryOfSection(target, catalogue);
    if (shown) return shown;
    if (typeof target !== 'number') return undefined;
    const entry = (await offers.catalogueEntries()).find((candidate) => productsOf(candidate).some((product) => product.device_id === target));
    if (!entry) throw new Refusal(vscode.l10n.t('Machine {0} is not in the catalogue for a {1}.', target, packName(offers.filter.billing)));
    return entry;
  }

  async function rent(target?: unknown): Promise<number | undefined> {
    const active = profile();
    const given = await entryFor(target);
    const choice = await askRent(() => offers.catalogueEntries(), given, offers.filter.billing);
    if (!choice) return undefined;
    const orderId = await confirmAndRent(service(), choice, active);
    if (orderId === undefined) return undefined;
    offers.forget();
    void vscode.window.showInformationMessage(vscode.l10n.t('Order {0} placed; the Machines view follows it until the machine is Serving.', orderId));
    return orderId;
  }

  async function filterCatalogue(): Promise<void> {
    const filter = await pickCatalogueFilter(offers.filter, facetsOf(await offers.catalogueEntries()));
    if (filter) offers.setFilter(filter);
  }

  async function autoRenew(target?: unknown): Promise<void> {
    const machine = await rented.pick(target, vscode.l10n.t('Pick a machine'), (candidate) => candidate.status === 'Serving');
    if (!machine) return;
    const active = profile();
    // The rented row's own price of each pack (as the Spend page shows it); the catalogue's only where the row has none.
    const entry = BILLING_TYPES.every((type) => machine.packPrices?.[type] !== undefined) ? undefined : (await offers.catalogueEntries()).find((candidate) => productsOf(candidate).some((product) => product.device_id === machine.deviceId));
    const items: { label: string; description?: string; type: BillingType | undefined }[] = BILLING_TYPES.map((type) => {
      const price = machine.packPrices?.[type] ?? (entry ? orderTotal(productsOf(entry).filter((product) => product.device_id === machine.deviceId), type, 1) : undefined);
      return { label: vscode.l10n.t('Renew by {0}', packName(type)), description: price === undefined ? vscode.l10n.t('price unknown') : vscode.l10n.t('{0} per renewal', formatPoints(price)), type };
    });
    if (machine.autoRenew) items.unshift({ label: vscode.l10n.t('Turn off auto-renew'), description: vscode.l10n.t('now: {0}', packName(machine.autoRenew)), type: undefined });
    const title = vscode.l10n.t('Auto-renew machine {0} on profile "{1}" ({2})', machine.deviceId, active.label, environmentName(active.environment));
    let picked: (typeof items)[number] | undefined;
    let go = false;
    const finished = await MultiStepInput.run(async (input) => {
      picked = await input.showQuickPick({ title, step: 1, totalSteps: 2, items, placeholder: vscode.l10n.t('Each renewal is charged when the rental ends; a failed charge turns auto-renew off.') });
      const type = picked.type;
      if (type === undefined) return undefined;
      // A renewal spends: the review opens on Cancel, as every spending review does.
      return async (review: MultiStepInput) => {
        go = await review.showReview({
          title,
          step: 2,
          totalSteps: 2,
          go: { label: vscode.l10n.t('Turn On Auto-Renew'), detail: picked?.description ?? '' },
          placeholder:
            active.environment === 'prod'
              ? vscode.l10n.t('Renew machine {0} by {1} on the PRODUCTION profile "{2}" each time its rental ends?', machine.deviceId, packName(type), active.label)
              : vscode.l10n.t('Renew machine {0} by {1} each time its rental ends?', machine.deviceId, packName(type)),
        });
      };
    });
    if (!finished || !picked) return;
    if (picked.type === undefined) await service().cancelAutoRenew(machine.deviceId);
    else if (go) await service().setAutoRenew(machine.deviceId, picked.type, false);
  }

  const entries: CommandEntry<void>[] = [
    {
      id: Commands.machinesRefresh,
      doing: vscode.l10n.t('Load machines'),
      create: () => async () => {
        offers.forget();
        await rented.refresh();
      },
    },
    { id: Commands.machinesRent, doing: vscode.l10n.t('Rent machine'), create: () => async (target?: unknown) => void (await rent(target)) },
    { id: Commands.machinesFilter, doing: vscode.l10n.t('Filter the machine catalogue'), create: () => () => filterCatalogue() },
    { id: Commands.machinesAutoRenew, doing: vscode.l10n.t('Set auto-renew'), create: () => (target?: unknown) => autoRenew(target) },
  ];

  const api: MachinesApi = {
    snapshot: async () => {
      await rented.data.ensureLoaded();
      const children = await rented.getChildren();
      const sections = children.filter((child) => child instanceof KindSectionItem);
      const [orders, catalogue] = await Promise.all(sections.map((section) => rented.getChildren(section)));
      const text = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'object' && value !== null && 'value' in value ? String(value.value) : '');
      return {
        message: rented.message(),
        machines: rented.rows().map((row) => ({ id: row.item.deviceId, label: String(row.label), description: String(row.description ?? ''), contextValue: String(row.contextValue), order: orderText(row.item) })),
        orders: await Promise.all(
          (orders ?? []).map(async (row) => ({
            label: String(row.label),
            description: String(row.description ?? ''),
            machines: (await rented.getChildren(row)).flatMap((child) => (child instanceof KindItem ? [(child.item as RentedMachine).deviceId] : [])),
          })),
        ),
        catalogue: (catalogue ?? []).map((row) => ({ label: String(row.label), description: String(row.description ?? ''), contextValue: String(row.contextValue ?? ''), tooltip: text(row.tooltip) })),
      };
    },
    refresh: async () => {
      offers.forget();
      await rented.refresh();
    },
    setFilter: (filter) => offers.setFilter(filter),
    rent: (deviceId) => rent(deviceId),
    machines: () => rented.items,
    spendRentals: async () => {
      await rented.data.ensureLoaded();
      const warnMs = services.config.machineEndWarningMs;
      return { rentals: spendRentalRows(rented.items, Date.now(), warnMs), rentalsNote: rentalsNote(warnMs) };
    },
    warnings: {
      useClock: (now) => {
        warnings.now = now;
      },
      check: () => warnings.check(),
    },
  };
  own.push(...registerCommandTable(entries, undefined, services.reportError));
  return { api, disposables: own };
}
