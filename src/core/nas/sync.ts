// Folder sync to a volume (what Run on GPU and Upload to Volume use): walks a local folder honouring
// .gitignore files (at any depth) and a .computeignore at its root (the `ignore` package, git's rules),
// and sends only files that changed since the last upload to the same volume folder.
//
// The record of what was sent (size, mtime and SHA-256 per file) is kept ON THE VOLUME, at
// `<remoteDir>/.compute/upload-manifest.json`, not in local storage: it then describes the files that
// are really there. A volume that was deleted and re-created, or a folder emptied by a job, carries no
// stale record that would make us skip files it no longer has; a second machine uploading the same
// project benefits too. A file is skipped only when the record matches the local file AND the volume's
// listing shows it with the recorded size; when only the mtime differs, the hash decides (a touched but
// unchanged file is not sent again).

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import type { ProgressListener } from './progress';
import type { SshCredentials, SshSessions } from '../ssh/sessions';
import type { SftpConnection } from './sftpConnection';
import { walkRemote } from './remoteWalk';
import { remoteJoin, uploadFiles, type TransferOptions, type TransferResult } from './transfer';

/** What a sync needs of a kind of SSH sessions (a volume's, or a rented machine's: docs/machines.md). */
export type SyncSessions = Pick<SshSessions<number, SshCredentials>, 'run' | 'runDedicated'>;

export const MANIFEST_DIR = '.compute';
export const MANIFEST_FILE = 'upload-manifest.json';
/** A manifest larger than this is ignored (everything is compared afresh): it is read from the volume. */
const MANIFEST_MAX_BYTES = 16 * 1024 * 1024;
const MANIFEST_VERSION = 1;

export interface SyncOptions {
  /** Volume id. */
  storageId: number;
  /** Local folder to send. */
  localDir: string;
  /** Volume folder it goes to ("/" or "/projects/x"). */
  remoteDir: string;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  onWritten?: TransferOptions['onWritten'];
}

export interface SyncResult extends TransferResult {
  /** Entries (files, and folders not entered) left out by .gitignore/.computeignore (and .git/, .compute/). */
  ignored: number;
}

export interface ManifestEntry {
  size: number;
  mtimeMs: number;
  sha256: string;
}

export interface Manifest {
  version: number;
  files: Record<string, ManifestEntry>;
}

interface Scope {
  /** Folder (relative to the root, "" for the root) whose ignore file this is. */
  base: string;
  rules: Ignore;
}

export interface LocalFile {
  local: string;
  relative: string;
  size: number;
  mtimeMs: number;
}

/**
 * The files of `root` that .gitignore files (at any depth, each relative to its folder), a root
 * .computeignore and the fixed exclusions (.git/, .compute/) leave in. One pass, one stat per file.
 */
export async function walkIncluded(root: string): Promise<{ included: LocalFile[]; ignored: number }> {
  const loadRules = async (dir: string): Promise<Ignore | undefined> => {
    const names = dir === '' ? ['.gitignore', '.computeignore'] : ['.gitignore'];
    let rules: Ignore | undefined;
    for (const name of names) {
      const text = await readFile(join(root, ...dir.split('/').filter(Boolean), name), 'utf8').catch(() => undefined);
      if (text !== undefined) (rules ??= ignore()).add(text);
    }
    return rules;
  };
  const included: LocalFile[] = [];
  let ignored = 0;
  const pending: { dir: string; scopes: Scope[] }[] = [{ dir: '', scopes: [] }];
  while (pending.length > 0) {
    const { dir, scopes: inherited } = pending.pop() as { dir: string; scopes: Scope[] };
    const own = await loadRules(dir);
    const scopes = own ? [...inherited, { base: dir, rules: own }] : inherited;
    const entries = await readdir(join(root, ...dir.split('/').filter(Boolean)), { withFileTypes: true });
    for (const entry of entries) {
      const relative = dir ? `${dir}/${entry.name}` : entry.name;
      const isDirectory = entry.isDirectory();
      if (!isDirectory && !entry.isFile()) continue;
      const fixed = dir === '' && (entry.name === '.git' || entry.name === MANIFEST_DIR);
      const excluded =
        fixed ||
        scopes.some((scope) => {
          const below = scope.base === '' ? relative : relative.slice(scope.base.length + 1);
          return scope.rules.ignores(isDirectory ? `${below}/` : below);
        });
      if (excluded) {
        ignored++;
        continue;
      }
      if (isDirectory) pending.push({ dir: relative, scopes });
      else {
        const info = await stat(join(root, ...relative.split('/')));
        included.push({ local: join(root, ...relative.split('/')), relative, size: info.size, mtimeMs: info.mtimeMs });
      }
    }
  }
  included.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
  return { included, ignored };
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The sync record at `path` on the volume; an empty one when it is missing, too large or not ours. */
export async function readManifest(connection: Pick<SftpConnection, 'readFile'>, path: string): Promise<Manifest> {
  try {
    const parsed = JSON.parse((await connection.readFile(path, MANIFEST_MAX_BYTES)).toString('utf8')) as unknown;
    if (typeof parsed === 'object' && parsed !== null && (parsed as Manifest).version === MANIFEST_VERSION && typeof (parsed as Manifest).files === 'object') {
      return parsed as Manifest;
    }
  } catch {
    // missing, too large or not ours: compare everything afresh
  }
  return { version: MANIFEST_VERSION, files: Object.create(null) as Record<string, ManifestEntry> };
}

/** Sizes of the files under `root` on the volume, by relative path (one bounded walk, core/nas/remoteWalk.ts). */
async function remoteSizes(connection: SftpConnection, root: string, signal: AbortSignal | undefined): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  // A folder not there yet has nothing to compare: everything is sent.
  if ((await connection.statIfExists(root))?.type !== 'directory') return sizes;
  const walk = walkRemote(connection, root, { enter: (relative) => relative !== MANIFEST_DIR, ...(signal ? { signal } : {}) });
  for await (const entry of walk) if (entry.type === 'file') sizes.set(entry.relative, entry.size);
  return sizes;
}

