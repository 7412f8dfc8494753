// The one recursive walk of a volume folder (download, sync's listing, the Explorer's delete and copy):
// links are looked at with lstat and never descended, names that are not one plain path segment are
// skipped (core/nas/entryNames.ts), and a walk deeper than MAX_WALK_DEPTH or longer than
// MAX_WALK_ENTRIES stops with an error that says so (a server whose folders never end, or a listing
// that never ends, cannot keep it going). Entries come parents first.

import { coreText } from '../errors';
import { SkippedNames } from './entryNames';
import { NasFileError } from './errors';
import type { RemoteType, SftpConnection } from './sftpConnection';
import { remoteJoin } from './remotePaths';

/** Folders below the walk's root deeper than this stop the walk (deep training trees stay far below). */
export const MAX_WALK_DEPTH = 128;
/** Entries in one walk (all folders together) past this stop it. */
export const MAX_WALK_ENTRIES = 500_000;

export interface WalkLimits {
  maxDepth: number;
  maxEntries: number;
}

export interface WalkedEntry {
  /** Path on the volume. */
  path: string;
  /** Path below the root, "/"-separated, made of safe names only. */
  relative: string;
  type: RemoteType;
  size: number;
  mtimeMs: number;
}

export interface WalkOptions {
  limits?: Partial<WalkLimits>;
  signal?: AbortSignal;
  /** Collects the names left out (escaped when shown). */
  skipped?: SkippedNames;
  /** Whether to enter a folder (default: every folder). */
  enter?: (relative: string) => boolean;
}

/**
 * Yields every entry under `root` (not `root` itself), parents before children. A folder is entered
 * only when lstat says it is a folder (never a link to one).
 */
export async function* walkRemote(connection: SftpConnection, root: string, options: WalkOptions = {}): AsyncGenerator<WalkedEntry> {
  const maxDepth = options.limits?.maxDepth ?? MAX_WALK_DEPTH;
  const maxEntries = options.limits?.maxEntries ?? MAX_WALK_ENTRIES;
  const base = remoteJoin(root);
  let count = 0;
  const pending: { relative: string; depth: number }[] = [{ relative: '', depth: 0 }];
  while (pending.length > 0) {
    options.signal?.throwIfAborted();
    const { relative: folder, depth } = pending.pop() as { relative: string; depth: number };
    const folderPath = remoteJoin(base, folder);
    const tooMany = (): NasFileError => new NasFileError('too-many', coreText('nas.walkTooMany', base, maxEntries), base);
    const listing = await connection.list(folderPath, maxEntries - count).catch((error: unknown) => {
      throw error instanceof NasFileError && error.code === 'too-many' ? tooMany() : error;
    });
    options.skipped?.merge(listing.skipped);
    count += listing.entries.length;
    if (count > maxEntries) throw tooMany();
    for (const entry of listing.entries) {
      const relative = folder ? `${folder}/${entry.name}` : entry.name;
      const path = remoteJoin(base, relative);
      let type = entry.type;
      // The listing's attributes may follow links on some servers: a folder is confirmed with lstat.
      if (type === 'directory') type = (await connection.lstat(path)).type;
      yield { path, relative, type, size: entry.size, mtimeMs: entry.mtimeMs };
      if (type !== 'directory' || !(options.enter?.(relative) ?? true)) continue;
      if (depth + 1 >= maxDepth) throw new NasFileError('too-deep', coreText('nas.walkTooDeep', base, maxDepth, path.slice(0, 200)), path);
      pending.push({ relative, depth: depth + 1 });
    }
  }
}
