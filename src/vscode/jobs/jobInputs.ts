// The questions Create Job… and Run on GPU… share: a resource by stock and price, Spot or on-demand
// (Spot preselected; on-demand only when the user picks it or nothing Spot-able is in stock), and the
// cost review (rate, expected, the cap implied by the timeout) before anything spends.

import * as vscode from 'vscode';
import type { Device, Region } from '../../core/compute/api';
import type { ResourceService } from '../../core/resources/resourceService';
import { estimateJobCost } from '../../core/jobs/cost';
import { formatPricePerHour } from '../../core/spend/units';
import { deviceLabel, deviceSpecs } from '../ui/format';
import { review } from '../ui/review';
import { shownValue } from '../../core/shownValue';
import type { Step } from '../ui/multiStepInput';
import { counted } from '../ui/counts';
import { durationText } from '../ui/duration';

export interface ResourceChoice {
  device: Device;
  region: Region;
  pointsPerSecond: number;
  spot: boolean;
}

interface OfferItem extends vscode.QuickPickItem {
  device: Device;
  region: Region;
  pointsPerSecond: number;
}

/** The offers by stock and price, in stock and cheapest first, and the one to highlight. */
async function offerItems(resources: ResourceService, preferred?: { deviceName: string; region: string }): Promise<{ items: OfferItem[]; active: OfferItem | undefined }> {
  const devices = await resources.gpuDeployments();
  const items: OfferItem[] = [];
  for (const device of devices.results) {
    for (const region of device.regions) {
      const price = region.discount_price ?? region.price;
      if (price === null || price === undefined) continue;
      items.push({
        label: `${deviceLabel(device)} · ${region.region_name}`,
        description: `${formatPricePerHour(price)} · ${region.inventory > 0 ? vscode.l10n.t('{0} in stock', region.inventory) : vscode.l10n.t('sold out')}`,
        detail: deviceSpecs(device),
        device,
        region,
        pointsPerSecond: price,
      });
    }
  }
  // In stock first, cheapest first.
  items.sort((a, b) => Number(b.region.inventory > 0) - Number(a.region.inventory > 0) || a.pointsPerSecond - b.pointsPerSecond);
  return { items, active: items.find((item) => item.device.device_name === preferred?.deviceName && item.region.region === preferred?.region) ?? items[0] };
}

/** Billing mode answers: Spot first (recommended), on-demand second. */
function billingItems(): (vscode.QuickPickItem & { value: boolean })[] {
  return [
    { label: vscode.l10n.t('Spot (recommended)'), description: vscode.l10n.t('cheaper; may wait in the queue'), value: true },
    { label: vscode.l10n.t('On-demand'), description: vscode.l10n.t('starts when resources are free'), value: false },
  ];
}

/**
 * The resource and billing questions as two steps of a multi-step flow (ui/multiStepInput): the offer
 * last chosen and the billing mode last chosen are highlighted (Run on GPU keeps them in .compute/run.json).
 * A sold-out offer asks whether to run on-demand instead of Spot, in the billing step.
 */
export function resourceSteps(
  resources: ResourceService,
  state: { choice?: ResourceChoice; preferred?: { deviceName: string; region: string }; spot?: boolean },
  at: (step: number) => { title: string; step: number; totalSteps?: number },
  first: number,
  then: Step | undefined,
): Step {
  const askBilling: Step = async (input) => {
    const choice = state.choice as ResourceChoice;
    const items = billingItems();
    if (choice.region.inventory <= 0) {
      items[0] = { label: vscode.l10n.t('Keep Spot'), description: vscode.l10n.t('This resource is sold out: wait in the queue'), value: true };
      items[1] = { label: vscode.l10n.t('Use On-demand'), description: vscode.l10n.t('starts when it frees up'), value: false };
    }
    const picked = await input.showQuickPick({ ...at(first + 1), items, placeholder: vscode.l10n.t('Spot or on-demand'), activeItem: items.find((item) => item.value === (state.spot ?? true)) });
    state.spot = picked.value;
    state.choice = { ...choice, spot: picked.value };
    return then;
  };
  let offers: { items: OfferItem[]; active: OfferItem | undefined } | undefined;
  return async (input) => {
    offers ??= await offerItems(resources, state.preferred);
    const current = offers.items.find((item) => item.device === state.choice?.device && item.region === state.choice?.region) ?? offers.active;
    const picked = await input.showQuickPick({ ...at(first), items: offers.items, placeholder: vscode.l10n.t('Pick a GPU: in stock and cheapest first'), ...(current ? { activeItem: current } : {}) });
    state.choice = { device: picked.device, region: picked.region, pointsPerSecond: picked.pointsPerSecond, spot: state.spot ?? true };
    return askBilling;
  };
}

export interface JobCostInput {
  name: string;
  resourceLabel: string;
  pointsPerSecond: number;
  spot: boolean;
  completions: number;
  parallelism: number;
  timeoutSec: number;
  estimatedSec?: number;
  profile: string;
}

/** The review's money line (rate, expected, the cap implied by the timeout) and its go answer, named with the rate. */
export function jobCostReview(input: JobCostInput): { placeholder: string; go: { label: string; description: string; detail: string } } {
  const cost = estimateJobCost({ ...input, estimatedSec: input.spot ? (input.estimatedSec ?? null) : null });
  const what = vscode.l10n.t('{0} at once of {1}, {2}', counted(Math.min(input.parallelism, input.completions), 'pod'), input.resourceLabel, input.spot ? vscode.l10n.t('Spot') : vscode.l10n.t('On-demand'));
  const money = [
    vscode.l10n.t('Rate: {0} while pods run', cost.rateText),
    ...(cost.expectedText ? [vscode.l10n.t('Expected: about {0}', cost.expectedText)] : []),
    vscode.l10n.t('At most {0} (timeout {1})', cost.capText, durationText(input.timeoutSec)),
  ].join(' · ');
  return { placeholder: money, go: { label: vscode.l10n.t('Run ({0})', cost.rateText), description: vscode.l10n.t('Profile: {0}', input.profile), detail: `${what} · ${money}` } };
}

/**
 * The cost before anything spends, and what will run and be sent (`facts`, for a run whose settings
 * come from workspace files); resolves true only when the user chose to run. The one review
 * (ui/review.ts): its first, highlighted answer is Cancel, so Enter never spends money by accident.
 */
export async function confirmJobCost(input: JobCostInput, facts: readonly string[] = []): Promise<boolean> {
  return review({ title: vscode.l10n.t('Run job "{0}"?', shownValue(input.name, 80)), ...jobCostReview(input), facts });
}
