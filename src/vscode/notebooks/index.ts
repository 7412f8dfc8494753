// The notebooks area (docs/notebooks.md): the Compute Toolkit kernel for VS Code's .ipynb editor, on a
// running Jupyter task. Wired from the composition root; returns what the in-host tests use.

import type * as vscode from 'vscode';
import { registerCommandTable } from '../commands/commandTable';
import type { ExtensionServices } from '../services';
import { NOTEBOOK_COMMANDS } from './commands';
import { ComputeKernelController, type NotebookTasks } from './kernelController';
import type { NewKernelHooks } from './newGpuKernel';

export interface NotebooksApi {
  readonly controller: ComputeKernelController;
}

/** `volumes`: the NAS area's Run on GPU hooks (a volume of the GPU's region for New GPU Kernel). */
export function registerNotebooks(services: ExtensionServices, tasks: NotebookTasks, volumes: NewKernelHooks): { api: NotebooksApi; disposables: vscode.Disposable[] } {
  const controller = new ComputeKernelController(services, tasks, volumes);
  return { api: { controller }, disposables: [controller, ...registerCommandTable(NOTEBOOK_COMMANDS, controller, services.reportError)] };
}
