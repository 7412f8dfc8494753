// The kinds' services (src/core/<area>/<kind>Service.ts) over the active profile's client, read per call,
// or over one profile's client. The editor reaches the platform only through them (CONTRIBUTING.md); the
// caller hands in the store's wake port where the service changes something.

import { JobService } from '../../core/jobs/jobService';
import { runServices, type RunServices } from '../../core/jobs/runOnGpu';
import { machinesCore } from '../../core/lazyModules';
import type { MachineService } from '../../core/machines/machineService';
import { ResourceService } from '../../core/resources/resourceService';
import { BillingService } from '../../core/spend/billingService';
import type { ClientSource, WakeStore } from '../../core/state/servicePorts';
import { TransferService } from '../../core/nas/transferService';
import { VolumeService } from '../../core/nas/volumeService';
import type { SpecServices } from '../../core/specs/runner';
import { specsCore } from '../../core/specs/load';
import { StorageService } from '../../core/storage/storageService';
import { TaskService } from '../../core/tasks/taskService';
import type { ExtensionServices, Profile } from '../services';

type Clients = Pick<ExtensionServices, 'computeClient' | 'computeClientFor'>;
type ClientsAndLog = Pick<ExtensionServices, 'computeClient' | 'logger'>;

/**
 * The active profile's client, read per call (a profile switch or a settings change takes effect at once): the
 * services below are built on it, and so is what core builds on a client itself (the agent tools' context, the
 * spec runner's context); the composition root hands it to those areas.
 */
export function activeClientOf(services: Pick<ExtensionServices, 'computeClient'>): ClientSource {
  return () => services.computeClient();
}

export function taskServiceOf(services: Clients, wake?: WakeStore): TaskService {
  return new TaskService(activeClientOf(services), wake);
}

/** A profile's tasks (a watched profile that is not the active one). */
export function taskServiceFor(services: Clients, profile: Profile, wake?: WakeStore): TaskService {
  return new TaskService(() => services.computeClientFor(profile), wake);
}

/** The active profile's tasks over the client it has now: a log follower stays with the profile it started on. */
export function taskServiceNow(services: Clients): TaskService {
  const client = services.computeClient();
  return new TaskService(() => client);
}

export function jobServiceOf(services: Clients, wake?: WakeStore): JobService {
  return new JobService(activeClientOf(services), wake);
}

/** The active profile's jobs over the client it has now: a job terminal stays with the profile it started on. */
export function jobServiceNow(services: Clients): JobService {
  const client = services.computeClient();
  return new JobService(() => client);
}

/** What one Run on GPU reads and creates, over the client the active profile has now (the run stays with it). */
export function runServicesNow(services: Pick<ExtensionServices, 'computeClient'>): RunServices {
  const client = services.computeClient();
  return runServices(() => client);
}

/** What one spec check, plan or deploy reads and sends through, over the client the source gives now; nothing woken (the spec commands refresh their view). */
export function specServicesNow(client: ClientSource): SpecServices {
  const now = client();
  return specsCore().specServicesOver(() => now);
}

export function resourceServiceOf(services: Clients): ResourceService {
  return new ResourceService(activeClientOf(services));
}

export function billingServiceOf(services: Clients): BillingService {
  return new BillingService(activeClientOf(services));
}

export function billingServiceFor(services: Clients, profile: Profile): BillingService {
  return new BillingService(() => services.computeClientFor(profile));
}

export function storageServiceOf(services: Clients): StorageService {
  return new StorageService(activeClientOf(services));
}

export function volumeServiceOf(services: Clients, wake?: WakeStore): VolumeService {
  return new VolumeService(activeClientOf(services), wake);
}

export function transferServiceOf(services: Clients, wake?: WakeStore): TransferService {
  return new TransferService(activeClientOf(services), wake);
}

/** The active profile's rented machines, loaded on first use: the service's connect path carries the SSH library (not at activation). */
export function machineServiceOf(services: ClientsAndLog, wake?: WakeStore): MachineService {
  const { MachineService: Service } = machinesCore();
  return new Service(services.computeClient(), wake, services.logger);
}

/** A profile's rented machines (a machine terminal stays with the profile it was opened under). */
export function machineServiceFor(services: Pick<ExtensionServices, 'computeClientFor' | 'logger'>, profile: Profile, wake?: WakeStore): MachineService {
  const { MachineService: Service } = machinesCore();
  return new Service(services.computeClientFor(profile), wake, services.logger);
}