/**
 * Sends the changed files of `localDir` to `remoteDir` on the volume and records them there.
 * Returns {sent, skipped, bytes, ignored}.
 */
export async function syncFolder(sessions: SyncSessions, options: SyncOptions): Promise<SyncResult> {
  const remoteDir = remoteJoin(options.remoteDir);
  const manifestPath = remoteJoin(remoteDir, MANIFEST_DIR, MANIFEST_FILE);
  const all = await walkIncluded(options.localDir);
  const { manifest, sizes } = await sessions.run(
    options.storageId,
    async (connection) => ({ manifest: await readManifest(connection, manifestPath), sizes: await remoteSizes(connection, remoteDir, options.signal) }),
    options.signal,
  );

  const toSend: { local: string; remote: string; size: number; mtimeMs: number; relative: string }[] = [];
  const next: Manifest = { version: MANIFEST_VERSION, files: Object.create(null) as Record<string, ManifestEntry> };
  let skipped = 0;
  let keptAsRecorded = 0;
  for (const file of all.included) {
    const recorded = manifest.files[file.relative];
    const onVolume = sizes.get(file.relative);
    if (recorded && recorded.size === file.size && onVolume === file.size) {
      if (recorded.mtimeMs === file.mtimeMs) {
        next.files[file.relative] = recorded;
        skipped++;
        keptAsRecorded++;
        continue;
      }
      const hash = await sha256Of(file.local);
      if (hash === recorded.sha256) {
        next.files[file.relative] = { ...recorded, mtimeMs: file.mtimeMs };
        skipped++;
        continue;
      }
    }
    toSend.push({ local: file.local, remote: remoteJoin(remoteDir, file.relative), size: file.size, mtimeMs: file.mtimeMs, relative: file.relative });
  }

  const sent = await uploadFiles(sessions, options.storageId, toSend, {
    policy: 'overwrite',
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.onWritten ? { onWritten: options.onWritten } : {}),
  });
  for (const file of toSend) next.files[file.relative] = { size: file.size, mtimeMs: file.mtimeMs, sha256: await sha256Of(file.local) };
  // Nothing sent and every entry as recorded: the record stays as it is (for 5,000 files it is ~650 KB,
  // which a run with nothing to send would otherwise write each time).
  const recordUnchanged = toSend.length === 0 && keptAsRecorded === Object.keys(manifest.files).length && keptAsRecorded === Object.keys(next.files).length;
  if (recordUnchanged) return { sent: sent.sent, skipped: skipped + sent.skipped, bytes: sent.bytes, ignored: all.ignored };
  await sessions.run(
    options.storageId,
    async (connection) => {
      await connection.mkdirs(posix.dirname(manifestPath));
      await connection.writeFile(manifestPath, Buffer.from(JSON.stringify(next)));
    },
    options.signal,
  );
  return { sent: sent.sent, skipped: skipped + sent.skipped, bytes: sent.bytes, ignored: all.ignored };
}
