// What a compute tool runs with inside VS Code: the active profile's client, the profile as
// confirmations name it, and that profile's secrets (masked should a server echo one back).

import * as vscode from 'vscode';
import { realPathInside } from '../../core/localLinks';
import { confinedSpecFiles } from '../../core/specs/fileAccess';
import type { ToolContext } from '../../core/tools/api';
import type { SpecFormat } from '../../core/specs/types';
import type { SpecTextCheck } from '../../core/specs/workerProtocol';
import type { NasFileAccess } from '../../core/tools/nasTools';
import type { ClientSource } from '../../core/state/servicePorts';
import type { ExtensionServices, Profile } from '../services';
import { SECRET_KINDS } from '../../core/secretKinds';
import { knownProfileLabels } from '../profiles/index';

/** The sandbox spends no money: a loopback sandbox profile runs write tools without a confirmation. */
export function isLocalSandbox(profile: Profile): boolean {
  if (profile.environment !== 'sandbox') return false;
  try {
    const host = new URL(profile.computeBaseUrl).hostname;
    return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
  } catch {
    return false;
  }
}

/** What the AI area consumes from other areas, passed in by the composition root. */
export interface AiPorts {
  /** The active profile's client, read as a tool runs (client/computeServices.ts activeClientOf). */
  client: ClientSource;
  /** The NAS area's file access for the tools, given the host folders. */
  nasFiles(roots: string[]): NasFileAccess;
  /** A spec secret the user stored, by name (the spec files area's store; never an environment variable). */
  storedSpecSecret(name: string): Promise<string | undefined>;
  /** Checks a spec file's text on the spec files area's validation worker (undefined: that area is not there). */
  checkSpecText(text: string, format: SpecFormat): Promise<SpecTextCheck> | undefined;
}

export async function toolContext(services: ExtensionServices, ports: AiPorts, profile: Profile, signal?: AbortSignal): Promise<ToolContext> {
  const secrets: string[] = [];
  for (const kind of SECRET_KINDS) {
    const value = await services.profiles.getSecret(profile.id, kind);
    if (value) secrets.push(value);
  }
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);
  return {
    client: ports.client(),
    // Volume files over the NAS area's SFTP sessions; local files only inside the open folders.
    nasFiles: ports.nasFiles(folders),
    profile: { label: profile.label, id: profile.id, knownLabels: knownProfileLabels(profile.id), environment: profile.environment },
    secrets,
    // Spec files of the open folders; only the user's stored spec secrets resolve (never env variables).
    specFiles: confinedSpecFiles(
      folders,
      {
        size: async (absolutePath) => (await vscode.workspace.fs.stat(vscode.Uri.file(absolutePath))).size,
        read: async (absolutePath) => vscode.workspace.fs.readFile(vscode.Uri.file(absolutePath)),
        insideOnDisk: async (absolutePath) => (await realPathInside(folders, absolutePath)) !== undefined,
      },
      (name) => ports.storedSpecSecret(name),
      // Restricted Mode: the tools read and plan files, never apply them (ui/workspaceTrust.ts).
      services.trust.trusted,
      async (text, format) => (await ports.checkSpecText(text, format)) ?? { diagnostics: [], valid: true },
    ),
    ...(signal ? { signal } : {}),
  };
}

/** An AbortSignal that follows a VS Code cancellation token. */
export function signalOf(token: { isCancellationRequested: boolean; onCancellationRequested: (listener: () => void) => { dispose(): void } }): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  else token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}
