// A profile lacks a secret the requested call needs. A ConfigError, so it reads like every other local
// setup problem, but it names the exact secret so reportError can offer the one command that fixes it.

import { ConfigError } from '../../core/errors';
import { SECRET_LABELS } from '../profiles/index';
import type { Profile, SecretKind } from '../services';

export class MissingSecretError extends ConfigError {
  constructor(
    readonly profile: Pick<Profile, 'id' | 'label'>,
    readonly secret: SecretKind,
    why: string,
  ) {
    super(`Profile "${profile.label}" has no ${SECRET_LABELS[secret]}: ${why}.`, `Store it with "Compute: Set ${title(secret)}".`);
  }
}

/** No profile exists or is active. */
export class NoProfileError extends ConfigError {
  constructor() {
    super('No compute profile is configured.', 'Create a profile or connect to the local sandbox.');
  }
}

function title(secret: SecretKind): string {
  return SECRET_LABELS[secret].replace(/\b\w/g, (letter) => letter.toUpperCase()).replace('Api', 'API');
}
