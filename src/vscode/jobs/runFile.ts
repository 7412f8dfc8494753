// Reading and writing `.compute/run.json` in a workspace folder (core/jobs/runConfig.ts checks it: it is
// workspace content). Either target: a batch job or a rented machine (docs/machines.md "Run on a machine").

import * as vscode from 'vscode';
import { parseRunFile, RUN_CONFIG_PATH, runFileText, type MachineRunConfig, type RunConfig, type RunFile } from '../../core/jobs/runConfig';

/** The folder's run.json, or undefined when there is none; a file that is there but wrong throws why. */
export async function readRunFile(root: vscode.Uri): Promise<RunFile | undefined> {
  try {
    const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(root, RUN_CONFIG_PATH));
    return parseRunFile(new TextDecoder().decode(bytes));
  } catch (error) {
    if (error instanceof vscode.FileSystemError) return undefined;
    throw error;
  }
}

/** Writes the run's settings; the other target's, from the file there now, are kept beside them. */
export async function writeRunFile(root: vscode.Uri, config: RunConfig | MachineRunConfig): Promise<void> {
  // A file that no longer reads keeps nothing: it is replaced, as before.
  const existing = await readRunFile(root).catch(() => undefined);
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(root, '.compute'));
  await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, RUN_CONFIG_PATH), new TextEncoder().encode(runFileText(config, existing)));
}
