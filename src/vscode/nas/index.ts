// The NAS area (集群存储): the NAS view, the `computenas` file system (a volume as a workspace folder) and
// the NAS commands. Its SFTP sessions belong to the active profile and are dropped when it changes.

import * as vscode from 'vscode';
import { Views } from '../commandIds';
import { registerCommandTable } from '../commands/commandTable';
import type { NasSessions } from '../../core/nas/sessions';
import type { ExtensionServices } from '../services';
import { NAS_COMMANDS } from './nasCommands';
import { nasCore } from './nasCore';
import { NAS_SCHEME, NasFileSystem } from './nasFileSystem';
import { NasTree } from './nasTree';

export { NAS_SCHEME, volumeUri } from './nasFileSystem';

export interface NasApi {
  readonly tree: NasTree;
  readonly fileSystem: NasFileSystem;
  sessions(): NasSessions;
}

export function registerNas(services: ExtensionServices & { reportError: Parameters<typeof registerCommandTable>[2] }): { api: NasApi; disposables: vscode.Disposable[] } {
  let sessions: NasSessions | undefined;
  const getSessions = (): NasSessions => {
    // The platform calls go through whichever client the active profile has at the time.
    sessions ??= new (nasCore().NasSessions)({ call: ((...args: Parameters<ReturnType<ExtensionServices['computeClient']>['call']>) => services.computeClient().call(...args)) as never }, { logger: services.logger });
    return sessions;
  };
  const tree = new NasTree(services);
  const fileSystem = new NasFileSystem(getSessions);
  const view = vscode.window.createTreeView(Views.nas, { treeDataProvider: tree, showCollapseAll: false });
  const disposables: vscode.Disposable[] = [
    tree,
    view,
    vscode.workspace.registerFileSystemProvider(NAS_SCHEME, fileSystem, { isCaseSensitive: true }),
    services.profiles.onDidChangeActive(() => {
      sessions?.dispose();
      sessions = undefined;
      tree.refresh();
    }),
    new vscode.Disposable(() => sessions?.dispose()),
    ...registerCommandTable(NAS_COMMANDS, { services, tree, fileSystem, sessions: getSessions }, services.reportError),
  ];
  return { api: { tree, fileSystem, sessions: getSessions }, disposables };
}
