// The tools reach the platform through the same services as the editor (src/core/<area>/<kind>Service.ts):
// the context's client, and its wake port when the host has a store. This is the one file of the tools
// that reads `context.client` (test/unit/architecture/serviceCalls.test.ts).

import type { ComputeClient } from '../compute/api';
import { JobService } from '../jobs/jobService';
import { MachineService } from '../machines/machineService';
import { VolumeService } from '../nas/volumeService';
import { ResourceService } from '../resources/resourceService';
import type { SpecServices } from '../specs/runner';
import { specsCore } from '../specs/load';
import { StorageService } from '../storage/storageService';
import { TaskService } from '../tasks/taskService';
import type { ToolContext } from './api';

export function tasksOf(context: Pick<ToolContext, 'client' | 'wake'>): TaskService {
  return new TaskService(() => context.client, context.wake);
}

export function jobsOf(context: Pick<ToolContext, 'client' | 'wake'>): JobService {
  return new JobService(() => context.client, context.wake);
}

export function storageOf(context: Pick<ToolContext, 'client'>): StorageService {
  return new StorageService(() => context.client);
}

export function resourcesOf(context: Pick<ToolContext, 'client'>): ResourceService {
  return new ResourceService(() => context.client);
}

export function volumesOf(context: Pick<ToolContext, 'client' | 'wake'>): VolumeService {
  return new VolumeService(() => context.client, context.wake);
}

export function machinesOf(context: Pick<ToolContext, 'client' | 'wake'>): MachineService {
  return new MachineService(context.client, () => void context.wake?.());
}

/** What a spec file is checked, planned and applied through (core/specs/runner.ts). */
export function specServicesOf(context: Pick<ToolContext, 'client' | 'wake'>): SpecServices {
  return specsCore().specServicesOver(() => context.client, context.wake);
}

/** The signing checks of the diagnosis (build and self-verify a request, measure the clock): no kind's operation is sent. */
export function signingOf(context: Pick<ToolContext, 'client'>): Pick<ComputeClient, 'prepare' | 'measureClockSkew'> {
  return context.client;
}
