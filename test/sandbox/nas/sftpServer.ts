// A real SFTP server on 127.0.0.1 (ssh2's Server with its SFTP subsystem), started on the first
// obtain. Each login is a session's username/password (sessions.ts); the session's volume directory is
// its root "/", and no path can leave it. The volume's size is a real quota (a full volume answers
// writes with FAILURE "No space left on device", as an ENOSPC would). Faults (faults below) expire a
// session, drop a connection, or fill the volume after a number of uploaded bytes; a throttle makes uploads
// as slow as a real link (progress and cancellation tests). Symbolic links are real links inside the
// volume's directory (a target that would leave the volume is jailed to it, as a chrooted server reads
// it). `hostile` lays a lying server's listings over the real files (hostileListing.ts).

import { generateKeyPairSync } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { lstat, mkdir, open, opendir, readdir, readlink, rename, rmdir, stat, symlink, truncate, unlink, utimes, type FileHandle } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { dirname, posix, relative, sep } from 'node:path';
import { Server, utils, type Attributes, type Connection, type FileEntry, type SFTPWrapper } from 'ssh2';
import { MAX_READ, READDIR_BATCH, longname, requestRunner, toAttrs } from '../sftpProtocol';
import { HostileListings, type HostileEntry } from './hostileListing';
import type { SessionStore, SftpSession } from './sessions';
import type { VolumeStore } from './volumes';

const { OPEN_MODE, STATUS_CODE } = utils.sftp;
const OWNER = { uid: 1000, gid: 1000 };

export type SftpFaultKind = 'expire' | 'drop' | 'full';

export interface SftpFault {
  kind: SftpFaultKind;
  /** Volume it applies to (any when absent). */
  storageId?: number;
  /** Uploaded bytes (within one connection) after which it fires. */
  afterBytes: number;
}

interface OpenFile {
  kind: 'file';
  handle: FileHandle;
  path: string;
  size: number;
}
interface OpenDir {
  kind: 'dir';
  path: string;
  /** The folder as the client named it (for the hostile overlay). */
  remote: string;
  entries?: string[];
  next: number;
  /** A folder only the hostile overlay has. */
  virtual?: 'chain' | 'listing';
  /** The overlay's extra entries were sent. */
  extrasSent?: boolean;
}

const DIRECTORY_ATTRS: Attributes = { mode: 0o040755, uid: 1000, gid: 1000, size: 4096, atime: 0, mtime: 0 };

export class SandboxSftpServer {
  private server: Server | undefined;
  private address: string | undefined;
  private readonly connections = new Map<SftpSession, Set<Connection>>();
  readonly faults: SftpFault[] = [];
  /** Logins refused (expired or wrong credentials): tests check renewal happened. */
  refusedLogins = 0;
  /** Upload speed per connection, as a slow link would allow (0: as fast as loopback goes). */
  writeBytesPerSecond = 0;
  /** A lying server's listings over the real files (names no file system holds, folders that never end). */
  readonly hostile = new HostileListings();

  constructor(
    private readonly sessions: SessionStore,
    private readonly volumes: VolumeStore,
  ) {
    sessions.closer = (session) => {
      for (const connection of this.connections.get(session) ?? []) connection.end();
      this.connections.delete(session);
    };
  }

  /** host:port, starting the server on first use. */
  async start(): Promise<string> {
    if (this.address) return this.address;
    // An RSA host key generated at run time (PKCS#1 PEM is what ssh2's key parser reads).
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    const server = new Server({ hostKeys: [privateKey] }, (connection) => this.accept(connection));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.address;
  }

