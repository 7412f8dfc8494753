// The ssh config for rented machines (docs/machines.md): one `Host` entry per machine in a file of its
// own, with the pinned host key in a known_hosts file of its own (`HostKeyAlias`, `UserKnownHostsFile`,
// `StrictHostKeyChecking yes`), written atomically (a temporary file renamed over). The user's
// `~/.ssh/config` only gains one `Include` line at its top when it lacks one; nothing else in it changes.

import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { ConfigError, coreText } from '../errors';

export interface MachineHostEntry {
  /** The `Host` name (what `ssh <alias>` and Remote-SSH use). */
  alias: string;
  host: string;
  port: number;
  user: string;
  /** The private key file (0600) the entry logs in with. */
  identityFile: string;
  /** The pinned host key line (`ssh-ed25519 AAAA…`). */
  hostKey: string;
}

export interface SshConfigFiles {
  /** The folder of our files (e.g. ~/.ssh/compute-toolkit). */
  dir: string;
  /** The user's ssh config (e.g. ~/.ssh/config). */
  userConfig: string;
}

const ALIAS = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const HOST = /^[A-Za-z0-9][A-Za-z0-9.:-]{0,252}$/;
const KEY_LINE = /^[a-z0-9@.-]{1,64} [A-Za-z0-9+/=]{16,8192}$/i;
const SAFE_PATH = /^[^"\r\n\0]{1,1024}$/;

/** An ssh config value: paths in double quotes; anything that could end the line or the quote is refused. */
function quotedPath(value: string): string {
  if (!SAFE_PATH.test(value)) throw new ConfigError(coreText('machines.configPath', JSON.stringify(value.slice(0, 120))));
  return `"${value}"`;
}

function check(entry: MachineHostEntry): void {
  if (!ALIAS.test(entry.alias)) throw new ConfigError(coreText('machines.badAlias', JSON.stringify(entry.alias.slice(0, 40)).slice(1, -1)));
  if (!HOST.test(entry.host)) throw new ConfigError(coreText('machines.badHost'));
  if (!Number.isInteger(entry.port) || entry.port < 1 || entry.port > 65535) throw new ConfigError(coreText('machines.badPort'));
  if (!/^[a-z_][a-z0-9_.-]{0,31}$/i.test(entry.user)) throw new ConfigError(coreText('machines.badUser'));
  if (!KEY_LINE.test(entry.hostKey)) throw new ConfigError(coreText('machines.badHostKey'));
}

/**
 * The Host name of a machine in our ssh config: the device id and a short digest of the profile's id, so
 * two profiles (accounts) that rent the same device id never share an entry or a key file.
 */
export function machineAlias(deviceId: number, profileId: string): string {
  return `compute-machine-${deviceId}-${createHash('sha256').update(profileId).digest('hex').slice(0, 8)}`;
}

/** The `HostKeyAlias` of an entry: its pinned key is looked up under this name, not the address. */
export function hostKeyAlias(alias: string): string {
  return `compute-toolkit-${alias}`;
}

/**
 * The user's ssh config that gets our Include: Remote-SSH's `remote.SSH.configFile` when it is set to an
 * absolute path (or `~/…`), else `<ssh dir>/config`. Anything else (relative, a line break, a quote) is
 * not a file ssh would read as the user's config: the default is used.
 */
export function userSshConfig(setting: unknown, sshDir: string, home: string): string {
  if (typeof setting !== 'string' || !SAFE_PATH.test(setting.trim())) return path.join(sshDir, 'config');
  const value = setting.trim();
  const expanded = value === '~' ? home : value.startsWith('~/') ? path.join(home, value.slice(2)) : value;
  return path.isAbsolute(expanded) ? path.normalize(expanded) : path.join(sshDir, 'config');
}

export function configPath(files: SshConfigFiles): string {
  return path.join(files.dir, 'config');
}

export function knownHostsPath(files: SshConfigFiles): string {
  return path.join(files.dir, 'known_hosts');
}

/** The text of our config file: one Host block per entry (checked first: nothing from the platform can add a directive). */
export function renderConfig(entries: readonly MachineHostEntry[], knownHosts: string): string {
  const blocks = entries.map((entry) => {
    check(entry);
    return [
      `Host ${entry.alias}`,
      `  HostName ${entry.host}`,
      `  Port ${entry.port}`,
      `  User ${entry.user}`,
      `  IdentityFile ${quotedPath(entry.identityFile)}`,
      '  IdentitiesOnly yes',
      '  PasswordAuthentication no',
      `  HostKeyAlias ${hostKeyAlias(entry.alias)}`,
      `  UserKnownHostsFile ${quotedPath(knownHosts)}`,
      '  StrictHostKeyChecking yes',
      '  ServerAliveInterval 15',
      '',
    ].join('\n');
  });
  return `# Written by Compute Toolkit: one entry per rented machine. Edits here are replaced.\n\n${blocks.join('\n')}`;
}

export function renderKnownHosts(entries: readonly MachineHostEntry[]): string {
  return entries.map((entry) => `${hostKeyAlias(entry.alias)} ${entry.hostKey}\n`).join('');
}

/** Writes `text` to `file` through a temporary file renamed over it (a reader never sees half a file). */
export async function writeAtomically(file: string, text: string, mode = 0o600): Promise<void> {
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, text, { mode, flag: 'wx' });
    await chmod(temporary, mode);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** The file a path leads to through any links (the path itself when nothing is there yet, or a link dangles). */
async function linkTarget(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return file;
    throw error;
  }
}

/** Whether the user's config already includes our file (an `Include` naming it, any case, quoted or not). */
export function includesOurs(userConfig: string, ours: string): boolean {
  return userConfig.split(/\r?\n/).some((line) => {
    const match = /^\s*include\s+(.+?)\s*$/i.exec(line);
    return match !== null && match[1]?.replace(/^"|"$/g, '') === ours;
  });
}

/**
 * Writes our config and known_hosts files, then adds `Include <our config>` at the top of the user's
 * config when missing (at the top: an Include after a Host line would apply only to that host).
 */
export async function writeMachineConfig(files: SshConfigFiles, entries: readonly MachineHostEntry[]): Promise<{ config: string; addedInclude: boolean }> {
  const config = configPath(files);
  const known = knownHostsPath(files);
  const text = renderConfig(entries, known);
  await mkdir(files.dir, { recursive: true, mode: 0o700 });
  await writeAtomically(known, renderKnownHosts(entries));
  await writeAtomically(config, text);

  // A config that is a link (a dotfiles manager's) is written where it points: the rename would otherwise
  // put a plain file in place of the user's link.
  const userConfig = await linkTarget(files.userConfig);
  let existing: string | undefined;
  let mode = 0o600;
  try {
    existing = await readFile(userConfig, 'utf8');
    mode = (await stat(userConfig)).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (existing !== undefined && includesOurs(existing, config)) return { config, addedInclude: false };
  await mkdir(path.dirname(userConfig), { recursive: true, mode: 0o700 });
  const newline = existing?.includes('\r\n') ? '\r\n' : '\n';
  await writeAtomically(userConfig, `Include ${quotedPath(config)}${newline}${existing ?? ''}`, mode);
  return { config, addedInclude: true };
}
