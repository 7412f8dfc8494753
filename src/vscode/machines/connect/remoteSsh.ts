// *Open in Remote-SSH* (docs/machines.md): the machine's Host entry in our own ssh config file (the
// user's ~/.ssh/config gains one Include), then the installed Remote-SSH extension opens
// `vscode-remote://ssh-remote+<alias>/<home>` through `vscode.openFolder` (Remote-SSH has no API of
// its own). A generated key is written for ssh as a 0600 file under the extension's global storage —
// the only file it is ever written to; the user's own key is used from where it is.

import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MachineHostEntry, MachineLogin, PinnedHostKey } from '../../../core/machines';
import { machinesCore } from '../../../core/lazyModules';
import { StateKeys } from '../../commandIds';
import type { MachineSshPlaces } from './machineConnector';

/** Extensions that open `ssh-remote+…` authorities (Microsoft's, Cursor's, the open-source one). */
export const REMOTE_SSH_EXTENSIONS = ['ms-vscode-remote.remote-ssh', 'anysphere.remote-ssh', 'jeanp413.open-remote-ssh'] as const;

/** The folder URI Remote-SSH opens: `vscode-remote://ssh-remote+<alias><absolute path>`. */
export function remoteSshUri(alias: string, folder: string): vscode.Uri {
  const absolute = folder.startsWith('/') ? folder : `/${folder}`;
  return vscode.Uri.from({ scheme: 'vscode-remote', authority: `ssh-remote+${alias}`, path: path.posix.normalize(absolute) });
}

/** The installed extension that opens ssh-remote authorities, if any. */
export function installedRemoteSsh(): string | undefined {
  return REMOTE_SSH_EXTENSIONS.find((id) => vscode.extensions.getExtension(id) !== undefined);
}

function isEntry(value: unknown): value is MachineHostEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return ['alias', 'host', 'user', 'identityFile', 'hostKey'].every((field) => typeof entry[field] === 'string') && typeof entry.port === 'number';
}

/** The Host entries written so far (kept beside the machine keys; a damaged list counts as empty). */
async function writtenEntries(secrets: vscode.SecretStorage): Promise<MachineHostEntry[]> {
  try {
    const value: unknown = JSON.parse((await secrets.get(StateKeys.machineSshEntries)) ?? '[]');
    return Array.isArray(value) ? value.filter(isEntry).slice(0, 200) : [];
  } catch {
    return [];
  }
}

export interface HostEntryWrite {
  deviceId: number;
  /** The profile the machine is rented under (the alias names it). */
  profileId: string;
  /** Remote-SSH's `remote.SSH.configFile` as the user set it (Config.remoteSshConfigFile): the file our Include goes in. */
  configFileSetting?: unknown;
  login: Pick<MachineLogin, 'host' | 'port' | 'username'>;
  hostKey: PinnedHostKey;
  /** The user's own private key file, the generated private key (written 0600 for ssh), or an agent key's public line (written as `.pub`: ssh then signs with that key through the agent). */
  key: { file: string } | { privateKey: string } | { agentPublicKey: string };
}

/** Writes the machine's Host entry (and every entry written before); resolves the alias and config file. */
export async function writeHostEntry(secrets: vscode.SecretStorage, storage: vscode.Uri, places: MachineSshPlaces, write: HostEntryWrite): Promise<{ alias: string; config: string }> {
  const { machineAlias, userSshConfig, writeAtomically, writeMachineConfig } = machinesCore();
  const alias = machineAlias(write.deviceId, write.profileId);
  let identityFile: string;
  if ('file' in write.key) identityFile = write.key.file;
  else {
    const folder = path.join(storage.fsPath, 'machines');
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const body = 'privateKey' in write.key ? write.key.privateKey : write.key.agentPublicKey;
    identityFile = path.join(folder, 'privateKey' in write.key ? `${alias}.key` : `${alias}.pub`);
    await writeAtomically(identityFile, body.endsWith('\n') ? body : `${body}\n`, 0o600);
  }
  const entry: MachineHostEntry = { alias, host: write.login.host, port: write.login.port, user: write.login.username, identityFile, hostKey: write.hostKey.key };
  const entries = [...(await writtenEntries(secrets)).filter((item) => item.alias !== alias), entry];
  const sshDir = places.sshDir();
  const { config } = await writeMachineConfig({ dir: path.join(sshDir, 'compute-toolkit'), userConfig: userSshConfig(write.configFileSetting, sshDir, homedir()) }, entries);
  await secrets.store(StateKeys.machineSshEntries, JSON.stringify(entries));
  return { alias, config };
}
