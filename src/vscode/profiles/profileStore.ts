// Profiles: the non-secret part in settings (computeToolkit.profiles / computeToolkit.activeProfile),
// secrets in SecretStorage under computeToolkit/<profileId>/<kind>, and the time each secret was set in
// globalState (a timestamp only, never the value) for the key-rotation reminder.

import * as vscode from 'vscode';
import { ConfigError } from '../../core/errors';
import { checkedHeaderSecret } from '../../core/secretValues';
import type { Logger } from '../../core/log';
import { Config } from '../config';
import type { PersistedState } from '../persistedState';
import type { Profile, ProfileService, SecretKind } from '../services';
import { SECRET_KINDS, parseProfile, parseSecretStorageKey, secretStorageKey } from './profileRecord';

const PROFILES_KEY = 'profiles' as const;
const ACTIVE_KEY = 'activeProfile' as const;

export class ProfileStore implements ProfileService, vscode.Disposable {
  private readonly activeEmitter = new vscode.EventEmitter<Profile | undefined>();
  private readonly secretsEmitter = new vscode.EventEmitter<{ profileId: string; kind: SecretKind }>();
  private readonly listeners: vscode.Disposable[] = [];
  private profiles: Profile[] = [];
  private activeId = '';
  /** Identity of what "active" means right now (profile fields + secret generation); a change fires once. */
  private activeFingerprint = '';
  private secretGeneration = 0;
  private batchDepth = 0;
  private readonly reportedInvalid = new Set<string>();
  /** SecretStorage echoes our own writes through onDidChange; count them so each change is handled once. */
  private readonly pendingOwnWrites = new Map<string, number>();

