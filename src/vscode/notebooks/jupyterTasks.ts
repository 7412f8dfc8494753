// Which tasks can serve a notebook: a running task with a Jupyter port (the create wizard's Jupyter template:
// a Jupyter image, port 8888). Their tokens: ../jupyterTokens.ts.

import { isJupyterImage } from '../../core/notebooks/jupyterLaunch';
import type { TaskSummary } from '../../core/tasks/operations';

export const JUPYTER_PORT = 8888;

export function isJupyterTask(task: TaskSummary): boolean {
  return task.services.some((service) => isJupyterImage(service.service_image) || service.remote_ports.some((port) => port.service_port === JUPYTER_PORT));
}

/** The public URL of the task's Jupyter port, from its detail (null while it has none). */
export function jupyterUrlOf(task: TaskSummary): string | null {
  for (const service of task.services) {
    const port = service.remote_ports.find((candidate) => candidate.service_port === JUPYTER_PORT) ?? (isJupyterImage(service.service_image) ? service.remote_ports[0] : undefined);
    const url = (port as { url?: unknown } | undefined)?.url;
    if (typeof url === 'string' && url !== '') return url;
  }
  return null;
}
