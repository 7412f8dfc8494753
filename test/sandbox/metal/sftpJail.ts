// A small SFTP server jailed to one folder (a sandbox machine's home): the requests a file browser and
// a folder sync use. Paths are normalised under the root; nothing can leave it.

import { constants as fsConstants, type Stats } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, rmdir, stat, unlink, utimes, type FileHandle } from 'node:fs/promises';
import { posix, sep } from 'node:path';
import { utils, type Attributes, type SFTPWrapper } from 'ssh2';

const { OPEN_MODE, STATUS_CODE } = utils.sftp;
const MAX_READ = 256 * 1024;

type Handle = { kind: 'file'; file: FileHandle } | { kind: 'dir'; path: string; done: boolean };

function attrs(stats: Stats): Attributes {
  return { mode: stats.mode, uid: stats.uid, gid: stats.gid, size: stats.size, atime: Math.floor(stats.atimeMs / 1000), mtime: Math.floor(stats.mtimeMs / 1000) };
}

export function serveJailedSftp(sftp: SFTPWrapper, root: string): void {
  const handles = new Map<number, Handle>();
  let next = 1;
  const local = (remote: string): string => root + posix.normalize(`/${remote}`).split('/').join(sep).replace(/[\\/]+$/, '');
  const handleOf = (value: Handle): Buffer => {
    const id = next++;
    handles.set(id, value);
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32BE(id);
    return buffer;
  };
  const lookup = (buffer: Buffer): Handle | undefined => (buffer.length === 4 ? handles.get(buffer.readUInt32BE(0)) : undefined);
  const run = (reqId: number, action: () => Promise<void>): void => {
    action().catch((error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') sftp.status(reqId, STATUS_CODE.NO_SUCH_FILE, 'No such file');
      else if (code === 'EACCES' || code === 'EPERM') sftp.status(reqId, STATUS_CODE.PERMISSION_DENIED, 'Permission denied');
      else sftp.status(reqId, STATUS_CODE.FAILURE, code === 'EEXIST' ? 'File exists' : code === 'ENOTEMPTY' ? 'Directory not empty' : 'Failure');
    });
  };
  const ok = (reqId: number): void => void sftp.status(reqId, STATUS_CODE.OK);

  sftp.on('REALPATH', (reqId, path) => {
    const normal = posix.normalize(`/${path}`);
    sftp.name(reqId, [{ filename: normal, longname: normal, attrs: {} as Attributes }]);
  });
  sftp.on('STAT', (reqId, path) => run(reqId, async () => void sftp.attrs(reqId, attrs(await stat(local(path))))));
  sftp.on('LSTAT', (reqId, path) => run(reqId, async () => void sftp.attrs(reqId, attrs(await lstat(local(path))))));
  sftp.on('OPEN', (reqId, filename, flags) =>
    run(reqId, async () => {
      let mode = flags & OPEN_MODE.WRITE ? (flags & OPEN_MODE.READ ? fsConstants.O_RDWR : fsConstants.O_WRONLY) : fsConstants.O_RDONLY;
      if (flags & OPEN_MODE.CREAT) mode |= fsConstants.O_CREAT;
      if (flags & OPEN_MODE.EXCL) mode |= fsConstants.O_EXCL;
      if (flags & OPEN_MODE.TRUNC) mode |= fsConstants.O_TRUNC;
      if (flags & OPEN_MODE.APPEND) mode |= fsConstants.O_APPEND;
      sftp.handle(reqId, handleOf({ kind: 'file', file: await open(local(filename), mode, 0o644) }));
    }),
  );
  sftp.on('READ', (reqId, handle, offset, length) =>
    run(reqId, async () => {
      const entry = lookup(handle);
      if (entry?.kind !== 'file') return void sftp.status(reqId, STATUS_CODE.FAILURE);
      const buffer = Buffer.alloc(Math.min(length, MAX_READ));
      const { bytesRead } = await entry.file.read(buffer, 0, buffer.length, offset);
      if (bytesRead === 0) sftp.status(reqId, STATUS_CODE.EOF);
      else sftp.data(reqId, buffer.subarray(0, bytesRead));
    }),
  );
  sftp.on('WRITE', (reqId, handle, offset, data) =>
    run(reqId, async () => {
      const entry = lookup(handle);
      if (entry?.kind !== 'file') return void sftp.status(reqId, STATUS_CODE.FAILURE);
      await entry.file.write(data, 0, data.length, offset);
      ok(reqId);
    }),
  );
  sftp.on('FSTAT', (reqId, handle) =>
    run(reqId, async () => {
      const entry = lookup(handle);
      if (entry?.kind !== 'file') return void sftp.status(reqId, STATUS_CODE.FAILURE);
      sftp.attrs(reqId, attrs(await entry.file.stat()));
    }),
  );
  sftp.on('CLOSE', (reqId, handle) =>
    run(reqId, async () => {
      const entry = lookup(handle);
      if (!entry) return void sftp.status(reqId, STATUS_CODE.FAILURE);
      handles.delete(handle.readUInt32BE(0));
      if (entry.kind === 'file') await entry.file.close();
      ok(reqId);
    }),
  );
  sftp.on('OPENDIR', (reqId, path) =>
    run(reqId, async () => {
      if (!(await stat(local(path))).isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
      sftp.handle(reqId, handleOf({ kind: 'dir', path: local(path), done: false }));
    }),
  );
  sftp.on('READDIR', (reqId, handle) =>
    run(reqId, async () => {
      const entry = lookup(handle);
      if (entry?.kind !== 'dir') return void sftp.status(reqId, STATUS_CODE.FAILURE);
      if (entry.done) return void sftp.status(reqId, STATUS_CODE.EOF);
      entry.done = true;
      const names = await readdir(entry.path);
      const list = await Promise.all(names.map(async (name) => ({ filename: name, longname: name, attrs: attrs(await lstat(`${entry.path}${sep}${name}`)) })));
      if (list.length === 0) sftp.status(reqId, STATUS_CODE.EOF);
      else sftp.name(reqId, list);
    }),
  );
  sftp.on('MKDIR', (reqId, path) => run(reqId, async () => (await mkdir(local(path)), ok(reqId))));
  sftp.on('RMDIR', (reqId, path) => run(reqId, async () => (await rmdir(local(path)), ok(reqId))));
  sftp.on('REMOVE', (reqId, path) => run(reqId, async () => (await unlink(local(path)), ok(reqId))));
  sftp.on('RENAME', (reqId, from, to) => run(reqId, async () => (await rename(local(from), local(to)), ok(reqId))));
  sftp.on('SETSTAT', (reqId, path, attributes) =>
    run(reqId, async () => {
      if (attributes.mtime !== undefined) await utimes(local(path), attributes.atime ?? attributes.mtime, attributes.mtime);
      ok(reqId);
    }),
  );
  sftp.on('FSETSTAT', (reqId) => ok(reqId));
}
