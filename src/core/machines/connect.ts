// Connecting to a rented machine (docs/machines.md): the first login uses the platform's password to
// install a public key (the user's own, or one generated for this machine: the caller decides), and
// every later connection is key-only. The host key is pinned on the first connect (its fingerprint as
// OpenSSH prints it) and a different key later is refused before any credential is sent. Key material
// and the password are never logged and never part of an error.

import { utils } from 'ssh2';
import { ConfigError, coreText } from '../errors';
import type { Logger } from '../log';
import { silentLogger } from '../log';
import { agentKeys, OneKeyAgent, SshAgentError } from '../ssh/agent';
import { SshAuthError, SshHostKeyError } from '../ssh/errors';
import type { HostKeyPolicy, PresentedHostKey } from '../ssh/hostKeys';
import { generateEd25519Pair } from '../ssh/keygen';
import { SshConnection, type SshEndpoint } from '../ssh/sshConnection';

/** Where a Serving machine is reached: `pub_ip:ssh_port`, the login, and the password until a key is in. */
export interface MachineLogin {
  host: string;
  port: number;
  username: string;
  password: string | null;
}

/** A pinned host key: the fingerprint shown, and the key line (`ssh-ed25519 AAAA…`) for a known_hosts file. */
export interface PinnedHostKey {
  fingerprint: string;
  key: string;
}

/** An SSH key pair: the private key (OpenSSH text) and its public line. */
export interface MachineKey {
  privateKey: string;
  publicKey: string;
  /** The user's own key: the file the private key was read from (kept instead of a copy of it). */
  privateKeyFile?: string;
  /** The own key's passphrase, when it has one: asked, held in memory, kept only if the user says so. */
  passphrase?: string;
  /** Whether the user chose to keep the passphrase in the editor's secret storage. */
  keepPassphrase?: boolean;
  /**
   * The key lives in the user's SSH agent (no private key here): its fingerprint (kept) and the agent's
   * socket as the editor's process environment gives it now (never kept; undefined: none set).
   */
  agent?: { fingerprint: string; socket: string | undefined };
}

/** How a kept key logs in: the private key (and passphrase), or the agent offering only that key. */
export function keyLogin(deviceId: number, key: MachineKey): Pick<SshEndpoint, 'privateKey' | 'passphrase' | 'agent'> {
  if (key.agent) {
    if (key.agent.socket === undefined) throw new SshAgentError(coreText('ssh.agentNotSet', deviceId));
    return { agent: new OneKeyAgent(key.agent.socket, key.agent.fingerprint) };
  }
  return { privateKey: key.privateKey, ...(key.passphrase !== undefined ? { passphrase: key.passphrase } : {}) };
}

/** An agent key with its public line read from the agent (refused when the agent is gone or lost the key). */
export async function agentPublicKey(deviceId: number, key: MachineKey): Promise<MachineKey> {
  if (!key.agent) return key;
  if (key.agent.socket === undefined) throw new SshAgentError(coreText('ssh.agentNotSet', deviceId));
  const held = (await agentKeys(key.agent.socket)).find((item) => item.fingerprint === key.agent?.fingerprint);
  if (!held) throw new SshAgentError(coreText('ssh.agentKeyMissing', key.agent.fingerprint));
  return { ...key, publicKey: held.publicKey };
}

/** Where pinned host keys and machine keys are kept (the editor: SecretStorage and its state). */
export interface MachineKeyStore {
  hostKey(deviceId: number): Promise<PinnedHostKey | undefined>;
  pinHostKey(deviceId: number, key: PinnedHostKey): Promise<void>;
  machineKey(deviceId: number): Promise<MachineKey | undefined>;
  saveMachineKey(deviceId: number, key: MachineKey): Promise<void>;
}

/** Which key the first login installs: the user's own pair, or a new one for this machine. */
export type KeyChoice = { kind: 'own'; key: MachineKey } | { kind: 'generate' };

export interface ConnectOptions {
  deviceId: number;
  login: MachineLogin;
  store: MachineKeyStore;
  /** Asked only when a key must be installed: the first login, or a kept key the machine refused. A key-only connect passes one that refuses. */
  chooseKey: () => Promise<KeyChoice>;
  signal?: AbortSignal;
  logger?: Logger;
}

export interface MachineConnection {
  connection: SshConnection;
  hostKey: PinnedHostKey;
  /** This connect installed the key (the first one). */
  installedKey: boolean;
  /** After installing the key: whether the machine's sshd now refuses passwords (false: it could not be turned off). */
  passwordOff?: boolean;
}

