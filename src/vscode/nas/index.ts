// The NAS area (集群存储): the NAS view, the `computenas` file system (a volume as a workspace folder) and
// the NAS commands. Its SFTP sessions belong to the active profile and are dropped when it changes.

import * as vscode from 'vscode';
import { Views } from '../commandIds';
import { registerCommandTable } from '../commands/commandTable';
import type { OutputsListing } from '../../core/nas/outputs';
import type { NasSessions } from '../../core/nas/sessions';
import type { NasFileAccess } from '../../core/tools/nasTools';
import type { ExtensionServices } from '../services';
import type { RemoteState } from '../state/index';
import { NAS_COMMANDS, resolveVolume } from './nasCommands';
import { formatDateTime } from '../ui/dates';
import { nasCore } from './nasCore';
import { NAS_SCHEME, NasFileSystem, volumeUri } from './nasFileSystem';
import { NasTree } from './nasTree';
import { ProgressLog, type ProgressReport } from './transferProgress';
import { TRANSFER_COMMANDS, createTransferFlow, lastRsaRefusal, deleteTransferFlow, retryTransferFlow, stopTransferFlow, type TransferAsker } from './transferCommands';

export { NAS_SCHEME, volumeUri } from './nasFileSystem';

/** The transfer flows with a scripted asker (the in-host tests answer the questions by key). */
export interface TransferFlows {
  create(asker: TransferAsker, argument?: unknown): Promise<number | undefined>;
  retry(asker: TransferAsker, argument?: unknown): Promise<number | undefined>;
  stop(asker: TransferAsker, argument?: unknown): Promise<boolean>;
  remove(asker: TransferAsker, argument?: unknown): Promise<boolean>;
  /** The last "needs an RSA-mode profile" message shown. */
  lastRsaRefusal(): string | undefined;
}

export type { TransferAsker, TransferQuestion } from './transferCommands';
export type { ProgressReport } from './transferProgress';

export interface NasApi {
  readonly tree: NasTree;
  readonly transfers: TransferFlows;
  readonly fileSystem: NasFileSystem;
  sessions(): NasSessions;
  /** What the Upload / Download notifications were told so far (bytes, rate, time left), oldest first. */
  progressReports(): readonly ProgressReport[];
  /** File access for the agent tools: volumes over these sessions, local files inside `roots`. */
  toolAccess(roots: string[]): NasFileAccess;
  /** What Run on GPU needs from NAS: folder sync, a volume pick, and the outputs opened from the volume. */
  readonly runHooks: {
    syncer: { sync(options: { storageId: number; localDir: string; remoteDir: string; signal?: AbortSignal }): Promise<{ sent: number; skipped: number; bytes: number }> };
    pickVolume(): Promise<number | undefined>;
    openOutputs(storageId: number, remoteDir: string): Promise<void>;
    /** What Open Outputs offers: the files the run wrote or changed under `remoteDir`, newest first. */
    listOutputs(storageId: number, remoteDir: string): Promise<OutputsListing>;
  };
}

export function registerNas(services: ExtensionServices & { reportError: Parameters<typeof registerCommandTable>[2] }, state: RemoteState): { api: NasApi; disposables: vscode.Disposable[] } {
  let sessions: NasSessions | undefined;
  const getSessions = (): NasSessions => {
    // The platform calls go through whichever client the active profile has at the time.
    sessions ??= new (nasCore().NasSessions)({ call: ((...args: Parameters<ReturnType<ExtensionServices['computeClient']>['call']>) => services.computeClient().call(...args)) as never }, { logger: services.logger });
    return sessions;
  };
  const tree = new NasTree(services, state);
  const fileSystem = new NasFileSystem(getSessions);
  const progress = new ProgressLog();
  const context = { services, tree, fileSystem, sessions: getSessions, progress };
  const view = vscode.window.createTreeView(Views.nas, { treeDataProvider: tree, showCollapseAll: false });
  const disposables: vscode.Disposable[] = [
    tree,
    view,
    vscode.workspace.registerFileSystemProvider(NAS_SCHEME, fileSystem, { isCaseSensitive: true }),
    services.profiles.onDidChangeActive(() => {
      sessions?.dispose();
      sessions = undefined;
    }),
    new vscode.Disposable(() => sessions?.dispose()),
    ...registerCommandTable(NAS_COMMANDS, context, services.reportError),
    ...registerCommandTable(TRANSFER_COMMANDS, context, services.reportError),
  ];
  const transfers: TransferFlows = {
    create: (asker, argument) => createTransferFlow(context, asker, argument),
    retry: (asker, argument) => retryTransferFlow(context, asker, argument),
    stop: (asker, argument) => stopTransferFlow(context, asker, argument),
    remove: (asker, argument) => deleteTransferFlow(context, asker, argument),
    lastRsaRefusal,
  };
  const runHooks: NasApi['runHooks'] = {
    syncer: { sync: (options) => nasCore().syncFolder(getSessions(), options) },
    pickVolume: async () => (await resolveVolume(context, undefined, (volume) => volume.status === 'Active'))?.storage_id,
    openOutputs: async (storageId, remoteDir) => {
      // What the run wrote or changed, at any depth (not the inputs it was given), opened from the volume.
      const listing = await runHooks.listOutputs(storageId, remoteDir);
      if (listing.files.length === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t('The run wrote or changed no files in {0}.', remoteDir));
        return;
      }
      const items = listing.files.map((file) => ({
        label: file.relative,
        description: `${nasCore().formatBytes(file.size)} · ${formatDateTime(file.mtimeMs)}`,
        detail: file.change === 'new' ? vscode.l10n.t('written by the run') : vscode.l10n.t('changed by the run'),
      }));
      const placeHolder = listing.truncated
        ? vscode.l10n.t('Open an output file from the volume (the newest {0}; the folder is too large to list whole)', listing.files.length)
        : vscode.l10n.t('Open an output file from the volume');
      const picked = await vscode.window.showQuickPick(items, { placeHolder, matchOnDescription: true });
      if (picked) await vscode.window.showTextDocument(volumeUri(storageId, nasCore().remoteJoin(remoteDir, picked.label)));
    },
    listOutputs: (storageId, remoteDir) => getSessions().run(storageId, (connection) => nasCore().findOutputs(connection, remoteDir)),
  };
  return { api: { tree, transfers, fileSystem, sessions: getSessions, progressReports: () => progress.reports(), toolAccess: (roots) => nasCore().nasToolAccess(getSessions, roots), runHooks }, disposables };
}
