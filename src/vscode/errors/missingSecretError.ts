// A profile lacks a secret the requested call needs, or no profile exists: setup errors (core/errors),
// so the classification names the exact secret and the action table offers the one command that fixes
// it. The message here is the log's (English); what the user reads is worded from the classification
// in the display language (errorWords.ts), so this file stays free of the editor API.

import { SetupError } from '../../core/errors';
import { SECRET_LABELS } from '../../core/secretKinds';
import type { SecretKind } from '../../core/secretKinds';

export class MissingSecretError extends SetupError {
  constructor(
    readonly profile: { readonly id: string; readonly label: string },
    readonly secret: SecretKind,
    why: string,
  ) {
    super(secret, profile.label, `Profile "${profile.label}" has no ${SECRET_LABELS[secret]}: ${why}.`);
  }
}

/** No profile exists or is active. */
export class NoProfileError extends SetupError {
  constructor() {
    super('profile', undefined, 'No compute profile is configured.', 'Create a profile or connect to the local sandbox.');
  }
}
