// Bytes stored in a volume's directory: counted once by a bounded walk, then kept up to date by the
// SFTP server as files grow, shrink or go. The summary and the list report it as `used_size`.

import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Walks `root` (no symlink following) and sums file sizes. Linear in the number of entries. */
export async function directoryBytes(root: string): Promise<number> {
  let total = 0;
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) pending.push(path);
      // A file removed between the listing and its lstat (a delete, the sandbox closing) counts as gone.
      else if (entry.isFile()) total += (await lstat(path).catch(() => undefined))?.size ?? 0;
    }
  }
  return total;
}
