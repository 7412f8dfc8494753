// The file access the NAS agent tools run with (core/tools/nasTools.ts): a volume's folders and small
// files over the SFTP session (core/nas/sessions.ts), and local files confined to the host's folders
// (the open workspace folders in VS Code, the working folder of the MCP server).

import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { ConfigError, coreText } from '../errors';
import { realPathInside } from '../localLinks';
import { confinedPath } from '../specs/fileAccess';
import type { NasFileAccess } from '../tools/ports';
import type { NasSessions } from './sessions';
import { upload } from './transfer';

export function nasToolAccess(sessions: () => NasSessions, roots: readonly string[]): NasFileAccess {
  return {
    list: (storageId, remotePath, signal) =>
      sessions().run(
        storageId,
        async (connection) => {
          const listing = await connection.list(remotePath);
          return { entries: listing.entries, skipped: { count: listing.skipped.count, shown: listing.skipped.names } };
        },
        signal,
      ),
    read: (storageId, remotePath, maxBytes, signal) => sessions().run(storageId, (connection) => connection.readFile(remotePath, maxBytes), signal),
    async localFile(requested) {
      const shown = requested.slice(0, 200).replace(/[\u0000-\u001f\u007f]+/g, ' ');
      if (roots.length === 0) throw new ConfigError(coreText('nas.noFolder'));
      let absolutePath: string;
      try {
        absolutePath = confinedPath(requested, roots);
      } catch {
        throw new ConfigError(coreText('nas.outsideFolder', shown), coreText('nas.outsideFolder.hint'));
      }
      const info = await stat(absolutePath).catch(() => undefined);
      if (!info) throw new ConfigError(coreText('nas.notFound', shown));
      if (!info.isFile()) throw new ConfigError(coreText('nas.notFile', shown));
      // A link inside the folder to a file outside it (a cloned repository's) is outside too.
      const real = await realPathInside(roots, absolutePath);
      if (real === undefined) throw new ConfigError(coreText('nas.outsideFolder', shown), coreText('nas.outsideFolder.hint'));
      return { absolutePath: real, size: info.size, name: path.basename(absolutePath) };
    },
    upload: (storageId, absolutePath, remotePath, overwrite, signal) => upload(sessions(), storageId, absolutePath, remotePath, { policy: overwrite ? 'overwrite' : 'skip', ...(signal ? { signal } : {}) }),
  };
}