/** The host key's `type base64` line from its blob (the blob begins with its type name). */
export function hostKeyLine(blob: Buffer): string {
  const length = blob.length >= 4 ? blob.readUInt32BE(0) : 0;
  const type = length > 0 && length < 64 && blob.length >= 4 + length ? blob.subarray(4, 4 + length).toString('latin1') : '';
  if (!/^[a-z0-9@.-]+$/i.test(type)) throw new ConfigError(coreText('machines.hostKeyType'));
  return `${type} ${blob.toString('base64')}`;
}

/** Pinned when there is one; otherwise accepts and records the first key seen (in `seen`). */
export function pinnedPolicy(address: string, pinned: PinnedHostKey | undefined, seen: { key?: PresentedHostKey }): HostKeyPolicy {
  return (_address, key) => {
    if (pinned && pinned.fingerprint !== key.fingerprint) {
      return new SshHostKeyError(coreText('machines.hostKeyChanged', address, key.fingerprint, pinned.fingerprint), pinned.fingerprint, key.fingerprint);
    }
    seen.key = key;
    return undefined;
  };
}

/** Stops a probe once the host key is known: nothing else happens on the connection. */
class ProbeDone extends Error {}

/**
 * The host key a machine presents, read without logging in (the connection ends at key exchange, before
 * any credential): what the user confirms on a first connect, before the password is sent.
 */
export async function probeHostKey(login: Pick<MachineLogin, 'host' | 'port' | 'username'>, signal?: AbortSignal): Promise<PinnedHostKey> {
  let seen = undefined as PresentedHostKey | undefined;
  const policy: HostKeyPolicy = (_address, key) => {
    seen = key;
    return new ProbeDone();
  };
  try {
    (await SshConnection.open({ host: login.host, port: login.port, username: login.username, password: '' }, { hostKeys: policy, words: MACHINE_WORDS(`${login.host}:${login.port}`), ...(signal ? { signal } : {}) })).close();
  } catch (error) {
    // Any failure after the key was seen is the probe's own refusal.
    if (!seen) throw error;
  }
  if (!seen) throw new ConfigError(coreText('machines.hostKeyType'));
  return { fingerprint: seen.fingerprint, key: hostKeyLine(seen.blob) };
}

export const MACHINE_WORDS = (address: string) => ({ place: 'the machine', protocol: 'SSH', refused: `The machine at ${address} refused the login.` });

/** A new ed25519 pair for one machine (OpenSSH private key text, public line with a comment). */
export function generateMachineKey(deviceId: number): MachineKey {
  return generateEd25519Pair(`compute-toolkit-machine-${deviceId}`);
}

/** A public key line we install: one line, a known type, base64; anything else is refused. */
export function checkedPublicKey(line: string): string {
  const trimmed = line.trim();
  const parsed = utils.parseKey(trimmed);
  if (!/^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(256|384|521)) [A-Za-z0-9+/=]+( [^\r\n]{0,200})?$/.test(trimmed) || parsed instanceof Error) {
    throw new ConfigError(coreText('machines.publicKey'));
  }
  return trimmed;
}

// Appends the key read from stdin once (never on the command line), with the modes sshd insists on.
const INSTALL_KEY = 'umask 077; mkdir -p "$HOME/.ssh" && k=$(head -c 8192) && touch "$HOME/.ssh/authorized_keys" && (grep -qxF "$k" "$HOME/.ssh/authorized_keys" || printf \'%s\\n\' "$k" >> "$HOME/.ssh/authorized_keys") && chmod 600 "$HOME/.ssh/authorized_keys"';

// Turns password logins off once the key works: a drop-in that sorts first (sshd keeps the first value
// it reads, and Debian/Ubuntu include sshd_config.d at the top), then a reload. Exit 3: this sshd reads
// no drop-ins (the password stays on; the caller says so). Never a kill of sshd by pid.
export const LOCK_PASSWORD = [
  'S=; [ "$(id -u)" = 0 ] || S="sudo -n"',
  'grep -qiE \'^[[:space:]]*Include[[:space:]]+"?/etc/ssh/sshd_config\\.d/\' /etc/ssh/sshd_config || exit 3',
  'printf \'PasswordAuthentication no\\nKbdInteractiveAuthentication no\\n\' | $S tee /etc/ssh/sshd_config.d/01-compute-toolkit.conf >/dev/null || exit 4',
  '$S systemctl reload ssh 2>/dev/null || $S systemctl reload sshd 2>/dev/null || $S service ssh reload >/dev/null 2>&1 || exit 5',
].join('\n');

