// The Jupyter server tokens of tasks, in SecretStorage per profile and task — never in a setting, a file,
// the log or a notebook. A task created with a Jupyter image gets a token the extension generates
// (core/notebooks/jupyterLaunch.ts), so the user never types it; a task created elsewhere is asked for once.
// A root file so that both the create paths (tasks) and the notebook kernel (notebooks) use it.

import type * as vscode from 'vscode';
import { isJupyterImage, withJupyterToken } from '../core/notebooks/jupyterLaunch';
import { SecretKeys } from './commandIds';

function tokenKey(profileId: string, taskId: number): string {
  return `${SecretKeys.jupyterTokenPrefix}.${profileId}.${taskId}`;
}

export interface JupyterCreate {
  /** The env to create the task with (JUPYTER_TOKEN added). */
  env: Record<string, string>;
  /** Keeps the token once the platform gave the task its id. */
  keep(profileId: string, taskId: number): Thenable<void>;
}

export class JupyterTokens {
  constructor(private readonly secrets: Pick<vscode.SecretStorage, 'get' | 'store' | 'delete'>) {}

  get(profileId: string, taskId: number): Thenable<string | undefined> {
    return this.secrets.get(tokenKey(profileId, taskId));
  }

  set(profileId: string, taskId: number, token: string): Thenable<void> {
    return this.secrets.store(tokenKey(profileId, taskId), token);
  }

  delete(profileId: string, taskId: number): Thenable<void> {
    return this.secrets.delete(tokenKey(profileId, taskId));
  }

  /** For a create with a Jupyter image: its env with the server token; undefined for any other image. */
  forCreate(image: string, env: Readonly<Record<string, string>>): JupyterCreate | undefined {
    if (!isJupyterImage(image)) return undefined;
    const tokened = withJupyterToken(env);
    return { env: tokened.env, keep: (profileId, taskId) => this.set(profileId, taskId, tokened.token) };
  }
}
