// What the sandbox's two SFTP servers share (a NAS volume's, nas/sftpServer.ts, and a rented machine's,
// metal/sftpJail.ts): SFTP version 3 (draft-ietf-secsh-filexfer-02) as OpenSSH's `sftp` client drives it.
// That client pipelines requests, reads a folder until STATUS EOF, refuses any message over 256 KiB,
// and ends a session by half-closing the channel (EOF) and waiting for the server to close it.

import type { Stats } from 'node:fs';
import { utils, type Attributes, type SFTPWrapper } from 'ssh2';

const { STATUS_CODE } = utils.sftp;

/** Largest READ answered at once: OpenSSH's client refuses messages over 256 KiB (its server caps here too). */
export const MAX_READ = 256 * 1024 - 1024;
/** Entries per READDIR answer, so a NAME message of a large folder stays well under 256 KiB. */
export const READDIR_BATCH = 256;

/** The STATUS an error from the file system answers. */
export function failRequest(sftp: SFTPWrapper, reqId: number, error: unknown): void {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') sftp.status(reqId, STATUS_CODE.NO_SUCH_FILE, 'No such file');
  else if (code === 'EACCES' || code === 'EPERM') sftp.status(reqId, STATUS_CODE.PERMISSION_DENIED, 'Permission denied');
  else if (code === 'ENOSPC') sftp.status(reqId, STATUS_CODE.FAILURE, 'No space left on device');
  else sftp.status(reqId, STATUS_CODE.FAILURE, code === 'EEXIST' ? 'File exists' : code === 'ENOTEMPTY' ? 'Directory not empty' : code === 'EISDIR' ? 'Is a directory' : 'Failure');
}

/**
 * Runs a request's handler, answering a thrown file-system error with its STATUS. When the client
 * half-closes the channel (OpenSSH's `sftp` on quit or at the end of a batch), the server closes it once
 * every request already received has its answer: without that close the client waits for ever.
 */
export function requestRunner(sftp: SFTPWrapper): (reqId: number, action: () => Promise<void>) => void {
  let inFlight = 0;
  let halfClosed = false;
  const closeWhenAnswered = (): void => {
    if (halfClosed && inFlight === 0) sftp.end();
  };
  sftp.on('end', () => {
    halfClosed = true;
    closeWhenAnswered();
  });
  return (reqId, action) => {
    inFlight++;
    action()
      .catch((error: unknown) => failRequest(sftp, reqId, error))
      .finally(() => {
        inFlight--;
        closeWhenAnswered();
      });
  };
}

export function toAttrs(info: Stats, owner: { uid: number; gid: number } = info): Attributes {
  return { mode: info.mode, uid: owner.uid, gid: owner.gid, size: info.size, atime: Math.floor(info.atimeMs / 1000), mtime: Math.floor(info.mtimeMs / 1000) };
}

const TYPE_LETTER: Record<number, string> = { 0o040000: 'd', 0o120000: 'l', 0o100000: '-' };

/** The `ls -l` line a version 3 client prints for an entry (OpenSSH's `ls -l` shows it as sent). */
export function longname(name: string, attrs: Attributes, owner = 'nas'): string {
  const type = TYPE_LETTER[attrs.mode & 0o170000] ?? '?';
  const permissions = Array.from('rwxrwxrwx', (letter, index) => (attrs.mode & (0o400 >> index) ? letter : '-')).join('');
  return `${type}${permissions} 1 ${owner} ${owner} ${attrs.size} ${new Date(attrs.mtime * 1000).toISOString().slice(0, 10)} ${name}`;
}
