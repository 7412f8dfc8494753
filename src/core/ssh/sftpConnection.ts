// One SFTP connection over the SSH layer (sshConnection.ts; a volume's or a machine's): connect with
// credentials, promise-returning file operations mapped to SftpFileError/SshConnectionError,
// and the library's pipelined transfers (fastPut/fastGet) for large files, which stream from and to disk
// in bounded chunks (concurrency × chunk size in flight), so a 10 GB file never sits in memory.

import { utils, type FileEntryWithStats, type SFTPWrapper, type Stats } from 'ssh2';
import { coreText } from '../errors';
import { isSafeEntryName, SkippedNames } from './entryNames';
import { SshConnectionError, SftpFileError, fromSftpError } from './errors';
import { SshConnection, type SshEndpoint, type SshOpenOptions, type SshWords } from './sshConnection';

/** A volume's SFTP login (a password; a machine's may be a key: SshEndpoint). */
export interface SftpEndpoint extends SshEndpoint {
  password: string;
}

/** How a volume's SFTP errors read (the words NAS has always used). */
export const VOLUME_WORDS: SshWords = { place: 'the volume', protocol: 'SFTP', refused: 'The volume refused the SFTP login (the session expired or was closed).' };

/** What an entry is; a `link` is a symbolic link, never followed by a walk, a delete or a copy. */
export type RemoteType = 'file' | 'directory' | 'link' | 'other';

export interface RemoteEntry {
  name: string;
  type: RemoteType;
  size: number;
  /** Modification time, ms (SFTP carries whole seconds). */
  mtimeMs: number;
}

export interface RemoteStat {
  type: RemoteType;
  size: number;
  mtimeMs: number;
}

/** One folder's listing, names that cannot be used safely left out (core/nas/entryNames.ts). */
export interface RemoteListing {
  entries: RemoteEntry[];
  skipped: SkippedNames;
}

/** A folder listing longer than this is refused (a server that never ends one must not fill memory). */
export const MAX_LISTING_ENTRIES = 500_000;
const { STATUS_CODE } = utils.sftp;
/** fastPut/fastGet request pipeline: 64 × 32 KiB in flight (ssh2's defaults), about 2 MiB of memory. */
export const TRANSFER_CONCURRENCY = 64;
export const TRANSFER_CHUNK_BYTES = 32 * 1024;

function typeOf(stats: Stats): RemoteType {
  return stats.isSymbolicLink() ? 'link' : stats.isDirectory() ? 'directory' : stats.isFile() ? 'file' : 'other';
}

export function toRemoteStat(stats: Stats): RemoteStat {
  return { type: typeOf(stats), size: stats.size, mtimeMs: stats.mtime * 1000 };
}

export class SftpConnection {
  private closedFlag = false;
  private readonly closeListeners = new Set<() => void>();

  private constructor(
    private readonly ssh: SshConnection,
    readonly sftp: SFTPWrapper,
  ) {
    const onClose = (): void => this.markClosed();
    ssh.onClose(onClose);
    sftp.on('close', onClose);
  }

  /** Opens an SSH connection and its SFTP subsystem (a volume's words and host-key policy unless told). */
  static async open(endpoint: SshEndpoint, signal?: AbortSignal, options: Omit<SshOpenOptions, 'signal'> = {}): Promise<SftpConnection> {
    const ssh = await SshConnection.open(endpoint, { words: VOLUME_WORDS, ...options, ...(signal ? { signal } : {}) });
    try {
      return new SftpConnection(ssh, await ssh.sftp());
    } catch (error) {
      ssh.close();
      throw error;
    }
  }

  /** SFTP on a connection that is already open (closing this closes it). */
  static async over(ssh: SshConnection): Promise<SftpConnection> {
    return new SftpConnection(ssh, await ssh.sftp());
  }

