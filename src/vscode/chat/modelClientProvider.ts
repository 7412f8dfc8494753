// The model client of the active profile, created on first use (the HTTP stack loads lazily, not at
// activation) and re-created as soon as the profile changes, so the next request goes to the new
// profile's address with its key.

import type { ModelClient } from '../../core/inference/api';
import type { ExtensionServices, Profile } from '../services';
import { MissingModelKeyError, NoChatProfileError } from './turnErrors';

type InferenceCore = typeof import('../../core/inference/index');

let inferenceCore: InferenceCore | undefined;

function loadInferenceCore(): InferenceCore {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberate lazy load (see lazyCore.ts)
  inferenceCore ??= require('../../core/inference/index') as InferenceCore;
  return inferenceCore;
}

export class ModelClientProvider {
  private cached: { key: string; client: ModelClient } | undefined;

  constructor(private readonly services: ExtensionServices) {}

  /** Forget the client (profile switched or edited): the next call builds one for the new profile. */
  reset(): void {
    this.cached = undefined;
  }

  /** The active profile and its client; fails with an actionable error when there is no profile or key. */
  async clientForActiveProfile(): Promise<{ profile: Profile; client: ModelClient }> {
    const profile = this.services.profiles.active;
    if (!profile) throw new NoChatProfileError();
    const apiKey = await this.services.profiles.getSecret(profile.id, 'modelApiKey');
    if (!apiKey) throw new MissingModelKeyError(profile.label);
    const settings = this.services.config.chat;
    const cacheKey = JSON.stringify([profile.id, profile.modelApiBaseUrl, settings.firstTokenTimeoutMs, settings.idleTimeoutMs]);
    if (this.cached?.key !== cacheKey) {
      const client = loadInferenceCore().createModelClient({
        apiBaseUrl: profile.modelApiBaseUrl,
        // Read per request so a key stored a moment ago is used at once.
        apiKey: () => this.services.profiles.getSecret(profile.id, 'modelApiKey'),
        firstTokenTimeoutMs: settings.firstTokenTimeoutMs,
        idleTimeoutMs: settings.idleTimeoutMs,
        logger: this.services.logger,
      });
      this.cached = { key: cacheKey, client };
    }
    return { profile, client: this.cached.client };
  }
}
