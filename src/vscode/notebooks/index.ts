// The notebooks area (docs/notebooks.md): the Compute Toolkit kernel for VS Code's .ipynb editor, on a
// running Jupyter task, and the opt-in idle pause of kernel tasks. Wired from the composition root;
// returns what the in-host tests use.

import type * as vscode from 'vscode';
import type { ActivityRegistry } from '../../core/spend/activity';
import { registerCommandTable } from '../commands/commandTable';
import type { ExtensionServices } from '../services';
import { NOTEBOOK_COMMANDS } from './commands';
import { ComputeKernelController, type NotebookTasks } from './kernelController';
import { KernelIdlePause } from './kernelIdlePause';
import type { NewKernelHooks } from './newGpuKernel';
import type { NotificationCenter } from '../ui/notificationCenter';
import type { StartTookPort } from '../../core/preheat/preheatFollow';
import { MACHINE_KERNEL_COMMANDS } from './machineKernelCommands';
import { MachineKernelController, type MachineKernelPort } from './machineKernel';
import { NotebookKernels } from './kernelStatus';

export interface NotebooksApi {
  readonly controller: ComputeKernelController;
  readonly idlePause: KernelIdlePause;
  /** "Jupyter on a Machine…": kernels on rented machines over SSH. */
  readonly machineKernels: MachineKernelController;
  /** The kernels' one status-bar item, Restart and interrupt, task and machine alike. */
  readonly kernels: NotebookKernels;
}

/** `volumes`: the NAS area's Run on GPU hooks (a volume of the GPU's region for New GPU Kernel); `own`: the registry's list for this area (areaRegistry.ts). */
export function registerNotebooks(services: ExtensionServices, tasks: NotebookTasks & { activity: Pick<ActivityRegistry, 'add' | 'of'> }, volumes: NewKernelHooks, center: NotificationCenter, startTook: StartTookPort, machines: () => MachineKernelPort | undefined = () => undefined, own: vscode.Disposable[] = []): { api: NotebooksApi; disposables: vscode.Disposable[] } {
  const kernels = new NotebookKernels();
  own.push(kernels);
  const controller = new ComputeKernelController(services, tasks, volumes, kernels, startTook);
  own.push(controller);
  const idlePause = new KernelIdlePause(services, controller, tasks.activity, center);
  own.push(idlePause);
  const machineKernels = new MachineKernelController(services, machines, tasks.activity, kernels);
  own.push(machineKernels);
  own.push(...registerCommandTable(NOTEBOOK_COMMANDS, controller, services.reportError));
  own.push(...registerCommandTable(MACHINE_KERNEL_COMMANDS, machineKernels, services.reportError));
  return { api: { controller, idlePause, machineKernels, kernels }, disposables: own };
}
