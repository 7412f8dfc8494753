// The command-table entry of "Jupyter on a Machine…": Shut Down stops the machine's Jupyter server of the active notebook.
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import type { CommandEntry } from '../commands/commandTable';
import type { MachineKernelController } from './machineKernel';

export const MACHINE_KERNEL_COMMANDS: readonly CommandEntry<MachineKernelController>[] = [
  {
    id: Commands.notebooksShutDownMachineKernel,
    doing: vscode.l10n.t('Shut down the Jupyter server on the machine'),
    create: (controller) => async () => {
      const notebook = vscode.window.activeNotebookEditor?.notebook;
      if (!notebook) void vscode.window.showInformationMessage(vscode.l10n.t('Open a notebook (.ipynb) first.'));
      else await controller.shutDown(notebook);
    },
  },
];
