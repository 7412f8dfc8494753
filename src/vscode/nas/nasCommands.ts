// The NAS commands: create / expand / rename / delete volumes (price shown before anything spends; delete
// named, confirmed, refused with the reason while mounted), open a volume in the Explorer, upload and
// download with progress and cancellation, and the session's connection details and close.

import { Commands } from '../commandIds';
import * as vscode from 'vscode';
import { volumeStatusName } from '../ui/statusWords';
import type { CommandEntry } from '../commands/commandTable';
import type { NasVolume } from '../../core/nas/operations';
import type { ExistingFilePolicy, TransferResult } from '../../core/nas/transfer';
import { formatGiB } from '../../core/nas/units';
import type { ExtensionServices } from '../services';
import { Refusal } from '../errors/refusal';
import { nasCore } from './nasCore';
import type { SftpFileSystem } from '../remoteFiles/sftpFileSystem';
import { NAS_SCHEME, volumeUri } from './volumeUri';
import { itemOfKind, type KindTree } from '../kinds/kindTree';
import type { NasStores } from './nasStores';
import { createVolumeFlow, expandVolumeFlow, volumeNameText } from './volumeFlows';
import { downloadFlow, uploadFlow } from './fileFlows';
import { withTransferProgress, type ProgressLog } from './transferProgress';
import type { NasSessions } from '../../core/nas/sessions';
import type { TransferService } from '../../core/nas/transferService';
import type { VolumeService } from '../../core/nas/volumeService';
import { transferServiceOf, volumeServiceOf } from '../client/computeServices';
import { formatDateTime } from '../ui/dates';
import { safeFileName } from '../../core/safeFileName';
import { warnUnsafeNames } from './unsafeNames';
import { counted } from '../ui/counts';
import { resultMessage } from './transferResultText';

/** The active profile's volumes; a change wakes the store through `wake` (the view's refresh or reload). */
export function volumesOf(context: Pick<NasContext, 'services'>, wake?: () => void | Promise<void>): VolumeService {
  return volumeServiceOf(context.services, wake);
}

/** The active profile's S3 transfers; a change wakes the store through the view's refresh. */
export function transfersOf(context: NasContext): TransferService {
  return transferServiceOf(context.services, () => context.stores.wake());
}

export interface NasContext {
  services: ExtensionServices;
  /** The NAS view (the kind tree over volumeKind.ts). */
  tree: KindTree<NasVolume>;
  stores: NasStores;
  fileSystem: SftpFileSystem;
  sessions: () => NasSessions;
  /** What the transfer notifications were told (the in-host tests read it). */
  progress: ProgressLog;
}