/** Runs LOCK_PASSWORD over a key login; true when the machine now refuses passwords. */
export async function lockPasswordLogin(connection: SshConnection, signal?: AbortSignal): Promise<boolean> {
  const result = await connection.exec(LOCK_PASSWORD, signal ? { signal } : {});
  return result.code === 0;
}

/**
 * Connects to a Serving machine: with its key when one is kept, else with the password to install
 * one and then with the key. The host key is pinned on the first success and checked on every connect.
 */
export async function connectMachine(options: ConnectOptions): Promise<MachineConnection> {
  const { deviceId, login, store } = options;
  const logger = options.logger ?? silentLogger;
  const address = `${login.host}:${login.port}`;
  const pinned = await store.hostKey(deviceId);
  const seen: { key?: PresentedHostKey } = {};
  const open = (secret: Pick<SshEndpoint, 'privateKey' | 'passphrase' | 'agent'> | { password: string }): Promise<SshConnection> =>
    SshConnection.open(
      { host: login.host, port: login.port, username: login.username, ...secret },
      { hostKeys: pinnedPolicy(address, pinned, seen), words: MACHINE_WORDS(address), ...(options.signal ? { signal: options.signal } : {}) },
    );
  const pin = async (): Promise<PinnedHostKey> => {
    const key = seen.key as PresentedHostKey;
    const hostKey = { fingerprint: key.fingerprint, key: hostKeyLine(key.blob) };
    if (!pinned) {
      await store.pinHostKey(deviceId, hostKey);
      logger.info(`machines: pinned the host key of machine ${deviceId} (${hostKey.fingerprint})`);
    }
    return hostKey;
  };

  const kept = await store.machineKey(deviceId);
  if (kept) {
    try {
      const connection = await open(keyLogin(deviceId, kept));
      return { connection, hostKey: await pin(), installedKey: false };
    } catch (error) {
      // A refused key (the machine was reset): a key is installed again with the password only when the
      // caller asks the user which (`chooseKey`); a key-only connect's chooseKey refuses, so it never
      // falls back to the password by itself.
      if (!(error instanceof SshAuthError) || !login.password) throw error;
      logger.info(`machines: the kept key of machine ${deviceId} was refused`);
    }
  }
  if (!login.password) throw new ConfigError(coreText('machines.noPassword', deviceId));
  const choice = await options.chooseKey();
  // An agent key is checked in the agent before the password is sent (and its public line read there).
  const chosen = choice.kind === 'own' ? await agentPublicKey(deviceId, choice.key) : generateMachineKey(deviceId);
  const key = { ...chosen, publicKey: checkedPublicKey(chosen.publicKey) };
  const withPassword = await open({ password: login.password });
  try {
    const installed = await withPassword.exec(INSTALL_KEY, { stdin: `${key.publicKey}\n`, ...(options.signal ? { signal: options.signal } : {}) });
    if (installed.code !== 0) throw new ConfigError(coreText('machines.installFailed', deviceId, String(installed.code)));
  } finally {
    withPassword.close();
  }
  await store.saveMachineKey(deviceId, key);
  logger.info(`machines: installed a key on machine ${deviceId}; connecting with it from now on`);
  const connection = await open(keyLogin(deviceId, key));
  const passwordOff = await lockPasswordLogin(connection, options.signal);
  logger.info(passwordOff ? `machines: password logins are off on machine ${deviceId}` : `machines: could not turn password logins off on machine ${deviceId}`);
  return { connection, hostKey: await pin(), installedKey: true, passwordOff };
}

/**
 * Connects to a Serving machine of the service's profile: its login from the platform, then `connectMachine`
 * (key install on the first login, the host key pinned). Apart from the service, which the editor and the
 * tools load at start, because this path carries the SSH library.
 */
export async function connectRented(
  service: { login(deviceId: number, signal?: AbortSignal): Promise<MachineLogin> },
  deviceId: number,
  store: MachineKeyStore,
  chooseKey: () => Promise<KeyChoice>,
  signal?: AbortSignal,
  logger?: Logger,
): Promise<MachineConnection> {
  const login = await service.login(deviceId, signal);
  return connectMachine({ deviceId, login, store, chooseKey, ...(signal ? { signal } : {}), ...(logger ? { logger } : {}) });
}
