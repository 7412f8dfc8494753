// Filter Machine Catalogue…: pack type, GPU model, GPUs per machine, zone and machines per network group in
// one multi-step flow (ui/multiStepInput); GPU, count and zone offer only what the catalogue lists (facetsOf).
import * as vscode from 'vscode';
import { DEFAULT_GROUP_SIZE, GROUP_SIZES, type CatalogueFilter } from '../../core/machines/catalogueQuery';
import { BILLING_TYPES } from '../../core/machines/operations';
import { MultiStepInput } from '../ui/multiStepInput';
import { iconFree } from '../ui/review';
import { packName } from './machineText';

export interface Facets {
  gpuModels: readonly string[];
  gpuCounts: readonly number[];
  zones: readonly string[];
}

/** The new filter, or undefined when the user cancelled. */
export async function pickCatalogueFilter(current: CatalogueFilter, facets: Facets): Promise<CatalogueFilter | undefined> {
  const title = vscode.l10n.t('Filter Machine Catalogue');
  const any = vscode.l10n.t('Any');
  const next: CatalogueFilter = { ...current };
  const choose = async <T>(input: MultiStepInput, step: number, placeholder: string, values: readonly T[], label: (value: T) => string, now: T | undefined): Promise<T | undefined> => {
    const items = [{ label: any, value: undefined as T | undefined }, ...values.map((value) => ({ label: iconFree(label(value)), value: value as T | undefined }))];
    const active = items.find((item) => item.value === now) ?? items[0];
    return (await input.showQuickPick({ title, step, totalSteps: 5, items, placeholder, ...(active ? { activeItem: active } : {}) })).value;
  };
  const set = <K extends 'gpuModel' | 'gpuCount' | 'zone'>(key: K, value: CatalogueFilter[K] | undefined): void => {
    if (value === undefined) delete next[key];
    else next[key] = value;
  };
  const finished = await MultiStepInput.run(async (input) => {
    const items = BILLING_TYPES.map((type) => ({ label: packName(type), type }));
    next.billing = (await input.showQuickPick({ title, step: 1, totalSteps: 5, items, placeholder: vscode.l10n.t('Pack type (the prices shown are per pack)'), activeItem: items.find((item) => item.type === next.billing) })).type;
    return async (second) => {
      set('gpuModel', await choose(second, 2, vscode.l10n.t('GPU model'), facets.gpuModels, String, next.gpuModel));
      return async (third) => {
        set('gpuCount', await choose(third, 3, vscode.l10n.t('GPUs per machine'), facets.gpuCounts, String, next.gpuCount));
        return async (fourth) => {
          set('zone', await choose(fourth, 4, vscode.l10n.t('Zone'), facets.zones, String, next.zone));
          return async (fifth) => {
            const sizes = GROUP_SIZES.map((size) => ({ label: vscode.l10n.t('Network groups of {0} machines', size), size }));
            const now = next.groupSize ?? DEFAULT_GROUP_SIZE;
            next.groupSize = (await fifth.showQuickPick({ title, step: 5, totalSteps: 5, items: sizes, placeholder: vscode.l10n.t('Machines per network group (a group is rented whole)'), activeItem: sizes.find((item) => item.size === now) })).size;
          };
        };
      };
    };
  });
  return finished ? next : undefined;
}
