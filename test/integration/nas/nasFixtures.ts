// What the in-host NAS suites share: the sandbox's control routes, a fresh Active volume, and files whose
// content shows a truncated or shifted copy.

import * as assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { NasVolume } from '../../../src/core/nas/operations';
import type { NasApi } from '../../../src/vscode/nas/index';
import { computeWithSandbox, extensionApi } from '../compute/computeTestApi';
import { sandboxUrl } from '../sandboxInfo';
import { PATIENCE_MS } from '../../helpers/eventually';

export const GIB = 1024 ** 3;
export const MIB = 1024 * 1024;

export async function sandboxPost(path: string, body: unknown): Promise<void> {
  const response = await fetch(`${sandboxUrl()}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.ok(response.status < 300, `${path} answered ${response.status}`);
}

/** A file of `bytes` whose content is not all one value (so a truncated or shifted copy shows). */
export async function patternFile(path: string, bytes: number): Promise<Buffer> {
  const data = Buffer.alloc(bytes);
  for (let i = 0; i + 4 <= data.length; i += 4) data.writeUInt32LE((i * 2654435761) >>> 0, i);
  await writeFile(path, data);
  return data;
}

/** Where the sandbox keeps a volume's files on this machine. */
export async function volumeDirectory(storageId: number): Promise<string> {
  const response = await fetch(`${sandboxUrl()}/__sandbox/nas/volume?storage_id=${storageId}`);
  assert.equal(response.status, 200);
  return ((await response.json()) as { directory: string }).directory;
}

export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (const deadline = Date.now() + PATIENCE_MS; Date.now() < deadline;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Creates a 1 GiB volume on the sandbox and waits until the store holds it Active; its root as a computenas URI. */
export async function activeVolume(name: string): Promise<{ nas: NasApi; volume: NasVolume; root: vscode.Uri }> {
  await computeWithSandbox();
  const api = await extensionApi();
  const nas = api.nas;
  const created = await api.services.computeClient().call('nas.create', { name, nas_config_id: 101, total_size: GIB });
  const volume = (await waitFor(
    async () => {
      nas.stores.wake();
      return (await nas.stores.volumes()).find((v) => v.storage_id === created.storage_id);
    },
    (v) => v?.status === 'Active',
    `the volume "${name}" to be Active`,
  )) as NasVolume;
  return { nas, volume, root: vscode.Uri.from({ scheme: 'computenas', authority: String(volume.storage_id), path: '/' }) };
}
