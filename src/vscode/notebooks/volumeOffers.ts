// Files where the kernel is (docs/notebooks.md): the notebook's task mounts a NAS volume as its working
// folder; *Open Volume in Explorer* shows it (the NAS area's command), and a cell that failed reading a
// relative file that is not there gets an *Upload to Volume…* offer (the NAS area's upload, the local file
// next to the notebook preselected when it exists).

import * as vscode from 'vscode';
import { missingRelativeFile } from '../../core/notebooks/missingFile';
import type { CellOutputsView } from '../../core/notebooks/cellOutputs';
import type { TaskSummary } from '../../core/tasks/operations';
import { Commands } from '../commandIds';

/** The volume mounted by the task (its first NAS mount), if any. */
export function volumeOfTask(task: TaskSummary): number | undefined {
  for (const service of task.services) {
    const mount = service.nas_storage_config?.[0];
    if (mount && Number.isSafeInteger(mount.storage_id) && mount.storage_id > 0) return mount.storage_id;
  }
  return undefined;
}

export interface MissingFileOffer {
  notebook: vscode.Uri;
  /** The relative path the cell wanted (`data/train.csv`). */
  file: string;
  storageId: number;
  /** The local file of that name next to the notebook, when there is one. */
  local: vscode.Uri | undefined;
}

/** The offer for a failed cell's outputs, or undefined (no FileNotFoundError of a relative path, no volume). */
export async function missingFileOffer(notebook: vscode.NotebookDocument, view: CellOutputsView, storageId: number | undefined): Promise<MissingFileOffer | undefined> {
  if (storageId === undefined) return undefined;
  const error = [...view.outputs].reverse().find((output) => output.kind === 'error');
  const file = error?.kind === 'error' ? missingRelativeFile(error.ename, error.evalue) : undefined;
  if (file === undefined) return undefined;
  let local: vscode.Uri | undefined;
  if (notebook.uri.scheme === 'file') {
    const candidate = vscode.Uri.joinPath(notebook.uri, '..', ...file.split('/'));
    local = await vscode.workspace.fs.stat(candidate).then(
      (stat) => (stat.type === vscode.FileType.File ? candidate : undefined),
      () => undefined,
    );
  }
  return { notebook: notebook.uri, file, storageId, local };
}

/** Shows the offer (not awaited by the cell); Upload runs the NAS area's upload into the file's folder. */
export async function showMissingFileOffer(offer: MissingFileOffer): Promise<void> {
  const upload = vscode.l10n.t('Upload to Volume…');
  const open = vscode.l10n.t('Open Volume in Explorer');
  const picked = await vscode.window.showWarningMessage(vscode.l10n.t('"{0}" is not in the kernel\'s working folder (NAS volume {1}). Upload it from this machine?', offer.file, offer.storageId), upload, open);
  const folder = `/${offer.file.split('/').slice(0, -1).join('/')}`;
  if (picked === upload) await vscode.commands.executeCommand(Commands.nasUpload, offer.storageId, { ...(offer.local ? { sources: [offer.local] } : {}), target: folder });
  if (picked === open) await vscode.commands.executeCommand(Commands.nasOpenInExplorer, offer.storageId);
}
