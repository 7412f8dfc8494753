// What activate() returns: the extension's API for the in-host test suites (and nothing else; there
// is no public API for other extensions). Reach it with
// `await vscode.extensions.getExtension('compute-toolkit.compute-toolkit')!.activate()`, then `await api.ready`.
// Only the tests import this file: test/integration/extensionApi.ts checks that what extension.ts builds
// (its ActivatedApi) is this API, so the composition root need not import it.

import type { QuickInput, QuickPick, QuickPickItem } from 'vscode';
import type { ComputeClient, ComputeClientOptions } from '../core/compute/api';
import type { AiApi } from './ai/index';
import type { ChatApi } from './chat/index';
import type { ComputeApi } from './views/index';
import type { ErrorReport } from './errors/describeError';
import type { SpendApi } from './spend/index';
import type { TasksAreaApi } from './tasks/index';
import type { ShownNotification } from './ui/notificationCenter';
import type { Refusal } from './ui/workspaceTrust';
import type { JobsApi } from './jobs/index';
import type { DeploymentsApi } from './deployments/index';
import type { SpecsApi } from './specs/index';
import type { SandboxProfiles } from './profiles/connectSandbox';
import type { ProfileStore } from './profiles/profileStore';
import type { ExtensionServices } from './services';

export interface ExtensionApi {
  /** The same services every feature area receives. */
  readonly services: ExtensionServices;
  /** What the compute area (trees, task commands) exposes. */
  readonly compute: ComputeApi;
  /** What the chat area exposes. */
  readonly chat: ChatApi;
  /** Notifications, spend, budgets and auto-pause. */
  readonly money: MoneyApi;
  /** VS Code's AI surfaces: language-model tools, the MCP server provider, the model provider. */
  readonly ai: AiApi;
  /** Batch jobs: the Jobs view, log terminals, Run on GPU (and the NAS hooks it needs). */
  readonly jobs: JobsApi;
  /** A user's own deployed models: deploy, readiness, discovery, idle pause. */
  readonly deployments: DeploymentsApi;
  /** Spec files: validate, plan, deploy, update, save a task as a file. */
  readonly specs: SpecsApi;
  /** NAS volumes: the view, the computenas file system and the SFTP sessions. */
  readonly nas: import('./nas/index').NasApi;
  /** Image preheats: the Image Preheat view, create and stop. */
  readonly preheat: import('./preheat/index').PreheatApi;
  /** Bare-metal machines: the Machines view, Rent Machine…, the rental-end warnings. */
  readonly machines: import('./machines/index').MachinesApi;
  /** The Compute Toolkit notebook kernel (docs/notebooks.md). */
  readonly notebooks: import('./notebooks/index').NotebooksApi;
  /** Connect, terminal and Remote-SSH for rented machines (docs/machines.md). */
  readonly machineConnect: import('./machines/connect/index').MachineConnectApi;
  /** Ports the tests may replace in part (testPorts.ts): e.g. Run on GPU's volume pick. */
  readonly tests: import('./testPorts').TestPorts;
  /** Settles when start-up work is done: log redaction primed, the quiet sandbox connect attempted. */
  readonly ready: Promise<void>;
  readonly surface: SurfaceApi;
}

/** Notifications, spend, budgets, timers and the tasks area's care flows, for the in-host tests. */
export interface MoneyApi extends SpendApi, Pick<TasksAreaApi, 'updates' | 'explainFailure' | 'deleteNode'> {
  /** Notifications shown this session, oldest first (the last 100). */
  notifications(): readonly ShownNotification[];
  /** How many notifications were shown this session (a mark; the list above stops growing at 100). */
  notificationCount(): number;
  /** The notifications shown after a mark read from `notificationCount`. */
  notificationsSince(mark: number): readonly ShownNotification[];
  /** Runs a shown notification's action as a click would (e.g. "Recover"). */
  choose(notification: ShownNotification, action: string): Promise<void>;
  /** Whether the active profile is being polled now. */
  watching(): boolean;
  /** Polls the active profile now (as Refresh does); resolves when its stores hold the answer. */
  wakeWatcher(): Promise<void>;
  /**
   * Runs the poll the active profile's store has planned on its own now instead of at its time (it plans
   * one only while something moves); resolves false when none is planned. For "without Refresh" tests.
   */
  runPlannedPoll(): Promise<boolean>;
  /** Listing calls the remote-state store made so far (all profiles, or the one with this id), and the profiles it watches. */
  stateListings(profileId?: string): number;
  watchedProfiles(): string[];
}

/** Profiles, secrets, logging and errors: the parts built by the composition root. */
export interface SurfaceApi {
  /** The profile store with write access (settings + SecretStorage). */
  readonly profiles: ProfileStore;
  /** Connects to a sandbox like the command does, without UI. */
  connectSandbox(url: string): Promise<SandboxProfiles>;
  /** Everything written to the "Compute Toolkit" log channel this session, as written (after redaction). */
  logText(): string;
  /** The status bar item's current text. */
  statusBarText(): string;
  /** The status bar item's accessible name (what a screen reader announces). */
  statusBarAccessibleName(): string;
  /** The `computeToolkit.hasCredentials` context key's value, once its latest update settled. */
  hasCredentials(): Promise<boolean>;
  /**
   * The notification reportError would show for `error` (undefined: nothing shown, e.g. cancelled);
   * `canRetry` as when the caller passes a retry callback.
   */
  describeError(error: unknown, context: string, canRetry?: boolean): ErrorReport | undefined;
  /** A separate client for the active profile with some options replaced (e.g. a skewed clock). */
  createComputeClient(overrides: Partial<Omit<ComputeClientOptions, 'baseUrl' | 'credentials'>>): ComputeClient;
  /** The current text of a read-only document opened through services.openReadOnlyDocument. */
  documentText(key: string, title: string): string | undefined;
  /** The QuickPick or InputBox a multi-step flow (Create Task…, Mount NAS Volume…) shows now, if any. */
  stepInput(): QuickInput | undefined;
  /** The confirmation of what workspace files will run and send (ui/review.ts) shown now, if any. */
  review(): QuickPick<QuickPickItem> | undefined;
  /** What was refused this session and why (Restricted Mode, environment variables not allowed), oldest first. */
  refusals(): readonly Refusal[];
  /** Runs a refusal's action as a click would. */
  chooseRefusal(refusal: Refusal, action: string): Promise<void>;
  /** The tests' VS Code always trusts its folder: report this instead (undefined: VS Code's own answer). */
  reportTrustForTests(trusted: boolean | undefined): void;
}
