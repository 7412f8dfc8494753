// Rent Machine… (docs/machines.md): the catalogue entry (a row, or picked here), the pack type with each
// one's price, the number of packs with the total as the user types (unit price × packs, × machines for a
// group), software init (the platform's `software_init`: it installs software it does not name), then the
// one spending review with Cancel first. The buy sends the catalogue's unit price; when the platform
// refuses it because the price changed, the review shows the new price and asks again.
import * as vscode from 'vscode';
import { BILLING_TYPES, type BillingType, type MetalProduct } from '../../core/machines/operations';
import { MAX_PACKS, filterCatalogue, maxPacksOf, orderTotal, packOfAll, productsOf, rentable, sharedUnitPrice, withPrice, type CatalogueEntry } from '../../core/machines/catalogueQuery';
import type { MachineService } from '../../core/machines/machineService';
import { PriceChangedError } from '../../core/machines/priceChanged';
import { formatPoints } from '../../core/spend/units';
import { Refusal } from '../errors/refusal';
import type { Profile } from '../services';
import { environmentName } from '../ui/format';
import { MultiStepInput, confirmSpend } from '../ui/multiStepInput';
import { iconFree } from '../ui/review';
import { entryDescription, entryFacts, entryLabel, packLength, packName, slowStart, slowStartNote } from './machineText';

export interface RentChoice {
  entry: CatalogueEntry;
  billing: BillingType;
  packs: number;
  softwareInit: boolean;
}

/** "Total: …" with how it adds up: one unit price for all machines, or the sum of theirs when they differ. */
function totalLine(products: readonly MetalProduct[], billing: BillingType, packs: number, total: number | undefined): string {
  const shown = total === undefined ? '—' : formatPoints(total);
  const unit = sharedUnitPrice(products, billing);
  if (products.length === 1) return vscode.l10n.t('Total: {0} = {1} packs × {2}', shown, packs, unit === undefined ? '—' : formatPoints(unit));
  if (unit !== undefined) return vscode.l10n.t('Total: {0} = {1} machines × {2} packs × {3}', shown, products.length, packs, formatPoints(unit));
  const all = packOfAll(products, billing);
  return vscode.l10n.t('Total: {0} = {1} packs × {2} (one pack of each of the {3} machines, priced apart)', shown, packs, all === undefined ? '—' : formatPoints(all), products.length);
}

/** The review's lines: what is rented, for how long, what it costs, and when it is usable. */
export function reviewFacts(choice: RentChoice, profile: Profile): string[] {
  const products = productsOf(choice.entry);
  const total = orderTotal(products, choice.billing, choice.packs);
  const lines = [
    vscode.l10n.t('Profile: {0} ({1})', profile.label, environmentName(profile.environment)),
    entryLabel(choice.entry),
    ...entryFacts(choice.entry).filter((fact) => fact !== slowStartNote()),
    vscode.l10n.t('{0} × {1} ({2} each)', choice.packs, packName(choice.billing), packLength(choice.billing)),
    totalLine(products, choice.billing, choice.packs, total),
    choice.softwareInit ? vscode.l10n.t('Software init: yes') : vscode.l10n.t('Software init: no'),
    vscode.l10n.t('No API cancels an order or releases a machine early: the whole rental is billed.'),
  ];
  if (slowStart(choice.entry) || choice.entry.kind === 'group') lines.push(slowStartNote());
  return lines;
}

/** Asks for the go-ahead; true only when the user picked Rent. */
export function reviewRent(choice: RentChoice, profile: Profile, note?: string): Promise<boolean> {
  const total = orderTotal(productsOf(choice.entry), choice.billing, choice.packs);
  const prod = profile.environment === 'prod';
  return confirmSpend({
    title: prod ? vscode.l10n.t('Rent Machine — PRODUCTION profile "{0}"', profile.label) : vscode.l10n.t('Rent Machine'),
    placeholder: note ?? vscode.l10n.t('Review: pick Rent, or Cancel'),
    go: {
      label: vscode.l10n.t('$(credit-card) Rent for {0}', total === undefined ? '—' : formatPoints(total)),
      description: prod ? vscode.l10n.t('⚠ on PRODUCTION profile "{0}"', profile.label) : vscode.l10n.t('on profile "{0}" ({1})', profile.label, environmentName(profile.environment)),
      detail: note,
    },
    lines: [...(note ? [note] : []), ...reviewFacts(choice, profile)].map(iconFree),
    linesTitle: vscode.l10n.t('What will be rented'),
  });
}

