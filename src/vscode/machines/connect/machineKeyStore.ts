// Where a machine's pinned host key and its login key are kept (docs/machines.md): one SecretStorage
// record per profile and machine. A generated key's private half lives only here; the user's own key is
// kept as the path of its private key file (read at each connect, never copied); its passphrase, if it has
// one, is kept here only when the user chose to, else only in this window's memory (asked again after a
// restart). A key in the user's SSH agent is kept as its fingerprint and the fact that the agent is used,
// nothing more; the agent's socket is read from this process's environment at each connect. What is read
// back is checked: a damaged record counts as none (the next connect asks again).

import { readFile } from 'node:fs/promises';
import type * as vscode from 'vscode';
import type { MachineKey, MachineKeyStore, PinnedHostKey } from '../../../core/machines';
import { agentSocket } from '../../../core/ssh/agentSocket';
import { StateKeys } from '../../commandIds';

interface StoredMachine {
  hostKey?: PinnedHostKey;
  key?: { publicKey: string; privateKey?: string; privateKeyFile?: string; passphrase?: string } | { agent: true; fingerprint: string };
}

/** Passphrases the user did not keep: this window's memory only, by record name. */
const sessionPassphrases = new Map<string, string>();

const text = (value: unknown, max: number): value is string => typeof value === 'string' && value.length > 0 && value.length <= max;

function parsed(raw: string | undefined): StoredMachine {
  if (!raw) return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return {};
  }
  if (typeof value !== 'object' || value === null) return {};
  const record = value as Record<string, unknown>;
  const out: StoredMachine = {};
  const hostKey = record.hostKey as Record<string, unknown> | undefined;
  if (hostKey && text(hostKey.fingerprint, 200) && text(hostKey.key, 16_384)) out.hostKey = { fingerprint: hostKey.fingerprint, key: hostKey.key };
  const key = record.key as Record<string, unknown> | undefined;
  if (key && key.agent === true && text(key.fingerprint, 200) && /^SHA256:[A-Za-z0-9+/]{43}$/.test(key.fingerprint)) out.key = { agent: true, fingerprint: key.fingerprint };
  else if (key && text(key.publicKey, 16_384)) {
    if (text(key.privateKey, 65_536)) out.key = { publicKey: key.publicKey, privateKey: key.privateKey };
    else if (text(key.privateKeyFile, 4096)) out.key = { publicKey: key.publicKey, privateKeyFile: key.privateKeyFile, ...(text(key.passphrase, 4096) ? { passphrase: key.passphrase } : {}) };
  }
  return out;
}

export class SecretMachineKeyStore implements MachineKeyStore {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    readonly profileId: string,
  ) {}

  private name(deviceId: number): string {
    return `${StateKeys.machineKeyPrefix}/${this.profileId}/${deviceId}`;
  }

  private async read(deviceId: number): Promise<StoredMachine> {
    return parsed(await this.secrets.get(this.name(deviceId)));
  }

  private async update(deviceId: number, change: (record: StoredMachine) => void): Promise<void> {
    const record = await this.read(deviceId);
    change(record);
    await this.secrets.store(this.name(deviceId), JSON.stringify(record));
  }

  async hostKey(deviceId: number): Promise<PinnedHostKey | undefined> {
    return (await this.read(deviceId)).hostKey;
  }

  pinHostKey(deviceId: number, key: PinnedHostKey): Promise<void> {
    return this.update(deviceId, (record) => (record.hostKey = { fingerprint: key.fingerprint, key: key.key }));
  }

  /** The key a connect logs in with; the user's own key is read from its file now (a moved file: none). */
  async machineKey(deviceId: number): Promise<MachineKey | undefined> {
    const key = (await this.read(deviceId)).key;
    if (!key) return undefined;
    // The agent's socket from the extension host's own environment, never from the workspace.
    if ('agent' in key) return { publicKey: '', privateKey: '', agent: { fingerprint: key.fingerprint, socket: agentSocket(process.env) } };
    if (key.privateKey !== undefined) return { publicKey: key.publicKey, privateKey: key.privateKey };
    if (key.privateKeyFile === undefined) return undefined;
    const passphrase = key.passphrase ?? sessionPassphrases.get(this.name(deviceId));
    try {
      return { publicKey: key.publicKey, privateKey: await readFile(key.privateKeyFile, 'utf8'), privateKeyFile: key.privateKeyFile, ...(passphrase !== undefined ? { passphrase, keepPassphrase: key.passphrase !== undefined } : {}) };
    } catch {
      return undefined;
    }
  }

  saveMachineKey(deviceId: number, key: MachineKey): Promise<void> {
    this.rememberPassphrase(deviceId, key);
    const kept = key.keepPassphrase === true && key.passphrase !== undefined ? { passphrase: key.passphrase } : {};
    if (key.agent) return this.update(deviceId, (record) => (record.key = { agent: true, fingerprint: key.agent?.fingerprint ?? '' }));
    return this.update(deviceId, (record) => (record.key = key.privateKeyFile !== undefined ? { publicKey: key.publicKey, privateKeyFile: key.privateKeyFile, ...kept } : { publicKey: key.publicKey, privateKey: key.privateKey }));
  }

  /** The passphrase just entered for the machine's own key, for this window (kept in storage only if chosen). */
  rememberPassphrase(deviceId: number, key: Pick<MachineKey, 'passphrase' | 'keepPassphrase'>): void {
    if (key.passphrase === undefined) sessionPassphrases.delete(this.name(deviceId));
    else sessionPassphrases.set(this.name(deviceId), key.passphrase);
  }

  /** Keeps (or drops) the own key's passphrase in storage as the user chose. */
  keepPassphrase(deviceId: number, key: Pick<MachineKey, 'passphrase' | 'keepPassphrase'>): Promise<void> {
    this.rememberPassphrase(deviceId, key);
    return this.update(deviceId, (record) => {
      if (!record.key || 'agent' in record.key || !record.key.privateKeyFile) return;
      if (key.keepPassphrase === true && key.passphrase !== undefined) record.key.passphrase = key.passphrase;
      else delete record.key.passphrase;
    });
  }

  /** The file the user's own private key is in, when the machine uses one (Remote-SSH logs in with it). */
  async ownKeyFile(deviceId: number): Promise<string | undefined> {
    const key = (await this.read(deviceId)).key;
    return key && !('agent' in key) ? key.privateKeyFile : undefined;
  }

  /** The fingerprint of the agent key the machine logs in with, when it uses the user's SSH agent. */
  async agentFingerprint(deviceId: number): Promise<string | undefined> {
    const key = (await this.read(deviceId)).key;
    return key && 'agent' in key ? key.fingerprint : undefined;
  }

  /** Forgets the machine (its key and pinned host key). */
  forget(deviceId: number): Thenable<void> {
    sessionPassphrases.delete(this.name(deviceId));
    return this.secrets.delete(this.name(deviceId));
  }
}