  private get place(): string {
    return this.ssh.words.place;
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  onClose(listener: () => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Ends the connection; requests in flight (a cancelled upload's) are settled as lost at once. */
  close(): void {
    this.ssh.close();
    this.markClosed();
  }

  private markClosed(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    for (const listener of [...this.closeListeners]) listener();
  }

  private call<T>(path: string, action: string, run: (done: (error: Error | null | undefined, value?: T) => void) => void): Promise<T> {
    if (this.closedFlag) return Promise.reject(new SshConnectionError(`${action}: the connection to ${this.place} is closed.`));
    return new Promise<T>((resolve, reject) => {
      // ssh2 does not always call back requests in flight when the connection goes away (fastPut and
      // fastGet wait for handle closes that never answer), so a close settles them here.
      const stopWatching = this.onClose(() => reject(new SshConnectionError(`${action}: the connection to ${this.place} was lost.`)));
      run((error, value) => {
        stopWatching();
        if (error) reject(fromSftpError(error, path, action, this.place));
        else resolve(value as T);
      });
    });
  }

  /** The server's absolute form of `path` (`.`: the login's home). */
  realpath(path: string): Promise<string> {
    return this.call<string>(path, 'Resolve', (done) => this.sftp.realpath(path, done));
  }

  /** What `path` leads to, links followed (never 'link'). */
  stat(path: string): Promise<RemoteStat> {
    return this.call<Stats>(path, 'Stat', (done) => this.sftp.stat(path, done)).then(toRemoteStat);
  }

  /** What `path` itself is: a link is 'link' (what deletes, copies and walks look at first). */
  lstat(path: string): Promise<RemoteStat> {
    return this.call<Stats>(path, 'Stat', (done) => this.sftp.lstat(path, done)).then(toRemoteStat);
  }

  readlink(path: string): Promise<string> {
    return this.call<string>(path, 'Read link', (done) => this.sftp.readlink(path, done));
  }

  /** Makes `linkPath` a symbolic link whose text is `target` (copied as it is, never resolved here). */
  symlink(target: string, linkPath: string): Promise<void> {
    return this.call<void>(linkPath, 'Create link', (done) => this.sftp.symlink(target, linkPath, done));
  }

  /** The stat, or undefined when nothing is at `path`. */
  async statIfExists(path: string): Promise<RemoteStat | undefined> {
    try {
      return await this.stat(path);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'not-found') return undefined;
      throw error;
    }
  }

  /** The entries of a folder whose names can be used (the others skipped); see `list`. */
  /** The lstat, or undefined when nothing (not even a link) is at `path`. */
  async lstatIfExists(path: string): Promise<RemoteStat | undefined> {
    try {
      return await this.lstat(path);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'not-found') return undefined;
      throw error;
    }
  }

  async readdir(path: string): Promise<RemoteEntry[]> {
    return (await this.list(path)).entries;
  }

  /**
   * One folder's listing, read batch by batch and refused past `maxEntries` (with a clear error), so a
   * server that never ends a listing cannot fill memory. Names that are not one plain path segment
   * (`..`, `a/b`, NUL, control characters) are left out and counted in `skipped`.
   */
  async list(path: string, maxEntries = MAX_LISTING_ENTRIES): Promise<RemoteListing> {
    const handle = await this.call<Buffer>(path, 'List folder', (done) => this.sftp.opendir(path, done));
    const entries: RemoteEntry[] = [];
    const skipped = new SkippedNames();
    let seen = 0;
    try {
      for (;;) {
        const batch = await this.call<FileEntryWithStats[] | undefined>(path, 'List folder', (done) =>
          this.sftp.readdir(handle, (error, list) => (error && (error as { code?: unknown }).code === STATUS_CODE.EOF ? done(undefined, undefined) : done(error, list))),
        );
        if (!batch) break;
        seen += batch.length;
        if (seen > maxEntries) throw new SftpFileError('too-many', coreText('nas.listingTooLong', path, maxEntries), path);
        for (const entry of batch) {
          if (entry.filename === '.' || entry.filename === '..') continue;
          if (!isSafeEntryName(entry.filename)) skipped.add(entry.filename, path);
          else entries.push({ name: entry.filename, type: typeOf(entry.attrs), size: entry.attrs.size, mtimeMs: entry.attrs.mtime * 1000 });
        }
      }
    } finally {
      await this.call<void>(path, 'List folder', (done) => this.sftp.close(handle, done)).catch(() => undefined);
    }
    return { entries, skipped };
  }

  mkdir(path: string): Promise<void> {
    return this.call<void>(path, 'Create folder', (done) => this.sftp.mkdir(path, done));
  }

  /** Creates `path` and any missing parents. */
  async mkdirs(path: string): Promise<void> {
    const parts = path.split('/').filter(Boolean);
    let current = '';
    for (const part of parts) {
      current += `/${part}`;
      const found = await this.statIfExists(current);
      if (!found) await this.mkdir(current);
      else if (found.type !== 'directory') throw fromSftpError(Object.assign(new Error('exists'), { code: 4 }), current, 'Create folder', this.place);
    }
  }

  rmdir(path: string): Promise<void> {
    return this.call<void>(path, 'Delete folder', (done) => this.sftp.rmdir(path, done));
  }

  unlink(path: string): Promise<void> {
    return this.call<void>(path, 'Delete file', (done) => this.sftp.unlink(path, done));
  }

  rename(from: string, to: string): Promise<void> {
    return this.call<void>(from, 'Rename', (done) => this.sftp.rename(from, to, done));
  }

  setTimes(path: string, mtimeMs: number): Promise<void> {
    const seconds = Math.floor(mtimeMs / 1000);
    return this.call<void>(path, 'Set time', (done) => this.sftp.utimes(path, seconds, seconds, done));
  }

  /** Reads a whole file; refuses files over `maxBytes` before reading them. */
  async readFile(path: string, maxBytes = Number.MAX_SAFE_INTEGER): Promise<Buffer> {
    const info = await this.stat(path);
    if (info.type === 'directory') throw fromSftpError(Object.assign(new Error('is a directory'), { code: 4 }), path, 'Read', this.place);
    if (info.size > maxBytes) throw new RangeError(`${path} is ${info.size} bytes, over the ${maxBytes}-byte limit.`);
    return this.call<Buffer>(path, 'Read', (done) => this.sftp.readFile(path, done));
  }

  writeFile(path: string, data: Uint8Array): Promise<void> {
    return this.call<void>(path, 'Write', (done) => this.sftp.writeFile(path, Buffer.from(data.buffer, data.byteOffset, data.byteLength), done));
  }

  /** Streams a local file to the volume; `step` gets the bytes of each acknowledged chunk. */
  put(localPath: string, remotePath: string, step: (chunkBytes: number) => void): Promise<void> {
    return this.call<void>(remotePath, 'Upload', (done) =>
      this.sftp.fastPut(localPath, remotePath, { concurrency: TRANSFER_CONCURRENCY, chunkSize: TRANSFER_CHUNK_BYTES, step: (_total, chunk) => step(chunk) }, done),
    );
  }

  /** Streams a volume file to a local path; `step` gets the bytes of each received chunk. */
  get(remotePath: string, localPath: string, step: (chunkBytes: number) => void): Promise<void> {
    return this.call<void>(remotePath, 'Download', (done) =>
      this.sftp.fastGet(remotePath, localPath, { concurrency: TRANSFER_CONCURRENCY, chunkSize: TRANSFER_CHUNK_BYTES, step: (_total, chunk) => step(chunk) }, done),
    );
  }
}