/** The questions before the review (entry when not given, pack type, packs, software init). */
export async function askRent(entries: () => Promise<CatalogueEntry[]>, given: CatalogueEntry | undefined, billing: BillingType): Promise<RentChoice | undefined> {
  const title = vscode.l10n.t('Rent Machine');
  const choice: Partial<RentChoice> & { billing: BillingType; packs: number; softwareInit: boolean } = { billing, packs: 1, softwareInit: false, ...(given ? { entry: given } : {}) };
  const askEntry = async (input: MultiStepInput): Promise<typeof askBilling> => {
    const shown = filterCatalogue(await entries(), { billing: choice.billing }).filter((entry) => rentable(entry, choice.billing));
    if (shown.length === 0) throw new Refusal(vscode.l10n.t('Nothing in the catalogue can be rented with a {0} now.', packName(choice.billing)));
    const items = shown.slice(0, 500).map((entry) => ({ label: iconFree(entryLabel(entry)), description: iconFree(entryDescription(entry, choice.billing)), entry }));
    choice.entry = (await input.showQuickPick({ title, step: 1, items, placeholder: vscode.l10n.t('The machine or network group to rent') })).entry;
    return askBilling;
  };
  const askBilling = async (input: MultiStepInput): Promise<typeof askPacks> => {
    const products = productsOf(choice.entry as CatalogueEntry);
    const items = BILLING_TYPES.filter((type) => orderTotal(products, type, 1) !== undefined).map((type) => ({
      label: packName(type),
      description: vscode.l10n.t('{0} per pack ({1})', formatPoints(orderTotal(products, type, 1) as number), packLength(type)),
      type,
    }));
    if (items.length === 0) throw new Refusal(vscode.l10n.t('The catalogue gives this machine no usable price.'));
    const active = items.find((item) => item.type === choice.billing) ?? items[0];
    choice.billing = (await input.showQuickPick({ title, step: given ? 1 : 2, items, placeholder: vscode.l10n.t('Pack type: how long one pack lasts'), ...(active ? { activeItem: active } : {}) })).type;
    return askPacks;
  };
  const askPacks = async (input: MultiStepInput): Promise<typeof askInit> => {
    const products = productsOf(choice.entry as CatalogueEntry);
    const most = Math.min(MAX_PACKS, maxPacksOf(products));
    const parse = (value: string): number | undefined => (/^\s*\d{1,5}\s*$/.test(value) ? Number(value) : undefined);
    const value = await input.showInputBox({
      title,
      step: given ? 2 : 3,
      value: String(choice.packs),
      prompt: vscode.l10n.t('How many {0}s (1–{1})', packName(choice.billing), most),
      validate: (text) => {
        const packs = parse(text);
        return packs !== undefined && packs >= 1 && packs <= most ? undefined : vscode.l10n.t('A whole number from 1 to {0}', most);
      },
      note: (text) => {
        const packs = parse(text);
        const total = packs === undefined ? undefined : orderTotal(products, choice.billing, packs);
        return total === undefined ? undefined : { severity: 'info', text: vscode.l10n.t('Total {0}', formatPoints(total)) };
      },
    });
    choice.packs = parse(value) ?? 1;
    return askInit;
  };
  const askInit = async (input: MultiStepInput): Promise<void> => {
    const no = { label: vscode.l10n.t('No software init'), description: vscode.l10n.t('the machine as listed'), init: false };
    const yes = { label: vscode.l10n.t('Software init'), description: vscode.l10n.t("the platform installs its software first (it does not say which)"), init: true };
    choice.softwareInit = (await input.showQuickPick({ title, step: given ? 3 : 4, items: [no, yes], placeholder: vscode.l10n.t('Software init'), activeItem: choice.softwareInit ? yes : no })).init;
  };
  const finished = await MultiStepInput.run(given ? askBilling : askEntry);
  return finished && choice.entry ? (choice as RentChoice) : undefined;
}

/**
 * Reviews and rents; a changed price shows the new price in the review and asks again (at most a few
 * times: a price that keeps moving is reported). Resolves the order id, or undefined when cancelled.
 */
export async function confirmAndRent(service: MachineService, first: RentChoice, profile: Profile): Promise<number | undefined> {
  let choice = first;
  let note: string | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (!(await reviewRent(choice, profile, note))) return undefined;
    try {
      return await service.rent({ products: productsOf(choice.entry), billing: choice.billing, packs: choice.packs, softwareInit: choice.softwareInit });
    } catch (error) {
      if (!(error instanceof PriceChangedError)) throw error;
      const before = orderTotal(productsOf(choice.entry), choice.billing, choice.packs);
      choice = { ...choice, entry: repriced(choice.entry, error) };
      const after = orderTotal(productsOf(choice.entry), choice.billing, choice.packs);
      note = vscode.l10n.t('The price changed: machine {0} now costs {1} per pack; the total is {2} (was {3}). Nothing was ordered.', error.deviceId, formatPoints(error.newPrice), after === undefined ? '—' : formatPoints(after), before === undefined ? '—' : formatPoints(before));
    }
  }
  throw new Refusal(vscode.l10n.t('The price kept changing; nothing was ordered. Refresh the catalogue and try again.'));
}

/** The entry with one machine's new price. */
function repriced(entry: CatalogueEntry, change: PriceChangedError): CatalogueEntry {
  const update = <T extends { device_id: number }>(product: T): T => (product.device_id === change.deviceId ? (withPrice(product as never, change.billing, change.newPrice) as unknown as T) : product);
  return entry.kind === 'single' ? { kind: 'single', product: update(entry.product) } : { kind: 'group', group: { ...entry.group, inner: entry.group.inner.map(update) } };
}
