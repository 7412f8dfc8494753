// Deleting and copying on a volume (the Explorer's delete, copy and overwriting rename): lstat first, so
// a symbolic link is removed or copied as a link and never descended (`dir/up -> ../victim` deleted with
// `dir` leaves `victim` as it was; a folder holding a link to itself is copied once). The folder is
// walked completely (bounded, core/nas/remoteWalk.ts) before anything changes, so a walk that stops on
// its bounds, or a delete of a folder holding a name that cannot be used safely, changes nothing.

import { coreText } from '../errors';
import { SkippedNames } from './entryNames';
import { NasFileError } from './errors';
import { remoteJoin } from './remotePaths';
import { walkRemote, type WalkedEntry, type WalkOptions } from './remoteWalk';
import type { SftpConnection } from './sftpConnection';

export interface TreeOptions {
  limits?: WalkOptions['limits'];
  signal?: AbortSignal;
  /** Collects names left out (escaped when shown): a folder holding them is not removed. */
  skipped?: SkippedNames;
}

async function walkAll(connection: SftpConnection, root: string, options: TreeOptions): Promise<WalkedEntry[]> {
  const entries: WalkedEntry[] = [];
  const walk = walkRemote(connection, root, {
    skipped: options.skipped ?? new SkippedNames(),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  for await (const entry of walk) entries.push(entry);
  return entries;
}

/**
 * Deletes `path`: a file or link with one remove; a folder (only when `recursive`, or when it is empty)
 * with everything under it, links removed as links.
 */
export async function deleteRemote(connection: SftpConnection, path: string, recursive: boolean, options: TreeOptions = {}): Promise<void> {
  const root = remoteJoin(path);
  const info = await connection.lstat(root);
  if (info.type !== 'directory') return connection.unlink(root);
  const skipped = options.skipped ?? new SkippedNames();
  if (!recursive) {
    const listing = await connection.list(root, 1);
    skipped.merge(listing.skipped);
    if (listing.entries.length > 0 || listing.skipped.count > 0) throw new NasFileError('failed', coreText('nas.folderNotEmpty', root), root);
    return connection.rmdir(root);
  }
  const before = skipped.count;
  const entries = await walkAll(connection, root, { ...options, skipped });
  // An entry it cannot name safely would keep the folder anyway: say so before deleting anything.
  if (skipped.count > before) throw new NasFileError('failed', coreText('nas.deleteUnsafeNames', root, skipped.count - before), root);
  for (const entry of entries) {
    options.signal?.throwIfAborted();
    if (entry.type !== 'directory') await connection.unlink(entry.path);
  }
  // Children before their parents.
  for (const entry of entries.reverse()) if (entry.type === 'directory') await connection.rmdir(entry.path);
  await connection.rmdir(root);
}

/**
 * Copies `from` to `to` on the same volume through this machine (SFTP v3 has no server-side copy), one
 * file at a time; a link is made again as a link with the same text.
 */
export async function copyRemote(connection: SftpConnection, from: string, to: string, options: TreeOptions = {}): Promise<void> {
  const source = remoteJoin(from);
  const target = remoteJoin(to);
  const info = await connection.lstat(source);
  if (info.type === 'link') return connection.symlink(await connection.readlink(source), target);
  if (info.type !== 'directory') return copyFile(connection, source, target);
  if (target === source || target.startsWith(`${source}/`)) throw new NasFileError('failed', coreText('nas.copyIntoItself', source), source);
  const entries = await walkAll(connection, source, options);
  await connection.mkdir(target);
  for (const entry of entries) {
    options.signal?.throwIfAborted();
    const destination = remoteJoin(target, entry.relative);
    if (entry.type === 'directory') await connection.mkdir(destination);
    else if (entry.type === 'link') await connection.symlink(await connection.readlink(entry.path), destination);
    else if (entry.type === 'file') await copyFile(connection, entry.path, destination);
  }
}

async function copyFile(connection: SftpConnection, from: string, to: string): Promise<void> {
  await connection.writeFile(to, await connection.readFile(from));
}
