// The services the composition root (extension.ts) hands to each feature area (trees, commands, chat).
// Feature areas depend on these interfaces, and on each other only through an area's index.ts (a lint
// rule in eslint.config.mjs enforces it; docs/areas.md lists the areas).

import type * as vscode from 'vscode';
import type { AuthMode, ComputeClient } from '../core/compute/api';
import type { Logger, Redactor } from '../core/log';
import type { Config } from './config';
import type { PersistedState } from './persistedState';
import type { Refusals, WorkspaceTrust } from './ui/workspaceTrust';

export type Environment = 'dev' | 'test' | 'prod' | 'sandbox';

/** Secrets kept per profile in SecretStorage (never in settings or globalState). */
export type { SecretKind } from '../core/secretKinds';
import type { SecretKind } from '../core/secretKinds';

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
  /** Fires when a secret of any profile is stored or deleted (here or in another window). */
  readonly onDidChangeSecrets: vscode.Event<{ profileId: string; kind: SecretKind }>;
  getSecret(profileId: string, kind: SecretKind): Promise<string | undefined>;
}

export interface ExtensionServices {
  readonly context: vscode.ExtensionContext;
  readonly profiles: ProfileService;
  /** The typed `computeToolkit.*` settings (live getters, plus onDidChange). */
  readonly config: Config;
  /** What the extension keeps between sessions (globalState), typed and validated on read (persistedState.ts). */
  readonly state: PersistedState;
  /** Writes to the "Compute Toolkit" LogOutputChannel, secrets redacted. */
  readonly logger: Logger;
  readonly redactor: Redactor;
  /** Restricted Mode: whether workspace files may decide what runs and is sent (ui/workspaceTrust.ts). */
  readonly trust: WorkspaceTrust;
  /** Says why something was not done, with the actions that fix it; kept for the in-host tests. */
  readonly refusals: Refusals;
  /** The compute client of the active profile (rebuilt when the profile or its secrets change). */
  computeClient(): ComputeClient;
  /** The compute client of any profile (background watching of profiles that are not active). */
  computeClientFor(profile: Profile): ComputeClient;
  /** Ensures a profile exists (offers Create Profile / Connect to Sandbox otherwise); undefined if the user backs out. */
  requireProfile(): Promise<Profile | undefined>;
  /**
   * Opens (or refreshes, when the same `uri key` is already open) a read-only virtual document whose text
   * comes from `content` — task detail JSON, Sign Request output, node logs. Re-running `content` refreshes it.
   */
  openReadOnlyDocument(options: ReadOnlyDocumentOptions): Promise<vscode.TextEditor>;
  /**
   * Recomputes a document opened with `openReadOnlyDocument` in place, without showing it or taking focus
   * (follow a node log while the user works elsewhere). Resolves false when it is no longer open.
   */
  refreshReadOnlyDocument(options: Pick<ReadOnlyDocumentOptions, 'key' | 'title'>): Promise<boolean>;
  /** Registers (or replaces) a read-only document's text without opening it; resolves its uri (a diff's two sides). */
  putReadOnlyDocument(options: ReadOnlyDocumentOptions): Promise<vscode.Uri>;
  /** Shows the "Compute Toolkit" log channel. */
  showLogs(): void;
  /**
   * The one place errors become user messages with actions (Show Logs, Sign Request, Configure Profile).
   * `context` names what was being done ("Load tasks"); AbortedError is logged only, never shown.
   * Pass `retry` to offer a Retry button for failures that repeating could fix.
   */
  reportError(error: unknown, context: string, options?: { retry?: () => unknown }): void;
}

export interface ReadOnlyDocumentOptions {
  /** Stable key: the same key reuses the same document (e.g. `task/123`, `sign-request`, `node-log`). */
  key: string;
  /** Shown as the editor title, e.g. "Task 123.json". Must end with an extension matching `language`. */
  title: string;
  language: 'json' | 'markdown' | 'log' | 'plaintext' | 'yaml';
  content: () => Promise<string>;
  /** Open beside the active editor. */
  beside?: boolean;
}
