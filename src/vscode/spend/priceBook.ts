// Prices of the offers (device × region) the active profile's tasks run on, from one resource
// search kept for 15 minutes: what the burn rate multiplies running nodes by.

import { effectivePointsPerSecond } from '../../core/spend/units';
import { offerKey } from '../../core/spend/spend';
import { resourceServiceOf } from '../client/computeServices';
import type { ExtensionServices } from '../services';

const FRESH_MS = 15 * 60_000;

export class PriceBook {
  private prices = new Map<string, number>();
  private loadedAt = 0;
  private profileId: string | undefined;
  private loading: Promise<void> | undefined;

  constructor(private readonly services: ExtensionServices) {}

  priceOf = (key: string): number | undefined => (this.profileId === this.services.profiles.active?.id ? this.prices.get(key) : undefined);

  /** Loads prices when they are stale or belong to another profile. */
  ensure(): Promise<void> {
    const profile = this.services.profiles.active;
    if (!profile) return Promise.resolve();
    if (this.profileId === profile.id && Date.now() - this.loadedAt < FRESH_MS) return Promise.resolve();
    this.loading ??= this.load(profile.id).finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async load(profileId: string): Promise<void> {
    const page = await resourceServiceOf(this.services).deployments();
    const prices = new Map<string, number>();
    for (const device of page.results) {
      for (const region of device.regions ?? []) {
        const price = effectivePointsPerSecond(region);
        if (price !== null && Number.isFinite(price)) prices.set(offerKey(device.device_name, region.region), price);
      }
    }
    this.prices = prices;
    this.profileId = profileId;
    this.loadedAt = Date.now();
  }
}
