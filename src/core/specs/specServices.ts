// What a spec file is checked, planned and applied through (runner.ts, SpecServices): the kinds' services
// over one client source, waking the store after a change when the host passes its wake port.

import { JobService } from '../jobs/jobService';
import { ResourceService } from '../resources/resourceService';
import type { ClientSource, WakeStore } from '../state/servicePorts';
import { TaskService } from '../tasks/taskService';
import type { SpecServices } from './runner';

export function specServicesOver(client: ClientSource, wake?: WakeStore): SpecServices {
  return { tasks: new TaskService(client, wake), jobs: new JobService(client, wake), resources: new ResourceService(client) };
}
