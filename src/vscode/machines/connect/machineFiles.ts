// *Open Folder on Machine* (docs/machines.md): the machine's files as a workspace folder, through the SFTP
// file system NAS volumes use too (src/vscode/remoteFiles/sftpFileSystem.ts) on the shared SSH layer, under a scheme
// of its own: computemachine://<device id>/<path>. Key-only, pinned host key; one SFTP connection per
// machine, reopened by the sessions when it drops.

import * as vscode from 'vscode';
import type { SshSessions, SshCredentials } from '../../../core/ssh';
import { machinesCore } from '../../../core/lazyModules';
import { SftpFileSystem } from '../../remoteFiles/sftpFileSystem';
import type { MachineConnector, MachineTarget } from './machineConnector';

export const MACHINE_SCHEME = 'computemachine';

export function machineFolderUri(deviceId: number, path: string): vscode.Uri {
  return vscode.Uri.from({ scheme: MACHINE_SCHEME, authority: String(deviceId), path: path.startsWith('/') ? path : `/${path}` });
}

export class MachineFiles implements vscode.Disposable {
  private sessions: SshSessions<number, SshCredentials> | undefined;
  readonly provider: SftpFileSystem;
  private readonly registration: vscode.Disposable;

  constructor(
    private readonly connector: MachineConnector,
    logger: { warn(message: string): void },
  ) {
    this.provider = new SftpFileSystem(MACHINE_SCHEME, () => this.current(), (skipped, uri) => logger.warn(`machines: ${skipped.count} entries with unusable names left out of ${uri.toString()}`));
    this.registration = vscode.workspace.registerFileSystemProvider(MACHINE_SCHEME, this.provider, { isCaseSensitive: true });
  }

  /** The machines' SFTP sessions (Run on GPU's folder sync shares them). */
  syncSessions(): SshSessions<number, SshCredentials> {
    return this.current();
  }

  private current(): SshSessions<number, SshCredentials> {
    this.sessions ??= machinesCore().machineSftpSessions({ login: (deviceId, signal) => this.connector.service().login(deviceId, signal), store: () => this.connector.store() });
    return this.sessions;
  }

  /** The home folder of the machine's login, as its SFTP server names it. */
  home(deviceId: number): Promise<string> {
    return this.current().run(deviceId, (connection) => connection.realpath('.'));
  }

  /** Adds the machine's home as a workspace folder (VS Code may restart the extension host for the first folder). */
  async open(target: MachineTarget): Promise<vscode.Uri> {
    const uri = machineFolderUri(target.deviceId, await this.home(target.deviceId));
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (!folders.some((folder) => folder.uri.toString() === uri.toString())) {
      vscode.workspace.updateWorkspaceFolders(folders.length, 0, { uri, name: target.label });
    }
    return uri;
  }

  dispose(): void {
    this.sessions?.dispose();
    this.registration.dispose();
  }
}
