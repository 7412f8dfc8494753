// Where a run starts (Run on GPU, Run on a machine, Run on Machine Group): a local workspace folder, the
// sub-folder or file it was started on.

import * as path from 'node:path';
import * as vscode from 'vscode';

export interface RunTarget {
  /** Workspace folder root: run.json lives here. */
  root: vscode.Uri;
  /** Folder synced (root or a sub-folder). */
  folder: vscode.Uri;
  /** The file to run, when a file was chosen. */
  file?: vscode.Uri;
}

/** Workspace folders on this machine: a run syncs a local folder (a volume's folder in the Explorer is not one). */
export function localFolders(): readonly vscode.WorkspaceFolder[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
}

/** The folder and file Run on GPU… was started on: the chosen one, else the active editor's local file. */
export function resolveTarget(uri: vscode.Uri | undefined): RunTarget | undefined {
  const editor = vscode.window.activeTextEditor?.document.uri;
  const chosen = uri ?? (editor?.scheme === 'file' ? editor : undefined);
  if (chosen && chosen.scheme !== 'file') return undefined;
  const folder = chosen ? vscode.workspace.getWorkspaceFolder(chosen) : localFolders()[0];
  if (!folder) return undefined;
  if (!chosen || chosen.toString() === folder.uri.toString()) return { root: folder.uri, folder: folder.uri };
  const isFile = path.extname(chosen.fsPath) !== '';
  return isFile ? { root: folder.uri, folder: folder.uri, file: chosen } : { root: folder.uri, folder: chosen };
}
