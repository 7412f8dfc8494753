// The file access the NAS agent tools run with (core/tools/nasTools.ts): a volume's folders and small
// files over the SFTP session (core/nas/sessions.ts), and local files confined to the host's folders
// (the open workspace folders in VS Code, the working folder of the MCP server).

import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { confinedPath } from '../specs/fileAccess';
import type { NasFileAccess } from '../tools/nasTools';
import type { NasSessions } from './sessions';
import { upload } from './transfer';

export function nasToolAccess(sessions: () => NasSessions, roots: readonly string[]): NasFileAccess {
  return {
    list: (storageId, remotePath, signal) => sessions().run(storageId, (connection) => connection.readdir(remotePath), signal),
    read: (storageId, remotePath, maxBytes, signal) => sessions().run(storageId, (connection) => connection.readFile(remotePath, maxBytes), signal),
    async localFile(requested) {
      const absolutePath = confinedPath(requested, roots);
      const info = await stat(absolutePath);
      if (!info.isFile()) throw new Error(`${requested} is not a file.`);
      return { absolutePath, size: info.size, name: path.basename(absolutePath) };
    },
    upload: (storageId, absolutePath, remotePath, overwrite, signal) => upload(sessions(), storageId, absolutePath, remotePath, { policy: overwrite ? 'overwrite' : 'skip', ...(signal ? { signal } : {}) }),
  };
}
