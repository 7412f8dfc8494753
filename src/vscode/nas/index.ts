// The NAS area (集群存储): the NAS view, the `computenas` file system (a volume as a workspace folder) and
// the NAS commands. Its SFTP sessions belong to the active profile and are dropped when it changes.

import * as vscode from 'vscode';
import { registerCommandTable } from '../commands/commandTable';
import type { NasVolume } from '../../core/nas/operations';
import type { OutputsListing } from '../../core/nas/outputs';
import type { NasSessions } from '../../core/nas/sessions';
import type { NasFileAccess } from '../../core/tools/nasTools';
import type { RegisteredArea } from '../areaRegistry';
import type { ExtensionServices } from '../services';
import type { RemoteState } from '../state/index';
import { NAS_COMMANDS, lastCancelledTransfer, resolveVolume, volumesOf } from './nasCommands';
import { formatDateTime } from '../ui/dates';
import { nasCore } from './nasCore';
import { SftpFileSystem } from '../remoteFiles/sftpFileSystem';
import { NAS_SCHEME, volumeUri } from './volumeUri';
import { createKindView, type KindTreeView } from '../kinds/registerKind';
import type { KindTree } from '../kinds/kindTree';
import { NasStores } from './nasStores';
import { volumeKind } from './volumeKind';
import { volumeServiceOf } from '../client/computeServices';
import { TRANSFER_STATE, isTransferMoving } from '../../core/nas/transferState';
import { ProgressLog, type ProgressReport } from './transferProgress';
import { warnUnsafeNames } from './unsafeNames';
import { TRANSFER_COMMANDS, createTransferFlow, lastRsaRefusal, deleteTransferFlow, retryTransferFlow, stopTransferFlow, type TransferAsker } from './transferCommands';

export { NAS_SCHEME, volumeUri } from './volumeUri';

/** The transfer flows (create and retry are multi-step flows the in-host tests answer; stop and delete take a scripted asker). */
export interface TransferFlows {
  create(argument?: unknown): Promise<number | undefined>;
  retry(argument?: unknown): Promise<number | undefined>;
  stop(asker: TransferAsker, argument?: unknown): Promise<boolean>;
  remove(asker: TransferAsker, argument?: unknown): Promise<boolean>;
  /** The last "needs an RSA-mode profile" message shown. */
  lastRsaRefusal(): string | undefined;
}

export type { TransferAsker } from './transferCommands';
export type { ProgressReport } from './transferProgress';

export interface NasApi {
  /** The NAS view: the one kind tree over the volume kind (summary, volumes, the Transfers group). */
  readonly tree: KindTree<NasVolume>;
  readonly stores: NasStores;
  readonly transfers: TransferFlows;
  readonly fileSystem: SftpFileSystem;
  sessions(): NasSessions;
  /** What the Upload / Download notifications were told so far (bytes, rate, time left), oldest first. */
  progressReports(): readonly ProgressReport[];
  /** The last "upload / download cancelled" message shown. */
  lastCancelledTransfer(): string | undefined;
  /** File access for the agent tools: volumes over these sessions, local files inside `roots`. */
  toolAccess(roots: string[]): NasFileAccess;
  /** What Run on GPU needs from NAS: folder sync, a volume pick, and the outputs opened from the volume. */
  readonly runHooks: {
    syncer: {
      sync(options: { storageId: number; localDir: string; remoteDir: string; signal?: AbortSignal }): Promise<{ sent: number; skipped: number; bytes: number }>;
      checkMount(storageId: number, regionName: string, signal?: AbortSignal): Promise<unknown>;
    };
    /** An Active volume in `regionName`: `preferred` when it is one, else the user's pick. */
    pickVolume(regionName: string, preferred?: number): Promise<number | undefined>;
    openOutputs(storageId: number, remoteDir: string): Promise<void>;
    /** A run wrote under `remoteDir` (its outputs): the Explorer hears of what is there now. */
    announceFolder(storageId: number, remoteDir: string): Promise<void>;
    /** What Open Outputs offers: the files the run wrote or changed under `remoteDir`, newest first. */
    listOutputs(storageId: number, remoteDir: string): Promise<OutputsListing>;
  };
}

