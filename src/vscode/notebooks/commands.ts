// The notebooks area's command-table entries: pick the Jupyter task of the active notebook, restart its kernel.
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { CommandEntry } from '../commands/commandTable';
import type { ComputeKernelController } from './kernelController';

function activeNotebook(): vscode.NotebookDocument | undefined {
  const notebook = vscode.window.activeNotebookEditor?.notebook;
  if (!notebook) void vscode.window.showInformationMessage(vscode.l10n.t('Open a notebook (.ipynb) first.'));
  return notebook;
}

export const NOTEBOOK_COMMANDS: readonly CommandEntry<ComputeKernelController>[] = [
  {
    id: Commands.notebooksPickTask,
    doing: vscode.l10n.t('Pick the Jupyter task of a notebook'),
    create: (controller) => async () => {
      const notebook = activeNotebook();
      if (notebook) await controller.bind(notebook);
    },
  },
  {
    id: Commands.notebooksRestartKernel,
    doing: vscode.l10n.t('Restart the notebook kernel'),
    create: (controller) => async () => {
      const notebook = activeNotebook();
      if (notebook) await controller.restart(notebook);
    },
  },
  {
    id: Commands.notebooksNewGpuKernel,
    doing: vscode.l10n.t('Start a new GPU kernel'),
    create: (controller) => async () => {
      const notebook = activeNotebook();
      if (notebook) await controller.newKernel(notebook);
    },
  },
  {
    id: Commands.notebooksOpenVolume,
    doing: vscode.l10n.t('Open the volume of the notebook kernel'),
    create: (controller) => async () => {
      const notebook = activeNotebook();
      if (notebook) await controller.openVolume(notebook);
    },
  },
];
