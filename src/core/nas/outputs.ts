// What a run left in its volume folder (Open Outputs): the files the job wrote or changed, at any depth.
// The sync record on the volume (`<remoteDir>/.compute/upload-manifest.json`, sync.ts) says what the run
// was given: each file with its size and mtime, and the upload sets the volume copy's mtime to that one
// (transfer.ts, whole seconds as SFTP carries them). A file is an output when the record does not name
// it, or its size or mtime on the volume no longer match the record. Without a record every file is one.
// The walk is bounded (entries, folders, depth): a folder of millions of files costs a bounded listing.

import { SkippedNames } from '../ssh/entryNames';
import type { RemoteEntry, SftpConnection } from './sftpConnection';
import { MANIFEST_DIR, MANIFEST_FILE, readManifest, type ManifestEntry } from './sync';
import { remoteJoin } from './transfer';

export interface OutputLimits {
  /** Directory entries read in all (files and folders). */
  maxEntries: number;
  /** Folders listed. */
  maxFolders: number;
  /** Folder depth below the run folder. */
  maxDepth: number;
  /** Output files returned (the newest). */
  maxFiles: number;
}

export const OUTPUT_LIMITS: OutputLimits = { maxEntries: 20_000, maxFolders: 2_000, maxDepth: 32, maxFiles: 500 };

export interface OutputFile {
  /** Path below the run folder, with "/" ("outputs/model.txt"). */
  relative: string;
  size: number;
  mtimeMs: number;
  /** `new`: the run was not given it; `changed`: given, then rewritten. */
  change: 'new' | 'changed';
}

export interface OutputsListing {
  /** Newest first, at most `maxFiles`. */
  files: OutputFile[];
  /** True when a limit cut the walk or the list short. */
  truncated: boolean;
  /** Whether the folder holds a sync record (without one, every file counts as an output). */
  recorded: boolean;
  /** Entries left out because their names cannot be used safely (core/ssh/entryNames.ts): shown in a warning. */
  unsafeNames?: { count: number; shown: readonly string[] };
}

type VolumeReader = Pick<SftpConnection, 'list' | 'readFile'>;

function changeOf(entry: RemoteEntry, recorded: ManifestEntry | undefined): OutputFile['change'] | undefined {
  if (!recorded) return 'new';
  if (recorded.size !== entry.size) return 'changed';
  return Math.floor(entry.mtimeMs / 1000) !== Math.floor(recorded.mtimeMs / 1000) ? 'changed' : undefined;
}

/** The files under `remoteDir` that the run wrote or changed (see the top of this file). */
export async function findOutputs(reader: VolumeReader, remoteDir: string, limits: OutputLimits = OUTPUT_LIMITS): Promise<OutputsListing> {
  const root = remoteJoin(remoteDir);
  const manifest = await readManifest(reader, remoteJoin(root, MANIFEST_DIR, MANIFEST_FILE));
  const recorded = Object.keys(manifest.files).length > 0;
  const files: OutputFile[] = [];
  let entries = 0;
  let folders = 0;
  let truncated = false;
  const unsafe = new SkippedNames();
  const pending: { dir: string; depth: number }[] = [{ dir: '', depth: 0 }];
  // Breadth first (outputs/ before outputs/a/b/c), read by index: linear in what was listed.
  walk: for (let next = 0; next < pending.length; next++) {
    const { dir, depth } = pending[next] as { dir: string; depth: number };
    if (++folders > limits.maxFolders) {
      truncated = true;
      break;
    }
    let listing: RemoteEntry[];
    try {
      const listed = await reader.list(remoteJoin(root, dir));
      listing = listed.entries;
      unsafe.merge(listed.skipped);
    } catch {
      continue; // removed while we walk, or unreadable: nothing of it to offer
    }
    for (const entry of listing) {
      if (++entries > limits.maxEntries) {
        truncated = true;
        break walk;
      }
      const relative = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.type === 'directory') {
        if (dir === '' && entry.name === MANIFEST_DIR) continue;
        if (depth + 1 > limits.maxDepth) truncated = true;
        else pending.push({ dir: relative, depth: depth + 1 });
      } else if (entry.type === 'file') {
        const change = changeOf(entry, Object.hasOwn(manifest.files, relative) ? manifest.files[relative] : undefined);
        if (change) files.push({ relative, size: entry.size, mtimeMs: entry.mtimeMs, change });
      }
    }
  }
  files.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
  if (files.length > limits.maxFiles) {
    truncated = true;
    files.length = limits.maxFiles;
  }
  return { files, truncated, recorded, ...(unsafe.count > 0 ? { unsafeNames: { count: unsafe.count, shown: unsafe.names } } : {}) };
}
