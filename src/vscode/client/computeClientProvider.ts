// One compute client per active profile, built on first use and dropped when the profile, its secrets
// or the request settings change. Feature areas ask for it per use (services.computeClient()) and never
// keep it, so a profile switch re-scopes every caller at once.

import type * as vscode from 'vscode';
import type { ComputeClient, ComputeClientOptions, ComputeCredentials, ExchangeRecord } from '../../core/compute/api';
import type { Logger } from '../../core/log';
import type { Config } from '../config';
import { MissingSecretError, NoProfileError } from '../errors/missingSecretError';
import { computeCore } from '../lazyCore';
import type { Profile, ProfileService } from '../services';

export class ComputeClientProvider implements vscode.Disposable {
  private cached: { identity: string; client: ComputeClient } | undefined;
  /** Clients of other profiles (watched in the background), by profile id. */
  private readonly others = new Map<string, { identity: string; client: ComputeClient }>();
  /** Told about every attempt of every client's calls (the request history). */
  private observer: ((profile: Profile, exchange: ExchangeRecord) => void) | undefined;

  constructor(
    private readonly store: ProfileService,
    private readonly config: Config,
    private readonly logger: Logger,
  ) {}

  /** The client of the active profile; throws NoProfileError when there is none. */
  get(): ComputeClient {
    const profile = this.store.active;
    if (!profile) throw new NoProfileError();
    const identity = JSON.stringify(profile);
    if (this.cached?.identity !== identity) {
      this.invalidate();
      this.cached = { identity, client: this.create(profile) };
    }
    return this.cached.client;
  }

  /**
   * The client of any profile (the active one's is the same as get()), kept until that profile, its
   * secrets or the request settings change. The remote-state store watches every profile through it.
   */
  forProfile(profile: Profile): ComputeClient {
    if (profile.id === this.store.active?.id) return this.get();
    const identity = JSON.stringify(profile);
    const cached = this.others.get(profile.id);
    if (cached?.identity === identity) return cached.client;
    cached?.client.reset();
    const client = this.create(profile);
    this.others.set(profile.id, { identity, client });
    return client;
  }

  /** Sets the observer of every attempt of every client built from now on (clients are rebuilt on change). */
  observe(observer: (profile: Profile, exchange: ExchangeRecord) => void): void {
    this.observer = observer;
    this.invalidate();
  }

  /** A separate client for `profile` with some options replaced (tests inject a skewed clock this way). */
  create(profile: Profile, overrides: Partial<Omit<ComputeClientOptions, 'baseUrl' | 'credentials'>> = {}): ComputeClient {
    return computeCore().createComputeClient({
      baseUrl: profile.computeBaseUrl,
      credentials: () => this.credentials(profile),
      timeoutMs: this.config.requestTimeoutMs,
      maxRetries: this.config.maxRetries,
      logger: this.logger,
      onExchange: (exchange) => this.observer?.(profile, exchange),
      ...overrides,
    });
  }

  /** Drops the current client (its cached keys and learned fallbacks go with it). */
  invalidate(): void {
    this.cached?.client.reset();
    this.cached = undefined;
    for (const other of this.others.values()) other.client.reset();
    this.others.clear();
  }

  dispose(): void {
    this.invalidate();
  }

  /** Read per request, so a secret stored a moment ago is used by the very next call. */
  private async credentials(profile: Profile): Promise<ComputeCredentials> {
    const token = await this.store.getSecret(profile.id, 'apiToken');
    // The reasons are the log's words: the user reads the setup error worded from its classification.
    // eslint-disable-next-line no-restricted-syntax -- log text (see above)
    if (!token) throw new MissingSecretError(profile, 'apiToken', 'every compute request carries it');
    if (profile.mode === 'token') return { mode: 'token', token };
    const privateKey = await this.store.getSecret(profile.id, 'privateKey');
    // eslint-disable-next-line no-restricted-syntax -- log text (see above)
    if (!privateKey) throw new MissingSecretError(profile, 'privateKey', 'RSA-mode requests are signed with it');
    const platformPublicKey = await this.store.getSecret(profile.id, 'platformPublicKey');
    return { mode: 'rsa', token, privateKey, ...(platformPublicKey ? { platformPublicKey } : {}) };
  }
}
