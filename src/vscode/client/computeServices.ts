// The kinds' services (src/core/<area>/<kind>Service.ts) over the active profile's client, read per call,
// or over one profile's client. The editor reaches the platform only through them (CONTRIBUTING.md); the
// caller hands in the store's wake port where the service changes something.

import { JobService } from '../../core/jobs/jobService';
import { ImagePreheatService } from '../../core/preheat/preheatService';
import { ResourceService } from '../../core/resources/resourceService';
import { BillingService } from '../../core/spend/billingService';
import type { WakeStore } from '../../core/state/servicePorts';
import { StorageService } from '../../core/storage/storageService';
import { TaskService } from '../../core/tasks/taskService';
import type { ExtensionServices, Profile } from '../services';

type Clients = Pick<ExtensionServices, 'computeClient' | 'computeClientFor'>;

export function taskServiceOf(services: Clients, wake?: WakeStore): TaskService {
  return new TaskService(() => services.computeClient(), wake);
}

/** A profile's tasks (a watched profile that is not the active one). */
export function taskServiceFor(services: Clients, profile: Profile, wake?: WakeStore): TaskService {
  return new TaskService(() => services.computeClientFor(profile), wake);
}

export function jobServiceOf(services: Clients, wake?: WakeStore): JobService {
  return new JobService(() => services.computeClient(), wake);
}

export function resourceServiceOf(services: Clients): ResourceService {
  return new ResourceService(() => services.computeClient());
}

export function billingServiceOf(services: Clients): BillingService {
  return new BillingService(() => services.computeClient());
}

export function billingServiceFor(services: Clients, profile: Profile): BillingService {
  return new BillingService(() => services.computeClientFor(profile));
}

export function storageServiceOf(services: Clients): StorageService {
  return new StorageService(() => services.computeClient());
}

export function preheatServiceOf(services: Clients, wake?: WakeStore): ImagePreheatService {
  return new ImagePreheatService(() => services.computeClient(), wake);
}
