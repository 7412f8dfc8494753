// Today's, this week's and this month's spend of the active profile: one billing request, at most
// every five minutes (the platform posts charges every 5 minutes), or at once when asked.

import * as vscode from 'vscode';
import { spendWindow, summarizeSpend, type SpendSummary } from '../../core/spend/spend';
import type { ExtensionServices } from '../services';

/** The platform posts charges every 5 minutes; asking more often cannot show anything new. */
export const SPEND_REFRESH_MS = 5 * 60_000;

export interface SpendState {
  profileId: string;
  summary: SpendSummary;
  at: number;
}

export class SpendTracker implements vscode.Disposable {
  private state: SpendState | undefined;
  private loading: Promise<SpendState | undefined> | undefined;
  private readonly changed = new vscode.EventEmitter<SpendState>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly services: ExtensionServices) {
    this.subscription = services.profiles.onDidChangeActive(() => {
      this.state = undefined;
    });
  }

  get current(): SpendState | undefined {
    const profile = this.services.profiles.active;
    return this.state && profile && this.state.profileId === profile.id ? this.state : undefined;
  }

  /** Refreshes when the last figures are older than five minutes (or `force`). */
  refresh(force = false): Promise<SpendState | undefined> {
    const current = this.current;
    if (!force && current && Date.now() - current.at < SPEND_REFRESH_MS) return Promise.resolve(current);
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async load(): Promise<SpendState | undefined> {
    const profile = this.services.profiles.active;
    if (!profile) return undefined;
    const now = Date.now();
    const window = spendWindow(now);
    const page = await this.services.computeClient().call('billing.byTime', window.query);
    if (this.services.profiles.active?.id !== profile.id) return undefined; // switched meanwhile
    this.state = { profileId: profile.id, summary: summarizeSpend(page.results, now), at: now };
    this.changed.fire(this.state);
    return this.state;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
