// Several service hosts behind one task store (model servers, Jupyter servers): every host hears each
// start and stop; the first host that claims a port's URL or a service's log answers.

import type { ServiceSpec } from '../../src/core/compute/api';
import type { TaskServiceHost } from './compute/tasks';

export function combineServiceHosts(hosts: readonly TaskServiceHost[]): TaskServiceHost {
  return {
    activated: (taskId, services: readonly ServiceSpec[], runningAt) => hosts.forEach((host) => host.activated(taskId, services, runningAt)),
    deactivated: (taskId) => hosts.forEach((host) => host.deactivated(taskId)),
    publicUrl: (taskId, servicePort) => hosts.map((host) => host.publicUrl(taskId, servicePort)).find((url) => url !== undefined),
    logLines: (taskId, service, nodeReadyAt, format) => hosts.map((host) => host.logLines(taskId, service, nodeReadyAt, format)).find((lines) => lines !== undefined),
  };
}
