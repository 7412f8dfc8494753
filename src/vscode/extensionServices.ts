// The concrete services built once by activate(): what feature areas see as ExtensionServices, plus the
// writable parts (profile store, log tail, documents) that only this layer's commands and the tests use.

import * as vscode from 'vscode';
import type { ComputeClient } from '../core/compute/api';
import { Redactor, redactingLogger, type Logger } from '../core/log';
import { ComputeClientProvider } from './client/computeClientProvider';
import { Commands } from './commandIds';
import { Config } from './config';
import { ReadOnlyDocuments } from './documents/readOnlyDocuments';
import { createReportError, type ReportError } from './errors/reportError';
import { LogTail, channelLogger } from './log/channelLogger';
import { SECRET_KINDS } from './profiles/profileRecord';
import { ProfileStore } from './profiles/profileStore';
import { PersistedState, persistedStateOf } from './persistedState';
import type { ExtensionServices, Profile, ReadOnlyDocumentOptions } from './services';
import { errorMessage } from '../shared/errorMessage';
import { recordActivity } from './requests/index';
import { Refusals, WorkspaceTrust } from './ui/workspaceTrust';

export class Services implements ExtensionServices, vscode.Disposable {
  readonly redactor = new Redactor();
  readonly logTail = new LogTail();
  readonly logChannel: vscode.LogOutputChannel;
  readonly logger: Logger;
  readonly config: Config;
  readonly state: PersistedState;
  readonly profiles: ProfileStore;
  readonly documents: ReadOnlyDocuments;
  readonly clients: ComputeClientProvider;
  readonly reportError: ReportError;
  readonly refusals = new Refusals();
  readonly trust = new WorkspaceTrust(this.refusals);
  private readonly disposables: vscode.Disposable[] = [];
  private redactorRefresh: Promise<void> = Promise.resolve();

  constructor(readonly context: vscode.ExtensionContext) {
    // eslint-disable-next-line no-restricted-syntax -- the product's name, the same in every language
    this.logChannel = vscode.window.createOutputChannel('Compute Toolkit', { log: true });
    this.logger = redactingLogger(channelLogger(this.logChannel, this.logTail), this.redactor);
    this.config = new Config();
    this.state = persistedStateOf(context, this.logger);
    this.profiles = new ProfileStore(context.secrets, this.state, this.logger, this.config);
    this.documents = new ReadOnlyDocuments(this.redactor);
    this.clients = new ComputeClientProvider(this.profiles, this.config, this.logger);
    this.reportError = createReportError(this.logger, this.redactor, () => this.profiles.active !== undefined);
    this.clients.observe(recordActivity(this));
    this.disposables.push(
      this.logChannel,
      this.trust,
      this.config,
      this.profiles,
      this.documents,
      this.clients,
      this.profiles.onDidChangeActive((profile) => {
        this.clients.invalidate();
        // eslint-disable-next-line no-restricted-syntax -- the log's words
        this.logger.info(profile ? `Active profile: ${profile.label} (${profile.environment}, ${profile.mode})` : 'No active profile');
      }),
      this.profiles.onDidChangeSecrets(() => {
        this.clients.invalidate();
        void this.refreshRedactor();
      }),
      this.config.onDidChange((event) => {
        if (Config.affects(event, 'request')) this.clients.invalidate();
      }),
    );
  }

  computeClient(): ComputeClient {
    return this.clients.get();
  }

  computeClientFor(profile: Profile): ComputeClient {
    return this.clients.forProfile(profile);
  }

  async requireProfile(): Promise<Profile | undefined> {
    const active = this.profiles.active;
    if (active) return active;
    const sandbox = vscode.l10n.t('Connect to Local Sandbox');
    const create = vscode.l10n.t('Create Profile');
    const picked = await vscode.window.showInformationMessage(
      vscode.l10n.t('Compute Toolkit needs a profile first: the platform addresses and key mode, with its secrets in SecretStorage.'),
      sandbox,
      create,
    );
    if (picked === sandbox) await vscode.commands.executeCommand(Commands.profileConnectSandbox);
    else if (picked === create) await vscode.commands.executeCommand(Commands.profileCreate);
    return this.profiles.active;
  }

  openReadOnlyDocument(options: ReadOnlyDocumentOptions): Promise<vscode.TextEditor> {
    return this.documents.open(options);
  }

  refreshReadOnlyDocument(options: Pick<ReadOnlyDocumentOptions, 'key' | 'title'>): Promise<boolean> {
    return this.documents.refresh(options);
  }

  putReadOnlyDocument(options: ReadOnlyDocumentOptions): Promise<vscode.Uri> {
    return this.documents.put(options);
  }

  showLogs(): void {
    this.logChannel.show(true);
  }

  /**
   * Feeds the Redactor every stored secret of every profile (not only the active one: a switch must
   * never leave a window where the previous profile's token could be logged unmasked).
   * Resolves once the Redactor holds the secrets as they are now; calls are serialised.
   */
  refreshRedactor(): Promise<void> {
    const collect = async (): Promise<void> => {
      try {
        const values: string[] = [];
        for (const profile of this.profiles.all) {
          for (const kind of SECRET_KINDS) {
            const value = await this.profiles.getSecret(profile.id, kind);
            if (value) values.push(value);
          }
        }
        this.redactor.setSecrets(values);
      } catch (error) {
        // Keep the previous secrets: masking a stale set is safer than masking none.
        this.logger.error(`Could not read secrets for log redaction: ${errorMessage(error)}`);
      }
    };
    this.redactorRefresh = this.redactorRefresh.then(collect);
    return this.redactorRefresh;
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0).reverse()) disposable.dispose();
  }
}