/** `own`: the registry's list for this area (areaRegistry.ts); each disposable goes in as it is created. */
export function registerNas(services: ExtensionServices, state: RemoteState, own: vscode.Disposable[] = []): RegisteredArea<NasApi> {
  let sessions: NasSessions | undefined;
  const getSessions = (): NasSessions => {
    // The platform calls go through the volume service, over whichever client the active profile has at the time.
    sessions ??= new (nasCore().NasSessions)(volumeServiceOf(services), { logger: services.logger });
    return sessions;
  };
  const { tree }: KindTreeView<NasVolume> = createKindView(services, state, volumeKind(() => volumeServiceOf(services), services.logger), own);
  const stores = new NasStores(state, () => services.profiles.active !== undefined);
  const fileSystem = new SftpFileSystem(NAS_SCHEME, getSessions, (skipped, uri) => warnUnsafeNames(services.logger, { count: skipped.count, shown: skipped.names }, uri.toString()));
  const progress = new ProgressLog();
  const context = { services, tree, stores, fileSystem, sessions: getSessions, progress };
  // One push per registration: a throw halfway leaves everything before it in `own`.
  own.push(new vscode.Disposable(() => sessions?.dispose()));
  own.push(vscode.workspace.registerFileSystemProvider(NAS_SCHEME, fileSystem, { isCaseSensitive: true }));
  own.push(
    services.profiles.onDidChangeActive(() => {
      sessions?.dispose();
      sessions = undefined;
    }),
  );
  own.push(...registerCommandTable(NAS_COMMANDS, context, services.reportError));
  own.push(...registerCommandTable(TRANSFER_COMMANDS, context, services.reportError));
  own.push(
    // An S3 → NAS transfer that ended wrote into its folder: the Explorer hears of what is there now.
    state.follow(TRANSFER_STATE, (change, profile) => {
      if (profile.id !== services.profiles.active?.id) return;
      const ended = [...change.changed.filter(({ before }) => isTransferMoving(before)).map(({ after }) => after), ...(change.first ? [] : change.added)];
      for (const after of ended) {
        if (after.direction === 1 && !isTransferMoving(after)) {
          void fileSystem.announceTree(after.storage_id, after.nas_path || '/').catch((error: unknown) => services.logger.warn(`NAS: could not list ${after.nas_path} after transfer ${after.id}: ${String(error)}`));
        }
      }
    }),
  );
  const transfers: TransferFlows = {
    create: (argument) => createTransferFlow(context, argument),
    retry: (argument) => retryTransferFlow(context, argument),
    stop: (asker, argument) => stopTransferFlow(context, asker, argument),
    remove: (asker, argument) => deleteTransferFlow(context, asker, argument),
    lastRsaRefusal,
  };
  const runHooks: NasApi['runHooks'] = {
    syncer: {
      sync: async (options) => {
        const written: { path: string; replaced: boolean }[] = [];
        try {
          return await nasCore().syncFolder(getSessions(), { ...options, onWritten: (path, replaced) => void written.push({ path, replaced }) });
        } finally {
          fileSystem.announceWritten(options.storageId, written);
        }
      },
      checkMount: (storageId, regionName, signal) => volumesOf(context).requireMountable(storageId, regionName, signal),
    },
    pickVolume: async (regionName, preferred) => {
      const fits = (volume: NasVolume): boolean => nasCore().mountableVolumes([volume], regionName).length > 0;
      const current = preferred === undefined ? undefined : (await stores.volumes()).find((volume) => volume.storage_id === preferred);
      if (current && fits(current)) return current.storage_id;
      return (await resolveVolume(context, undefined, fits, vscode.l10n.t('No Active NAS volume in {0}: a volume mounts only in its own region. Create one there in the NAS view, or pick a GPU in a region that has one.', regionName)))?.storage_id;
    },
    announceFolder: (storageId, remoteDir) => fileSystem.announceTree(storageId, remoteDir),
    openOutputs: async (storageId, remoteDir) => {
      // What the run wrote or changed, at any depth (not the inputs it was given), opened from the volume.
      const listing = await runHooks.listOutputs(storageId, remoteDir);
      if (listing.unsafeNames) warnUnsafeNames(services.logger, listing.unsafeNames);
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
  return { api: { tree, stores, transfers, fileSystem, sessions: getSessions, progressReports: () => progress.reports(), lastCancelledTransfer, toolAccess: (roots) => nasCore().nasToolAccess(getSessions, roots), runHooks }, disposables: own };
}