/** A volume from a command argument (tree row, computenas URI, id) or, failing that, a pick among `filter`. */
export async function resolveVolume(context: NasContext, argument: unknown, filter: (v: NasVolume) => boolean = () => true, none?: string): Promise<NasVolume | undefined> {
  const row = itemOfKind(argument, context.tree.descriptor);
  if (row) return row;
  const volumes = await context.stores.volumes();
  let id: number | undefined;
  if (argument instanceof vscode.Uri && argument.scheme === NAS_SCHEME) id = Number(argument.authority);
  if (typeof argument === 'number') id = argument;
  if (id !== undefined) return volumes.find((v) => v.storage_id === id);
  const candidates = volumes.filter(filter);
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage(none ?? vscode.l10n.t('No NAS volume fits. Create one in the NAS view.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    candidates.map((volume) => ({ label: volume.name, description: vscode.l10n.t('{0} · {1} GiB', volume.region.name, formatGiB(volume.total_size)), volume })),
    { placeHolder: vscode.l10n.t('Choose a NAS volume') },
  );
  return picked?.volume;
}

/** The last "upload / download cancelled" message shown (the in-host tests read it). */
let lastCancelled: string | undefined;
export function lastCancelledTransfer(): string | undefined {
  return lastCancelled;
}


export const NAS_COMMANDS: CommandEntry<NasContext>[] = [
  {
    id: Commands.nasRefresh,
    doing: vscode.l10n.t('Refresh NAS volumes'),
    create: (context) => async () => {
      await context.tree.refresh();
      for (const folder of vscode.workspace.workspaceFolders ?? []) if (folder.uri.scheme === NAS_SCHEME) context.fileSystem.refresh(folder.uri);
    },
  },
  {
    id: Commands.nasCreate,
    doing: vscode.l10n.t('Create NAS volume'),
    create: (context) => async () => {
      // The user just set a volume moving: the store lists now (it shows Creating) and polls until Active.
      const created = await createVolumeFlow(volumesOf(context, () => context.stores.reload()));
      return created;
    },
  },
  {
    id: Commands.nasExpand,
    doing: vscode.l10n.t('Expand NAS volume'),
    create: (context) => async (argument: unknown) => {
      const volume = await resolveVolume(context, argument, (v) => v.status === 'Active');
      if (!volume) return false;
      if (volume.status !== 'Active') throw new Refusal(vscode.l10n.t('Only an Active volume can be expanded; "{0}" is {1}.', volume.name, volumeStatusName(volume.status)));
      const expanded = await expandVolumeFlow(volumesOf(context, () => context.stores.reload()), volume);
      return expanded;
    },
  },
  {
    id: Commands.nasRename,
    doing: vscode.l10n.t('Rename NAS volume'),
    create: (context) => async (argument: unknown) => {
      const volume = await resolveVolume(context, argument);
      if (!volume) return;
      const name = await vscode.window.showInputBox({
        prompt: vscode.l10n.t('New name'),
        value: volume.name,
        validateInput: volumeNameText,
      });
      if (name === undefined || name.trim() === volume.name) return;
      await volumesOf(context, () => context.stores.wake()).rename(volume.storage_id, name.trim());
    },
  },
  {
    id: Commands.nasDelete,
    doing: vscode.l10n.t('Delete NAS volume'),
    create: (context) => async (argument: unknown) => {
      const volume = await resolveVolume(context, argument);
      if (!volume) return;
      const volumes = volumesOf(context, () => context.stores.wake());
      const block = await volumes.deleteBlock(volume);
      if (block?.reason === 'mounted') {
        context.services.reportError(new Refusal(vscode.l10n.t('"{0}" is mounted by {1}; it cannot be deleted while a task mounts it. Remove the mount from the task first.', volume.name, block.instances.join(', '))), vscode.l10n.t('Delete NAS volume'));
        return;
      }
      if (block?.reason === 'transfers') {
        context.services.reportError(new Refusal(vscode.l10n.t('"{0}" has {1} running; stop them before deleting the volume.', volume.name, counted(block.count, 'transfer'))), vscode.l10n.t('Delete NAS volume'));
        return;
      }
      if (block?.reason === 'status') {
        context.services.reportError(new Refusal(vscode.l10n.t('"{0}" is {1}; only an Active or Exception volume can be deleted.', volume.name, volumeStatusName(volume.status))), vscode.l10n.t('Delete NAS volume'));
        return;
      }
      const typed = await vscode.window.showInputBox({
        title: vscode.l10n.t('Delete NAS volume "{0}" (id {1}, {2} GiB)', volume.name, volume.storage_id, formatGiB(volume.total_size)),
        prompt: vscode.l10n.t('All files on it are lost for good. Type the volume name to delete it.'),
        validateInput: (text) => (text === volume.name ? undefined : vscode.l10n.t('Type "{0}" exactly.', volume.name)),
      });
      if (typed !== volume.name) return;
      context.sessions().forget(volume.storage_id);
      await volumes.remove(volume.storage_id);
    },
  },
  {
    id: Commands.nasOpenInExplorer,
    doing: vscode.l10n.t('Open volume in Explorer'),
    create: (context) => async (argument: unknown) => {
      const volume = await resolveVolume(context, argument, (v) => v.status === 'Active');
      if (!volume) return false;
      const uri = volumeUri(volume.storage_id);
      const folders = vscode.workspace.workspaceFolders ?? [];
      if (folders.some((f) => f.uri.toString() === uri.toString())) {
        await vscode.commands.executeCommand('workbench.view.explorer');
        return true;
      }
      return vscode.workspace.updateWorkspaceFolders(folders.length, 0, { uri, name: vscode.l10n.t('NAS: {0}', volume.name) });
    },
  },
  {
    id: Commands.nasUpload,
    doing: vscode.l10n.t('Upload to volume'),
    create: (context) => async (argument: unknown, rawOptions?: unknown) => {
      const options = rawOptions as { sources?: vscode.Uri[]; target?: string; policy?: ExistingFilePolicy } | undefined;
      const volume = await resolveVolume(context, argument instanceof vscode.Uri && argument.scheme !== NAS_SCHEME ? undefined : argument, (v) => v.status === 'Active');
      if (!volume) return undefined;
      const sources =
        options?.sources ??
        (argument instanceof vscode.Uri && argument.scheme === 'file'
          ? [argument]
          : await vscode.window.showOpenDialog({ canSelectFiles: true, canSelectFolders: true, canSelectMany: true, openLabel: vscode.l10n.t('Upload') }));
      if (!sources || sources.length === 0) return undefined;
      const defaultTarget = argument instanceof vscode.Uri && argument.scheme === NAS_SCHEME ? argument.path : '/';
      const answers = await uploadFlow(volume, defaultTarget, { ...(options?.target !== undefined ? { target: options.target } : {}), ...(options?.policy ? { policy: options.policy } : {}) });
      if (!answers) return undefined;
      const { target, policy } = answers;
      const core = nasCore();
      const total: TransferResult = { sent: 0, skipped: 0, bytes: 0 };
      const written: { path: string; replaced: boolean }[] = [];
      const onWritten = (path: string, replaced: boolean): void => void written.push({ path, replaced });
      let result: TransferResult | undefined;
      try {
        result = await withTransferProgress(context.progress, vscode.l10n.t('Uploading to {0}', volume.name), async (signal, report) => {
          for (const source of sources) {
            const name = source.path.split('/').pop() ?? 'upload';
            const one = await core.upload(context.sessions(), volume.storage_id, source.fsPath, core.remoteJoin(target, name), { policy, signal, onProgress: report, onWritten });
            total.sent += one.sent;
            total.skipped += one.skipped;
            total.bytes += one.bytes;
          }
          return total;
        });
      } finally {
        // What was written is announced even when the upload stopped half-way (docs/nas.md).
        context.fileSystem.announceWritten(volume.storage_id, written);
      }
      if (result) void vscode.window.showInformationMessage(resultMessage(result, 'upload'));
      else {
        lastCancelled = vscode.l10n.t(
          'Upload to "{0}" cancelled. {1} sent before it stopped are kept on the volume; the file in flight was not written, and any file it would have replaced is unchanged.',
          volume.name,
          counted(written.length, 'file'),
        );
        void vscode.window.showWarningMessage(lastCancelled);
      }
      return result;
    },
  },
  {
    id: Commands.nasDownload,
    doing: vscode.l10n.t('Download from volume'),
    create: (context) => async (argument: unknown, rawOptions?: unknown) => {
      const options = rawOptions as { remote?: string; destination?: vscode.Uri; policy?: ExistingFilePolicy } | undefined;
      const volume = await resolveVolume(context, argument, (v) => v.status === 'Active');
      if (!volume) return undefined;
      const given = options?.remote ?? (argument instanceof vscode.Uri && argument.scheme === NAS_SCHEME ? argument.path : undefined);
      const answers = await downloadFlow(volume, context.fileSystem, { ...(given !== undefined ? { remote: given } : {}), ...(options?.policy ? { policy: options.policy } : {}) });
      if (!answers) return undefined;
      const { remote, policy } = answers;
      const destination =
        options?.destination ?? (await vscode.window.showOpenDialog({ canSelectFiles: false, canSelectFolders: true, openLabel: vscode.l10n.t('Download here') }))?.[0];
      if (!destination) return undefined;
      const core = nasCore();
      // The local name comes from the volume (its last folder, or the volume's own name for its root).
      const name = safeFileName(remote.split('/').filter(Boolean).pop() ?? volume.name, `volume-${volume.storage_id}`);
      const result = await withTransferProgress(context.progress, vscode.l10n.t('Downloading from {0}', volume.name), (signal, report) =>
        core.download(context.sessions(), volume.storage_id, remote, vscode.Uri.joinPath(destination, name).fsPath, { policy, signal, onProgress: report }),
      );
      if (result) void vscode.window.showInformationMessage(resultMessage(result, 'download'));
      else {
        lastCancelled = vscode.l10n.t('Download from "{0}" cancelled. Files already downloaded are kept in {1}; the file in flight was not written.', volume.name, destination.fsPath);
        void vscode.window.showWarningMessage(lastCancelled);
      }
      if (result?.unsafeNames) warnUnsafeNames(context.services.logger, result.unsafeNames);
      return result;
    },
  },
  {
    id: Commands.nasShowConnection,
    doing: vscode.l10n.t('Show connection details'),
    create: (context) => async (argument: unknown) => {
      const volume = await resolveVolume(context, argument, (v) => v.status === 'Active');
      if (!volume) return;
      // The one place the password is shown: the user asked for it, for an outside SFTP client.
      const details = await context.sessions().connectionDetails(volume.storage_id);
      const expires = details.expireAt !== undefined ? formatDateTime(details.expireAt) : '?';
      const copy = vscode.l10n.t('Copy Password');
      const answer = await vscode.window.showInformationMessage(
        vscode.l10n.t('SFTP connection for "{0}"', volume.name),
        {
          modal: true,
          detail: [
            vscode.l10n.t('Host: {0}', details.host),
            vscode.l10n.t('Port: {0}', details.port),
            vscode.l10n.t('User: {0}', details.username),
            vscode.l10n.t('Password: {0}', details.password),
            vscode.l10n.t('Valid until: {0}', expires),
          ].join('\n'),
        },
        copy,
      );
      if (answer === copy) await vscode.env.clipboard.writeText(details.password);
    },
  },
  {
    id: Commands.nasCloseSession,
    doing: vscode.l10n.t('Close SFTP session'),
    create: (context) => async (argument: unknown) => {
      const volume = await resolveVolume(context, argument);
      if (!volume) return false;
      const close = vscode.l10n.t('Close Session');
      const answer = await vscode.window.showWarningMessage(
        vscode.l10n.t('Close the SFTP session of "{0}"?', volume.name),
        { modal: true, detail: vscode.l10n.t('Its credentials stop working at once (also in outside clients); the next file operation opens a new session.') },
        close,
      );
      if (answer !== close) return false;
      await context.sessions().destroy(volume.storage_id);
      return true;
    },
  },
];
