// Which tasks can serve a notebook: a running task with a Jupyter port (the create wizard's Jupyter template:
// a Jupyter image, port 8888), and the Jupyter server's token, kept in SecretStorage per profile and task —
// never in a setting, a file or the log.

import type * as vscode from 'vscode';
import type { TaskSummary } from '../../core/tasks/operations';
import { SecretKeys } from '../commandIds';

export const JUPYTER_PORT = 8888;

export function isJupyterTask(task: TaskSummary): boolean {
  return task.services.some((service) => /(^|\/)jupyter\//.test(service.service_image.trim()) || service.remote_ports.some((port) => port.service_port === JUPYTER_PORT));
}

/** The public URL of the task's Jupyter port, from its detail (null while it has none). */
export function jupyterUrlOf(task: TaskSummary): string | null {
  for (const service of task.services) {
    const port = service.remote_ports.find((candidate) => candidate.service_port === JUPYTER_PORT) ?? (/(^|\/)jupyter\//.test(service.service_image.trim()) ? service.remote_ports[0] : undefined);
    const url = (port as { url?: unknown } | undefined)?.url;
    if (typeof url === 'string' && url !== '') return url;
  }
  return null;
}

function tokenKey(profileId: string, taskId: number): string {
  return `${SecretKeys.jupyterTokenPrefix}.${profileId}.${taskId}`;
}

export class JupyterTokens {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  get(profileId: string, taskId: number): Thenable<string | undefined> {
    return this.secrets.get(tokenKey(profileId, taskId));
  }

  set(profileId: string, taskId: number, token: string): Thenable<void> {
    return this.secrets.store(tokenKey(profileId, taskId), token);
  }

  delete(profileId: string, taskId: number): Thenable<void> {
    return this.secrets.delete(tokenKey(profileId, taskId));
  }
}