  async close(): Promise<void> {
    for (const set of this.connections.values()) for (const connection of set) connection.end();
    this.connections.clear();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(connection: Connection): void {
    let session: SftpSession | undefined;
    connection.on('error', () => undefined);
    connection.on('authentication', (context) => {
      if (context.method !== 'password') return context.reject(['password']);
      session = this.sessions.authenticate(context.username, context.password);
      if (!session) {
        this.refusedLogins++;
        return context.reject(['password']);
      }
      return context.accept();
    });
    connection.on('ready', () => {
      if (!session) {
        connection.end();
        return;
      }
      const owner = session;
      const set = this.connections.get(owner) ?? new Set<Connection>();
      set.add(connection);
      this.connections.set(owner, set);
      connection.on('close', () => set.delete(connection));
      connection.on('session', (acceptSession) => {
        const sshSession = acceptSession();
        sshSession.on('sftp', (acceptSftp) => this.serve(acceptSftp(), owner, connection));
      });
    });
  }

  private serve(sftp: SFTPWrapper, session: SftpSession, connection: Connection): void {
    const root = this.volumes.get(session.storageId)?.directory;
    if (!root) {
      connection.end();
      return;
    }
    const handles = new Map<number, OpenFile | OpenDir>();
    let nextHandle = 1;
    let uploaded = 0;
    /** When this connection's link is free again (the write throttle). */
    let linkFreeAt = 0;
    let gone = false;
    connection.on('close', () => (gone = true));
    const storageId = session.storageId;
    const toLocal = (remote: string): string => {
      const normal = posix.normalize(`/${this.hostile.backing(storageId, remote) ?? remote}`);
      return root + normal.split('/').join(sep).replace(/[\\/]+$/, '');
    };
    const newHandle = (value: OpenFile | OpenDir): Buffer => {
      const id = nextHandle++;
      handles.set(id, value);
      const buffer = Buffer.alloc(4);
      buffer.writeUInt32BE(id);
      return buffer;
    };
    const lookup = (buffer: Buffer): OpenFile | OpenDir | undefined => (buffer.length === 4 ? handles.get(buffer.readUInt32BE(0)) : undefined);
    const run = requestRunner(sftp);
    const quotaLeft = (): number => {
      const volume = this.volumes.get(session.storageId);
      if (!volume) return 0;
      return volume.totalSize - (volume.usedBytes ?? 0);
    };

    sftp.on('REALPATH', (reqId, path) => {
      const normal = posix.normalize(`/${path}`);
      sftp.name(reqId, [{ filename: normal, longname: normal, attrs: {} as Attributes }]);
    });
    const virtualFolder = (path: string): OpenDir['virtual'] => this.hostile.virtualFolder(storageId, path);
    sftp.on('STAT', (reqId, path) => run(reqId, async () => sftp.attrs(reqId, virtualFolder(path) ? DIRECTORY_ATTRS : toAttrs(await stat(toLocal(path)), OWNER))));
    sftp.on('LSTAT', (reqId, path) => run(reqId, async () => sftp.attrs(reqId, virtualFolder(path) ? DIRECTORY_ATTRS : toAttrs(await lstat(toLocal(path)), OWNER))));
    sftp.on('OPEN', (reqId, filename, flags) =>
      run(reqId, async () => {
        const local = toLocal(filename);
        let mode = flags & OPEN_MODE.WRITE ? (flags & OPEN_MODE.READ ? fsConstants.O_RDWR : fsConstants.O_WRONLY) : fsConstants.O_RDONLY;
        if (flags & OPEN_MODE.CREAT) mode |= fsConstants.O_CREAT;
        if (flags & OPEN_MODE.EXCL) mode |= fsConstants.O_EXCL;
        if (flags & OPEN_MODE.APPEND) mode |= fsConstants.O_APPEND;
        let before = 0;
        try {
          const existing = await stat(local);
          if (existing.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
          before = existing.size;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
        if (flags & OPEN_MODE.TRUNC) {
          mode |= fsConstants.O_TRUNC;
          this.volumes.addUsage(session.storageId, -before);
          before = 0;
        }
        const handle = await open(local, mode, 0o644);
        sftp.handle(reqId, newHandle({ kind: 'file', handle, path: local, size: before }));
      }),
    );
    sftp.on('WRITE', (reqId, buffer, offset, data) => {
      const file = lookup(buffer);
      if (!file || file.kind !== 'file') return sftp.status(reqId, STATUS_CODE.FAILURE, 'Bad handle');
      uploaded += data.length;
      const fault = this.takeFault(session.storageId, uploaded);
      if (fault?.kind === 'expire') return this.sessions.expire(session);
      if (fault?.kind === 'drop') return connection.end();
      const growth = Math.max(0, offset + data.length - file.size);
      if (fault?.kind === 'full' || growth > quotaLeft()) return sftp.status(reqId, STATUS_CODE.FAILURE, 'No space left on device');
      file.size += growth;
      this.volumes.addUsage(session.storageId, growth);
      let wait = 0;
      if (this.writeBytesPerSecond > 0) {
        const now = Date.now();
        linkFreeAt = Math.max(now, linkFreeAt) + (data.length * 1000) / this.writeBytesPerSecond;
        wait = linkFreeAt - now;
      }
      run(reqId, async () => {
        await file.handle.write(data, 0, data.length, offset);
        if (wait > 0) {
          await new Promise((resolve) => setTimeout(resolve, wait));
          if (gone) return; // the client went away meanwhile (a cancelled upload)
        }
        sftp.status(reqId, STATUS_CODE.OK);
      });
    });
    sftp.on('READ', (reqId, buffer, offset, length) => {
      const file = lookup(buffer);
      if (!file || file.kind !== 'file') return sftp.status(reqId, STATUS_CODE.FAILURE, 'Bad handle');
      run(reqId, async () => {
        const chunk = Buffer.allocUnsafe(Math.min(length, MAX_READ));
        const { bytesRead } = await file.handle.read(chunk, 0, chunk.length, offset);
        if (bytesRead === 0) sftp.status(reqId, STATUS_CODE.EOF);
        else sftp.data(reqId, chunk.subarray(0, bytesRead));
      });
    });
    sftp.on('FSTAT', (reqId, buffer) => {
      const file = lookup(buffer);
      if (!file) return sftp.status(reqId, STATUS_CODE.FAILURE, 'Bad handle');
      run(reqId, async () => sftp.attrs(reqId, toAttrs(file.kind === 'file' ? await file.handle.stat() : await stat(file.path), OWNER)));
    });
    const setAttrs = async (local: string, attrs: Attributes): Promise<void> => {
      if (typeof attrs.size === 'number') {
        const before = (await stat(local)).size;
        await truncate(local, attrs.size);
        this.volumes.addUsage(session.storageId, attrs.size - before);
      }
      if (typeof attrs.mtime === 'number') await utimes(local, attrs.atime ?? attrs.mtime, attrs.mtime);
    };
    sftp.on('FSETSTAT', (reqId, buffer, attrs) => {
      const file = lookup(buffer);
      if (!file) return sftp.status(reqId, STATUS_CODE.FAILURE, 'Bad handle');
      run(reqId, async () => {
        if (typeof attrs.size === 'number' && file.kind === 'file') file.size = attrs.size;
        await setAttrs(file.path, attrs);
        sftp.status(reqId, STATUS_CODE.OK);
      });
    });
    sftp.on('SETSTAT', (reqId, path, attrs) =>
      run(reqId, async () => {
        await setAttrs(toLocal(path), attrs);
        sftp.status(reqId, STATUS_CODE.OK);
      }),
    );
    sftp.on('CLOSE', (reqId, buffer) => {
      const entry = lookup(buffer);
      if (!entry) return sftp.status(reqId, STATUS_CODE.FAILURE, 'Bad handle');
      handles.delete(buffer.readUInt32BE(0));
      run(reqId, async () => {
        if (entry.kind === 'file') await entry.handle.close();
        sftp.status(reqId, STATUS_CODE.OK);
      });
    });
    sftp.on('OPENDIR', (reqId, path) =>
      run(reqId, async () => {
        const virtual = virtualFolder(path);
        if (virtual) return void sftp.handle(reqId, newHandle({ kind: 'dir', path: '', remote: path, next: 0, virtual }));
        const local = toLocal(path);
        const dir = await opendir(local);
        await dir.close();
        sftp.handle(reqId, newHandle({ kind: 'dir', path: local, remote: path, next: 0 }));
      }),
    );
    const hostileNames = async (entries: readonly HostileEntry[]): Promise<FileEntry[]> => {
      const names: FileEntry[] = [];
      for (const entry of entries) {
        const size = entry.backing !== undefined ? (await stat(toLocal(entry.backing))).size : 0;
        const attrs = entry.type === 'directory' ? DIRECTORY_ATTRS : { ...DIRECTORY_ATTRS, mode: 0o100644, size };
        names.push({ filename: entry.name, longname: longname(entry.name, attrs), attrs });
      }
      return names;
    };
    sftp.on('READDIR', (reqId, buffer) => {
      const dir = lookup(buffer);
      if (!dir || dir.kind !== 'dir') return sftp.status(reqId, STATUS_CODE.FAILURE, 'Bad handle');
      run(reqId, async () => {
        if (dir.virtual === 'chain') {
          if (dir.next++ > 0) return sftp.status(reqId, STATUS_CODE.EOF);
          return sftp.name(reqId, [{ filename: 'd', longname: longname('d', DIRECTORY_ATTRS), attrs: DIRECTORY_ATTRS }]);
        }
        if (dir.virtual === 'listing') {
          const start = dir.next;
          dir.next += READDIR_BATCH;
          return sftp.name(
            reqId,
            Array.from({ length: READDIR_BATCH }, (_, index) => {
              const attrs = { ...DIRECTORY_ATTRS, mode: 0o100644, size: 1 };
              return { filename: `f${start + index}`, longname: longname(`f${start + index}`, attrs), attrs };
            }),
          );
        }
        dir.entries ??= await readdir(dir.path);
        if (dir.next >= dir.entries.length) {
          const extras = dir.extrasSent ? [] : this.hostile.extraEntries(storageId, dir.remote);
          dir.extrasSent = true;
          if (extras.length > 0) return sftp.name(reqId, await hostileNames(extras));
          return sftp.status(reqId, STATUS_CODE.EOF);
        }
        const batch = dir.entries.slice(dir.next, dir.next + READDIR_BATCH);
        dir.next += batch.length;
        const names: FileEntry[] = [];
        for (const name of batch) {
          try {
            const attrs = toAttrs(await lstat(`${dir.path}${sep}${name}`), OWNER);
            names.push({ filename: name, longname: longname(name, attrs), attrs });
          } catch {
            // removed meanwhile
          }
        }
        sftp.name(reqId, names);
      });
    });
    sftp.on('MKDIR', (reqId, path) =>
      run(reqId, async () => {
        await mkdir(toLocal(path));
        sftp.status(reqId, STATUS_CODE.OK);
      }),
    );
    sftp.on('RMDIR', (reqId, path) =>
      run(reqId, async () => {
        if (posix.normalize(`/${path}`) === '/') throw Object.assign(new Error('root'), { code: 'EPERM' });
        await rmdir(toLocal(path));
        sftp.status(reqId, STATUS_CODE.OK);
      }),
    );
    sftp.on('REMOVE', (reqId, path) =>
      run(reqId, async () => {
        const local = toLocal(path);
        const info = await lstat(local);
        if (info.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
        await unlink(local);
        this.volumes.addUsage(session.storageId, -info.size);
        sftp.status(reqId, STATUS_CODE.OK);
      }),
    );
    sftp.on('RENAME', (reqId, oldPath, newPath) =>
      run(reqId, async () => {
        const target = toLocal(newPath);
        // SFTP v3 rename never replaces an existing file (as OpenSSH's server).
        const exists = await lstat(target).then(
          () => true,
          () => false,
        );
        if (exists) throw Object.assign(new Error('exists'), { code: 'EEXIST' });
        await rename(toLocal(oldPath), target);
        sftp.status(reqId, STATUS_CODE.OK);
      }),
    );
    sftp.on('READLINK', (reqId, path) =>
      run(reqId, async () => {
        const target = await readlink(toLocal(path));
        sftp.name(reqId, [{ filename: target, longname: target, attrs: {} as Attributes }]);
      }),
    );
    sftp.on('SYMLINK', (reqId, linkPath, targetPath) =>
      run(reqId, async () => {
        // Jailed: the link's target is read inside the volume (as a chrooted server reads it), written
        // on this disk relative to the link so it cannot lead out of the volume's directory.
        const link = posix.normalize(`/${linkPath}`);
        const inVolume = targetPath.startsWith('/') ? posix.normalize(targetPath) : posix.normalize(posix.join(posix.dirname(link), targetPath));
        const local = toLocal(link);
        await symlink(relative(dirname(local), toLocal(inVolume)) || '.', local);
        sftp.status(reqId, STATUS_CODE.OK);
      }),
    );
    sftp.on('close', () => {
      for (const entry of handles.values()) if (entry.kind === 'file') void entry.handle.close().catch(() => undefined);
      handles.clear();
    });
  }

  private takeFault(storageId: number, uploaded: number): SftpFault | undefined {
    const index = this.faults.findIndex((f) => (f.storageId === undefined || f.storageId === storageId) && uploaded >= f.afterBytes);
    if (index < 0) return undefined;
    const [fault] = this.faults.splice(index, 1);
    return fault;
  }
}
