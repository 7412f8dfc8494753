// A small SFTP server jailed to one folder (a sandbox machine's home): the requests a file browser, a
// folder sync and OpenSSH's `sftp` use (../sftpProtocol.ts). Paths are normalised under the root; nothing
// can leave it.

import { constants as fsConstants } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, rmdir, stat, truncate, unlink, utimes, type FileHandle } from 'node:fs/promises';
import { posix, sep } from 'node:path';
import { utils, type Attributes, type FileEntry, type SFTPWrapper } from 'ssh2';
import { MAX_READ, READDIR_BATCH, longname, requestRunner, toAttrs as attrs } from '../sftpProtocol';

const { OPEN_MODE, STATUS_CODE } = utils.sftp;

type Handle = { kind: 'file'; file: FileHandle } | { kind: 'dir'; path: string; entries?: string[]; next: number };

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
  const run = requestRunner(sftp);
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
      sftp.handle(reqId, handleOf({ kind: 'dir', path: local(path), next: 0 }));
    }),
  );
  sftp.on('READDIR', (reqId, handle) =>
    run(reqId, async () => {
      const entry = lookup(handle);
      if (entry?.kind !== 'dir') return void sftp.status(reqId, STATUS_CODE.FAILURE);
      entry.entries ??= await readdir(entry.path);
      // In batches, then STATUS EOF: one NAME message of a large folder would pass OpenSSH's 256 KiB limit.
      if (entry.next >= entry.entries.length) return void sftp.status(reqId, STATUS_CODE.EOF);
      const batch = entry.entries.slice(entry.next, entry.next + READDIR_BATCH);
      entry.next += batch.length;
      const list: FileEntry[] = [];
      for (const name of batch) {
        const info = await lstat(`${entry.path}${sep}${name}`).catch(() => undefined); // removed meanwhile
        if (info) list.push({ filename: name, longname: longname(name, attrs(info), 'user'), attrs: attrs(info) });
      }
      sftp.name(reqId, list);
    }),
  );
  sftp.on('MKDIR', (reqId, path) => run(reqId, async () => (await mkdir(local(path)), ok(reqId))));
  sftp.on('RMDIR', (reqId, path) => run(reqId, async () => (await rmdir(local(path)), ok(reqId))));
  sftp.on('REMOVE', (reqId, path) => run(reqId, async () => (await unlink(local(path)), ok(reqId))));
  sftp.on('RENAME', (reqId, from, to) =>
    run(reqId, async () => {
      // Version 3 never replaces an existing target (as OpenSSH's server).
      if (await lstat(local(to)).then(() => true, () => false)) throw Object.assign(new Error('exists'), { code: 'EEXIST' });
      await rename(local(from), local(to));
      ok(reqId);
    }),
  );
  const setAttrs = async (path: string, attributes: Attributes): Promise<void> => {
    if (attributes.size !== undefined) await truncate(path, attributes.size);
    if (attributes.mtime !== undefined) await utimes(path, attributes.atime ?? attributes.mtime, attributes.mtime);
  };
  sftp.on('SETSTAT', (reqId, path, attributes) => run(reqId, async () => (await setAttrs(local(path), attributes), ok(reqId))));
  sftp.on('FSETSTAT', (reqId, handle, attributes) =>
    run(reqId, async () => {
      const entry = lookup(handle);
      if (!entry) return void sftp.status(reqId, STATUS_CODE.FAILURE);
      if (entry.kind === 'dir') return ok(reqId);
      if (attributes.size !== undefined) await entry.file.truncate(attributes.size);
      if (attributes.mtime !== undefined) await entry.file.utimes(attributes.atime ?? attributes.mtime, attributes.mtime);
      ok(reqId);
    }),
  );
  sftp.on('close', () => {
    for (const entry of handles.values()) if (entry.kind === 'file') void entry.file.close().catch(() => undefined);
    handles.clear();
  });
}
