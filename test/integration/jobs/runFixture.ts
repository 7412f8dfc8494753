// What the Run on GPU suites share: the sandbox profile connected, the workspace folder, an Active NAS
// volume and its directory on this machine, and the NAS run hooks with that volume picked and the
// outputs picker quieted.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/vscode/api';
import { extensionApi } from '../extensionApi';
import { sandboxUrl } from '../sandboxInfo';

export interface RunFixture {
  api: ExtensionApi;
  root: vscode.Uri;
  storageId: number;
  /** The volume's folder on this machine (the sandbox's SFTP root for it). */
  directory: string;
}

export async function runFixture(): Promise<RunFixture> {
  const api = await extensionApi();
  await vscode.commands.executeCommand('computeToolkit.profile.connectSandbox', sandboxUrl());
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the integration run opens a workspace folder');
  const volumes = (await api.services.computeClient().send({ method: 'GET', path: '/api/storage/nas/v1/list', query: [['page', '1'], ['page_size', '10']] })) as { results: { storage_id: number; status: string }[] };
  const volume = volumes.results.find((candidate) => candidate.status === 'Active');
  assert.ok(volume, 'the sandbox has an Active NAS volume');
  const storageId = volume.storage_id;
  const { directory } = (await (await fetch(`${sandboxUrl()}/__sandbox/nas/volume?storage_id=${storageId}`)).json()) as { directory: string };
  api.tests.replace('nasRunHooks', { pickVolume: async () => storageId, openOutputs: async () => undefined });
  return { api, root: folder.uri, storageId, directory };
}
