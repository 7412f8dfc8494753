// The services the composition root (extension.ts) hands to each feature area (trees, commands, chat).
// Feature areas depend on these interfaces, not on each other.

import type * as vscode from 'vscode';
import type { AuthMode, ComputeClient } from '../core/compute/api';
import type { Logger, Redactor } from '../core/log';

export type Environment = 'dev' | 'test' | 'prod' | 'sandbox';

/** Secrets kept per profile in SecretStorage (never in settings or globalState). */
export type SecretKind = 'apiToken' | 'privateKey' | 'platformPublicKey' | 'modelApiKey';

/** The non-secret part of a profile (stored in settings). */
export interface Profile {
  id: string;
  label: string;
  environment: Environment;
  mode: AuthMode;
  computeBaseUrl: string;
  modelApiBaseUrl: string;
  consoleUrl: string;
}

export interface ProfileService {
  /** The active profile, or undefined when none is configured yet. */
  readonly active: Profile | undefined;
  readonly all: readonly Profile[];
  /** Fires once per switch or edit of the active profile (and after its secrets change). */
  readonly onDidChangeActive: vscode.Event<Profile | undefined>;
  getSecret(profileId: string, kind: SecretKind): Promise<string | undefined>;
}

export interface ExtensionServices {
  readonly context: vscode.ExtensionContext;
  readonly profiles: ProfileService;
  /** Writes to the "Compute Toolkit" LogOutputChannel, secrets redacted. */
  readonly logger: Logger;
  readonly redactor: Redactor;
  /** The compute client of the active profile (rebuilt when the profile or its secrets change). */
  computeClient(): ComputeClient;
  /** Ensures a profile exists (offers Create Profile / Connect to Sandbox otherwise); undefined if the user backs out. */
  requireProfile(): Promise<Profile | undefined>;
  /** The one place errors become user messages with actions (Show Logs, Sign Request, Configure Profile). */
  reportError(error: unknown, context: string): void;
}
