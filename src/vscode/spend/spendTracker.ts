// Today's, this week's and this month's spend per profile: one billing request, at most every five
// minutes (the platform posts charges every 5 minutes), or at once when asked. The active profile's
// figures feed the status bar and the Spend page; every watched profile's feed its budget.

import * as vscode from 'vscode';
import { spendWindow, summarizeSpend, type SpendSummary } from '../../core/spend/spend';
import { billingServiceFor } from '../client/computeServices';
import type { ExtensionServices, Profile } from '../services';

/** The platform posts charges every 5 minutes; asking more often cannot show anything new. */
export const SPEND_REFRESH_MS = 5 * 60_000;

export interface SpendState {
  profileId: string;
  summary: SpendSummary;
  at: number;
}

export class SpendTracker implements vscode.Disposable {
  private readonly states = new Map<string, SpendState>();
  private readonly loading = new Map<string, Promise<SpendState | undefined>>();
  private readonly changed = new vscode.EventEmitter<SpendState>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly services: ExtensionServices) {}

  /** The active profile's last figures. */
  get current(): SpendState | undefined {
    const profile = this.services.profiles.active;
    return profile ? this.states.get(profile.id) : undefined;
  }

  /** Refreshes a profile's figures (default: the active one's) when older than five minutes (or `force`). */
  refresh(force = false, profile: Profile | undefined = this.services.profiles.active): Promise<SpendState | undefined> {
    if (!profile) return Promise.resolve(undefined);
    const current = this.states.get(profile.id);
    if (!force && current && Date.now() - current.at < SPEND_REFRESH_MS) return Promise.resolve(current);
    let loading = this.loading.get(profile.id);
    if (!loading) {
      loading = this.load(profile).finally(() => this.loading.delete(profile.id));
      this.loading.set(profile.id, loading);
    }
    return loading;
  }

  private async load(profile: Profile): Promise<SpendState | undefined> {
    const now = Date.now();
    const window = spendWindow(now);
    const page = await billingServiceFor(this.services, profile).byTime(window.query);
    if (!this.services.profiles.all.some((candidate) => candidate.id === profile.id)) return undefined; // removed meanwhile
    const state = { profileId: profile.id, summary: summarizeSpend(page.results, now), at: now };
    this.states.set(profile.id, state);
    this.changed.fire(state);
    return state;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
