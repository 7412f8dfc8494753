// The model client of the active profile, created on first use (the HTTP stack loads lazily, not at
// activation) and re-created as soon as the profile changes, so the next request goes to the new
// profile's address with its key.

import type { ModelClient } from '../../core/inference/api';
import type { ExtensionServices, Profile } from '../services';
import { MissingModelKeyError, NoChatProfileError } from '../../core/chat/turnErrors';
import { inferenceCore } from '../../core/lazyModules';


export class ModelClientProvider {
  private cached: { key: string; client: ModelClient } | undefined;
  /** The model API key as last read: a send costs no SecretStorage round trip (reset on any change). */
  private modelKey: { profileId: string; value: Promise<string | undefined> } | undefined;

  constructor(private readonly services: ExtensionServices) {}

  /** Forget the client (profile switched or edited): the next call builds one for the new profile. */
  reset(): void {
    this.cached = undefined;
    this.modelKey = undefined;
  }

  /** The active profile and its client; fails with an actionable error when there is no profile or key. */
  async clientForActiveProfile(): Promise<{ profile: Profile; client: ModelClient }> {
    const profile = this.services.profiles.active;
    if (!profile) throw new NoChatProfileError();
    const apiKey = await this.apiKeyOf(profile.id);
    if (!apiKey) throw new MissingModelKeyError(profile.label);
    const settings = this.services.config.chat;
    const maxRetries = this.services.config.maxRetries;
    const cacheKey = JSON.stringify([profile.id, profile.modelApiBaseUrl, settings.firstTokenTimeoutMs, settings.idleTimeoutMs, maxRetries]);
    if (this.cached?.key !== cacheKey) {
      const client = inferenceCore().createModelClient({
        apiBaseUrl: profile.modelApiBaseUrl,
        // Read per request so a key stored a moment ago is used at once.
        apiKey: () => this.apiKeyOf(profile.id),
        firstTokenTimeoutMs: settings.firstTokenTimeoutMs,
        idleTimeoutMs: settings.idleTimeoutMs,
        maxRetries,
        logger: this.services.logger,
      });
      this.cached = { key: cacheKey, client };
    }
    return { profile, client: this.cached.client };
  }

  /** Read once per profile; the profile service fires a change (and reset() runs) when a secret changes. */
  private apiKeyOf(profileId: string): Promise<string | undefined> {
    if (this.modelKey?.profileId !== profileId) this.modelKey = { profileId, value: this.services.profiles.getSecret(profileId, 'modelApiKey') };
    return this.modelKey.value;
  }
}
