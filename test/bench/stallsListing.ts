// The stall benchmark's folder listing (stalls.ts): a volume folder of 100,000 entries listed the way the
// Explorer reads it (SftpConnection.list, then one [name, type] pair per entry as sftpFileSystem.ts
// answers readDirectory), against the sandbox's real SFTP server in a child process (sandboxProcess.ts).

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createComputeClient } from '../../src/core/compute/client';
import { NasSessions } from '../../src/core/nas';
import { VolumeService } from '../../src/core/nas/volumeService';
import { sandboxProcess, volumeDirectory } from './nas';

const ENTRIES = 100_000;

export async function listingStalls(measure: (name: string, run: () => Promise<unknown>) => Promise<void>): Promise<void> {
  const sandbox = await sandboxProcess();
  const client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.token }) });
  const sessions = new NasSessions(new VolumeService(() => client), { pendingPollMs: 20 });
  try {
    const { storage_id: id } = await client.call('nas.create', { name: 'stalls', nas_config_id: 101, total_size: 1024 * 1024 * 1024 });
    const dir = join(await volumeDirectory(sandbox.url, id), 'many');
    await mkdir(dir);
    for (let start = 0; start < ENTRIES; start += 500) {
      await Promise.all(Array.from({ length: Math.min(500, ENTRIES - start) }, (_, index) => writeFile(join(dir, `file-${start + index}.txt`), '')));
    }
    // The session is opened (and the volume is Active) before measuring: the listing alone is measured.
    await sessions.run(id, (connection) => connection.stat('/many'));
    await measure(`NAS: list a folder of ${ENTRIES.toLocaleString('en')} entries (Explorer path)`, () =>
      sessions.run(id, async (connection) => (await connection.list('/many')).entries.map((entry) => [entry.name, entry.type])),
    );
  } finally {
    sessions.dispose();
    sandbox.stop();
  }
}
