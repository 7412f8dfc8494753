// Uploads and downloads of files and folders between the local disk and a volume, streaming through
// the library's pipelined transfers with progress (bytes, rate, time left), cancellation, and a policy
// for files that already exist. A transfer whose connection is lost (the session expired, the network
// dropped) renews the session and sends that file again from its start; a full volume stops at once and
// removes the partial file. A file in flight has a partial name until complete, both ways.

import { mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { AbortedError } from '../errors';
import { assertRealFolderUnder, localPathUnder, SkippedNames } from './entryNames';
import { fromSftpError, NasFileError } from './errors';
import { drainQueue, FileQueue, FILES_IN_FLIGHT } from './fileQueue';
import { ProgressMeter, type ProgressListener } from './progress';
import { remoteJoin } from './remotePaths';
import { walkRemote, type WalkLimits } from './remoteWalk';
import type { NasSessions } from './sessions';
import type { SftpConnection } from './sftpConnection';

/** What to do with a file that already exists at the destination. */
export type ExistingFilePolicy = 'skip' | 'overwrite' | 'newer';

export interface TransferOptions {
  policy?: ExistingFilePolicy;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  /** Bounds of the volume folder walk (default: core/nas/remoteWalk.ts). */
  limits?: Partial<WalkLimits>;
  /** A file was written on the volume (`replaced`: a copy was there before); the editor announces it. */
  onWritten?: (remotePath: string, replaced: boolean) => void;
}

export interface TransferResult {
  sent: number;
  skipped: number;
  bytes: number;
  /** Entries of a download whose names could not be used safely (left out; escaped when shown). */
  unsafeNames?: { count: number; shown: readonly string[] };
}

export { remoteJoin } from './remotePaths';

/** Whether an existing destination keeps its copy under `policy` (mtime compared in whole seconds, as SFTP carries them). */
export function keepsExisting(policy: ExistingFilePolicy, sourceMtimeMs: number, destinationMtimeMs: number): boolean {
  if (policy === 'overwrite') return false;
  if (policy === 'skip') return true;
  return Math.floor(sourceMtimeMs / 1000) <= Math.floor(destinationMtimeMs / 1000);
}

interface LocalFile {
  local: string;
  relative: string;
  size: number;
  mtimeMs: number;
}

async function listLocal(root: string, isIncluded: (relative: string, isDirectory: boolean) => boolean = () => true): Promise<LocalFile[]> {
  const files: LocalFile[] = [];
  const pending: string[] = [''];
  while (pending.length > 0) {
    const relativeDir = pending.pop() as string;
    const entries = await readdir(join(root, relativeDir), { withFileTypes: true });
    for (const entry of entries) {
      const relative = relativeDir ? `${relativeDir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (isIncluded(relative, true)) pending.push(relative);
      } else if (entry.isFile() && isIncluded(relative, false)) {
        const info = await stat(join(root, relative));
        files.push({ local: join(root, relative), relative, size: info.size, mtimeMs: info.mtimeMs });
      }
    }
  }
  return files.sort((a, b) => a.relative.localeCompare(b.relative));
}

export { listLocal as listLocalFiles };

/** Files in flight carry this suffix until complete (uploads on the volume, downloads on the local disk). */
export const PARTIAL_SUFFIX = '.computenas-part';

/**
 * Sends one local file to `remotePath` over `connection`; the caller handles the policy. The bytes go to
 * a partial name beside it and replace the file only once complete, so a cancelled or failed upload
 * never leaves a half file under the real name (nor loses the copy it was replacing). On a full volume
 * the partial file is removed (it would only hold space) and the error goes up unchanged.
 */
async function putOne(connection: SftpConnection, file: { local: string; mtimeMs: number }, remotePath: string, replaces: boolean, meter: ProgressMeter): Promise<number> {
  const partial = `${remotePath}${PARTIAL_SUFFIX}`;
  let sent = 0;
  try {
    await connection.put(file.local, partial, (bytes) => {
      sent += bytes;
      meter.add(bytes);
    });
    // Keep the source's time, so "only newer" compares like with like next time.
    await connection.setTimes(partial, file.mtimeMs);
    // SFTP's rename never replaces a file: the old copy goes first (the new one is complete beside it).
    if (replaces) await connection.unlink(remotePath);
    await connection.rename(partial, remotePath);
  } catch (error) {
    // The file goes again from its start (or not at all): its bytes never count twice.
    meter.takeBack(sent);
    if (error instanceof NasFileError && error.code === 'volume-full') await connection.unlink(partial).catch(() => undefined);
    throw error;
  }
  return sent;
}

/**
 * Makes the volume folders files go into, each at most once per transfer even with files in flight side
 * by side (two files of one new folder must not both create it; a failed attempt is forgotten).
 */
class FolderMaker {
  private readonly made = new Map<string, Promise<void>>();

  ensure(connection: SftpConnection, folder: string): Promise<void> {
    if (folder === '/' || folder === '.' || folder === '') return Promise.resolve();
    let making = this.made.get(folder);
    if (making === undefined) {
      making = this.make(connection, folder);
      this.made.set(folder, making);
      making.catch(() => this.made.delete(folder));
    }
    return making;
  }

  private async make(connection: SftpConnection, folder: string): Promise<void> {
    await this.ensure(connection, posix.dirname(folder));
    const found = await connection.statIfExists(folder);
    if (!found) await connection.mkdir(folder);
    // The same refusal as SftpConnection.mkdirs: something that is not a folder has the name.
    else if (found.type !== 'directory') throw fromSftpError(Object.assign(new Error('exists'), { code: 4 }), folder, 'Create folder');
  }
}

/**
 * Uploads `files` (local path → volume path) on one dedicated connection, renewing the session on loss.
 * Returns what was sent and skipped.
 */
export async function uploadFiles(
  sessions: Pick<NasSessions, 'run' | 'runDedicated'>,
  storageId: number,
  files: readonly { local: string; remote: string; size: number; mtimeMs: number }[],
  options: TransferOptions = {},
): Promise<TransferResult> {
  const policy = options.policy ?? 'overwrite';
  const total = files.reduce((sum, file) => sum + file.size, 0);
  const meter = new ProgressMeter(total, files.length, options.onProgress);
  const result: TransferResult = { sent: 0, skipped: 0, bytes: 0 };
  const queue = new FileQueue(files.length);
  const folders = new FolderMaker();
  const inFlight = new Set<string>();
  const sendOne = async (connection: SftpConnection, file: (typeof files)[number]): Promise<void> => {
    if (options.signal?.aborted) throw new AbortedError('The upload was cancelled.');
    meter.startFile(file.remote);
    const existing = await connection.statIfExists(file.remote);
    if (existing?.type === 'directory') throw new NasFileError('is-a-directory', `Upload: ${file.remote} is a folder on the volume.`, file.remote);
    if (existing && keepsExisting(policy, file.mtimeMs, existing.mtimeMs)) {
      result.skipped++;
      meter.fileDone();
      return;
    }
    await folders.ensure(connection, posix.dirname(file.remote));
    const partial = `${file.remote}${PARTIAL_SUFFIX}`;
    inFlight.add(partial);
    const bytes = await putOne(connection, file, file.remote, existing !== undefined, meter);
    inFlight.delete(partial);
    result.bytes += bytes;
    options.onWritten?.(file.remote, existing !== undefined);
    result.sent++;
    meter.fileDone();
  };
  try {
    // A renewed connection carries on with the files that were in flight (each sent again from its start).
    await sessions.runDedicated(storageId, (connection) => drainQueue(queue, FILES_IN_FLIGHT, (index) => sendOne(connection, files[index] as (typeof files)[number])), options.signal);
  } catch (error) {
    // Cancelled with files in flight: their dedicated connection is gone, so the partial files are removed
    // over the session's shared one (best effort; a later upload of the file replaces it anyway).
    if (inFlight.size > 0 && options.signal?.aborted) {
      const partials = [...inFlight];
      await sessions.run(storageId, async (connection) => void (await Promise.all(partials.map((partial) => connection.unlink(partial).catch(() => undefined))))).catch(() => undefined);
    }
    throw error;
  }
  return result;
}

/** Uploads a local file or folder to `remotePath` (a folder's contents go under it, keeping their tree). */
export async function upload(sessions: NasSessions, storageId: number, localPath: string, remotePath: string, options: TransferOptions = {}): Promise<TransferResult> {
  const info = await stat(localPath);
  if (info.isDirectory()) {
    const files = await listLocal(localPath);
    return uploadFiles(
      sessions,
      storageId,
      files.map((f) => ({ local: f.local, remote: remoteJoin(remotePath, f.relative), size: f.size, mtimeMs: f.mtimeMs })),
      options,
    );
  }
  return uploadFiles(sessions, storageId, [{ local: localPath, remote: remoteJoin(remotePath), size: info.size, mtimeMs: info.mtimeMs }], options);
}

interface RemoteFile {
  remote: string;
  relative: string;
  size: number;
  mtimeMs: number;
}

async function listRemote(connection: SftpConnection, root: string, skipped: SkippedNames, options: TransferOptions): Promise<RemoteFile[]> {
  const files: RemoteFile[] = [];
  const walk = walkRemote(connection, root, { skipped, ...(options.limits ? { limits: options.limits } : {}), ...(options.signal ? { signal: options.signal } : {}) });
  for await (const entry of walk) if (entry.type === 'file') files.push({ remote: entry.path, relative: entry.relative, size: entry.size, mtimeMs: entry.mtimeMs });
  return files;
}

/**
 * Downloads a volume file or folder to `localPath` (a folder's tree is recreated under it). Each file is
 * written to a temporary name beside its destination and renamed into place when complete, so an
 * interrupted download never leaves a half file under the real name.
 */
export async function download(sessions: NasSessions, storageId: number, remotePath: string, localPath: string, options: TransferOptions = {}): Promise<TransferResult> {
  const policy = options.policy ?? 'overwrite';
  const result: TransferResult = { sent: 0, skipped: 0, bytes: 0 };
  const unsafe = new SkippedNames();
  let listed: { files: RemoteFile[]; meter: ProgressMeter; queue: FileQueue } | undefined;
  const receiveOne = async (connection: SftpConnection, file: RemoteFile, progress: ProgressMeter): Promise<void> => {
    if (options.signal?.aborted) throw new AbortedError('The download was cancelled.');
    // The one check every downloaded file goes through: resolved, it stays under the chosen folder.
    const target = localPathUnder(localPath, file.relative ? file.relative.split('/') : []);
    progress.startFile(file.remote);
    const existing = await stat(target).catch(() => undefined);
    if (existing?.isFile() && keepsExisting(policy, file.mtimeMs, existing.mtimeMs)) {
      result.skipped++;
      progress.fileDone();
      return;
    }
    await mkdir(dirname(target), { recursive: true });
    if (file.relative) await assertRealFolderUnder(localPath, target);
    const partial = `${target}${PARTIAL_SUFFIX}`;
    let received = 0;
    try {
      await connection.get(file.remote, partial, (bytes) => {
        received += bytes;
        progress.add(bytes);
      });
    } catch (error) {
      progress.takeBack(received);
      await rm(partial, { force: true });
      throw error;
    }
    const seconds = file.mtimeMs / 1000;
    await utimes(partial, seconds, seconds);
    await rename(partial, target);
    result.bytes += received;
    result.sent++;
    progress.fileDone();
  };
  await sessions.runDedicated(
    storageId,
    async (connection) => {
      if (!listed) {
        const root = await connection.stat(remoteJoin(remotePath));
        const files =
          root.type === 'directory'
            ? await listRemote(connection, remoteJoin(remotePath), unsafe, options)
            : [{ remote: remoteJoin(remotePath), relative: '', size: root.size, mtimeMs: root.mtimeMs }];
        const meter = new ProgressMeter(
          files.reduce((sum, f) => sum + f.size, 0),
          files.length,
          options.onProgress,
        );
        listed = { files, meter, queue: new FileQueue(files.length) };
      }
      const { files, meter, queue } = listed;
      // A renewed connection carries on with the files that were in flight (each received again from its start).
      await drainQueue(queue, FILES_IN_FLIGHT, (index) => receiveOne(connection, files[index] as RemoteFile, meter));
    },
    options.signal,
  );
  if (unsafe.count > 0) result.unsafeNames = { count: unsafe.count, shown: unsafe.names };
  return result;
}