  readonly onDidChangeActive = this.activeEmitter.event;
  /** Fires for every secret written or deleted, of any profile (the Redactor listens). */
  readonly onDidChangeSecrets = this.secretsEmitter.event;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly state: PersistedState,
    private readonly logger: Logger,
    private readonly config: Config,
  ) {
    this.readSettings();
    this.activeFingerprint = this.fingerprint();
    this.listeners.push(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (Config.affects(event, PROFILES_KEY) || Config.affects(event, ACTIVE_KEY)) {
          this.reload();
        }
      }),
      // Also fires when another window of the same profile changes a secret.
      secrets.onDidChange((event) => {
        if (this.consumeOwnWrite(event.key)) return;
        const parsed = parseSecretStorageKey(event.key);
        if (parsed) this.noteSecretChanged(parsed.profileId, parsed.kind);
      }),
    );
  }

  get active(): Profile | undefined {
    return this.profiles.find((profile) => profile.id === this.activeId) ?? this.profiles[0];
  }

  get all(): readonly Profile[] {
    return this.profiles;
  }

  find(profileId: string): Profile | undefined {
    return this.profiles.find((profile) => profile.id === profileId);
  }

  getSecret(profileId: string, kind: SecretKind): Promise<string | undefined> {
    return Promise.resolve(this.secrets.get(secretStorageKey(profileId, kind)));
  }

  /** Milliseconds since the epoch when this secret was last stored, if known. */
  secretSetAt(profileId: string, kind: SecretKind): number | undefined {
    return this.state.get('secretSetAt')[profileId]?.[kind];
  }

  async setSecret(profileId: string, kind: SecretKind, value: string): Promise<void> {
    // Every way in (input box, sandbox connect, API) stores only a token or key a request can carry.
    if (kind === 'apiToken' || kind === 'modelApiKey') checkedHeaderSecret(value, kind);
    await this.ownWrite(secretStorageKey(profileId, kind), () => this.secrets.store(secretStorageKey(profileId, kind), value));
    await this.updateSetAt(profileId, (record) => ({ ...record, [kind]: Date.now() }));
    this.noteSecretChanged(profileId, kind);
  }

  async deleteSecret(profileId: string, kind: SecretKind): Promise<void> {
    const key = secretStorageKey(profileId, kind);
    const existed = (await this.secrets.get(key)) !== undefined;
    if (existed) await this.ownWrite(key, () => this.secrets.delete(key));
    await this.updateSetAt(profileId, (record) => {
      const { [kind]: _removed, ...rest } = record;
      return rest;
    });
    if (existed) this.noteSecretChanged(profileId, kind);
  }

  async clearSecrets(profileId: string): Promise<void> {
    await this.batch(async () => {
      for (const kind of SECRET_KINDS) await this.deleteSecret(profileId, kind);
    });
  }

  /** Which secrets of a profile are stored (values are never returned from here). */
  async storedSecretKinds(profileId: string): Promise<SecretKind[]> {
    const present: SecretKind[] = [];
    for (const kind of SECRET_KINDS) if ((await this.getSecret(profileId, kind)) !== undefined) present.push(kind);
    return present;
  }

  /** Adds or replaces a profile (matched by id). */
  async upsert(profile: Profile): Promise<void> {
    const next = this.profiles.filter((existing) => existing.id !== profile.id);
    const index = this.profiles.findIndex((existing) => existing.id === profile.id);
    next.splice(index < 0 ? next.length : index, 0, { ...profile });
    await this.writeSetting(PROFILES_KEY, next);
  }

  /** Removes a profile with its secrets and timestamps; the next profile (if any) becomes active. */
  async remove(profileId: string): Promise<void> {
    await this.batch(async () => {
      await this.clearSecrets(profileId);
      await this.updateSetAt(profileId, () => undefined);
      const remaining = this.profiles.filter((profile) => profile.id !== profileId);
      await this.writeSetting(PROFILES_KEY, remaining);
      if (this.activeId === profileId) await this.writeSetting(ACTIVE_KEY, remaining[0]?.id ?? '');
    });
  }

  async setActive(profileId: string): Promise<void> {
    if (!this.find(profileId)) {
      throw new ConfigError(vscode.l10n.t('There is no profile with id "{0}".', profileId), vscode.l10n.t('Pick one with "Compute: Switch Profile".'));
    }
    await this.writeSetting(ACTIVE_KEY, profileId);
  }

  /**
   * Runs several writes as one change: onDidChangeActive fires at most once, at the end, so a
   * multi-secret update (Connect to Sandbox) re-scopes the trees and the client only once.
   */
  async batch<T>(work: () => Promise<T>): Promise<T> {
    this.batchDepth++;
    try {
      return await work();
    } finally {
      this.batchDepth--;
      if (this.batchDepth === 0) this.reload();
    }
  }

  dispose(): void {
    for (const listener of this.listeners) listener.dispose();
    this.activeEmitter.dispose();
    this.secretsEmitter.dispose();
  }

  private noteSecretChanged(profileId: string, kind: SecretKind): void {
    this.secretsEmitter.fire({ profileId, kind });
    if (profileId === this.active?.id) this.secretGeneration++;
    this.reload();
  }

  private async ownWrite(key: string, write: () => Thenable<void>): Promise<void> {
    this.pendingOwnWrites.set(key, (this.pendingOwnWrites.get(key) ?? 0) + 1);
    try {
      await write();
    } catch (error) {
      this.consumeOwnWrite(key);
      throw error;
    }
  }

  private consumeOwnWrite(key: string): boolean {
    const pending = this.pendingOwnWrites.get(key) ?? 0;
    if (pending === 0) return false;
    if (pending === 1) this.pendingOwnWrites.delete(key);
    else this.pendingOwnWrites.set(key, pending - 1);
    return true;
  }

  private async writeSetting(key: typeof PROFILES_KEY | typeof ACTIVE_KEY, value: unknown): Promise<void> {
    await this.config.writeGlobal(key, value);
    this.reload();
  }

  private async updateSetAt(
    profileId: string,
    change: (record: Partial<Record<SecretKind, number>>) => Partial<Record<SecretKind, number>> | undefined,
  ): Promise<void> {
    const all = { ...this.state.get('secretSetAt') };
    const next = change(all[profileId] ?? {});
    if (next === undefined || Object.keys(next).length === 0) delete all[profileId];
    else all[profileId] = next;
    await this.state.update('secretSetAt', all);
  }

  /** Re-reads settings and fires onDidChangeActive when what "active" means has changed. */
  private reload(): void {
    this.readSettings();
    if (this.batchDepth > 0) return; // the batch's end reloads once more and fires then
    const fingerprint = this.fingerprint();
    if (fingerprint === this.activeFingerprint) return;
    this.activeFingerprint = fingerprint;
    this.activeEmitter.fire(this.active);
  }

  private fingerprint(): string {
    return JSON.stringify([this.active ?? null, this.secretGeneration]);
  }

  private readSettings(): void {
    const raw = this.config.profilesRaw;
    const profiles: Profile[] = [];
    for (const entry of Array.isArray(raw) ? raw : []) {
      const parsed = parseProfile(entry);
      if (typeof parsed === 'string') {
        if (!this.reportedInvalid.has(parsed)) {
          this.reportedInvalid.add(parsed);
          this.logger.warn(`Ignoring an invalid entry of computeToolkit.profiles: ${parsed}`);
        }
      } else if (!profiles.some((profile) => profile.id === parsed.id)) {
        profiles.push(parsed);
      }
    }
    this.profiles = profiles;
    this.activeId = this.config.activeProfileId;
  }
}
