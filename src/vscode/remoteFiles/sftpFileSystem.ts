// A remote folder over SFTP as a VS Code file system: NAS volumes (`computenas`, ../nas/volumeUri.ts) and
// machine folders (`computemachine`, ../machines/connect/machineFiles.ts) each register it under their
// scheme with their own sessions. The URI's authority is the session key (volume or device id), its path
// the path there. SFTP has no change notifications, so nothing is watched: the Explorer shows changes made
// elsewhere after a refresh (Refresh Explorer), and our own writes fire change events.

import * as vscode from 'vscode';
import type { SkippedNames } from '../../core/nas/entryNames';
import type { NasSessions } from '../../core/nas/sessions';
import type { SftpConnection } from '../../core/nas/sftpConnection';
import { wordedError } from '../errors/errorWords';
import { nasCore } from '../../core/lazyModules';

/** The session key a URI names in its authority (a volume's or a machine's id). */
function sessionKeyOf(uri: vscode.Uri): number {
  const id = Number(uri.authority);
  if (!Number.isSafeInteger(id) || id <= 0) throw vscode.FileSystemError.FileNotFound(uri);
  return id;
}

function remotePath(uri: vscode.Uri): string {
  const path = uri.path.replace(/\/+$/, '');
  return path === '' ? '/' : path;
}

/** Maps a core NAS error (by its `code`) to the FileSystemError VS Code expects. */
export function toFileSystemError(error: unknown, uri: vscode.Uri): unknown {
  if (error instanceof vscode.FileSystemError) return error;
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'not-found':
      return vscode.FileSystemError.FileNotFound(uri);
    case 'exists':
      return vscode.FileSystemError.FileExists(uri);
    case 'is-a-directory':
      return vscode.FileSystemError.FileIsADirectory(uri);
    case 'not-a-directory':
      return vscode.FileSystemError.FileNotADirectory(uri);
    case 'no-permission':
      return vscode.FileSystemError.NoPermissions(uri);
    case 'volume-full':
      return vscode.FileSystemError.NoPermissions(vscode.l10n.t('The volume is full: expand it or free space ({0}).', uri.path));
    default: {
      if ((error as { kind?: unknown }).kind === 'network') return vscode.FileSystemError.Unavailable(uri);
      // The walk's bounds, a folder not empty, a copy into itself: said in the display language.
      if ((error as { words?: unknown }).words !== undefined) return vscode.FileSystemError.NoPermissions(wordedError(error).message);
      return error;
    }
  }
}

const FILE_TYPES = { file: vscode.FileType.File, directory: vscode.FileType.Directory, link: vscode.FileType.SymbolicLink, other: vscode.FileType.Unknown } as const;

/** Hears of entries left out because their names cannot be used (the NAS area warns, naming them escaped). */
export type SkippedListener = (skipped: SkippedNames, uri: vscode.Uri) => void;

export class SftpFileSystem implements vscode.FileSystemProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;

  constructor(
    /** The scheme it is registered under: what it names in the URIs it announces. */
    private readonly scheme: string,
    // Only `run` is used: the NAS sessions and the machines' (src/vscode/machines/connect/machineFiles.ts) both fit.
    private readonly sessions: () => Pick<NasSessions, 'run'>,
    private readonly onSkipped: SkippedListener = () => undefined,
  ) {}

  /** No watching over SFTP (the protocol has no notifications); see the file comment. */
  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  private async run<T>(uri: vscode.Uri, action: (connection: SftpConnection, path: string) => Promise<T>): Promise<T> {
    try {
      return await this.sessions().run(sessionKeyOf(uri), (connection) => action(connection, remotePath(uri)));
    } catch (error) {
      throw toFileSystemError(error, uri);
    }
  }

  private fire(...events: vscode.FileChangeEvent[]): void {
    this.emitter.fire(events);
  }

  stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    return this.run(uri, async (connection, path) => {
      const own = await connection.lstat(path);
      if (own.type !== 'link') return { type: FILE_TYPES[own.type], size: own.size, mtime: own.mtimeMs, ctime: own.mtimeMs };
      // A link: what it leads to, marked as a link (a dangling one is a link to nothing).
      const target = await connection.statIfExists(path).catch(() => undefined);
      const type = vscode.FileType.SymbolicLink | (target && target.type !== 'link' ? FILE_TYPES[target.type] : vscode.FileType.Unknown);
      const info = target ?? own;
      return { type, size: info.size, mtime: info.mtimeMs, ctime: info.mtimeMs };
    });
  }

  readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    return this.run(uri, async (connection, path) => {
      const listing = await connection.list(path);
      if (listing.skipped.count > 0) this.onSkipped(listing.skipped, uri);
      return listing.entries.map((entry) => [entry.name, FILE_TYPES[entry.type]] as [string, vscode.FileType]);
    });
  }

  createDirectory(uri: vscode.Uri): Promise<void> {
    return this.run(uri, async (connection, path) => {
      if (await connection.statIfExists(path)) throw vscode.FileSystemError.FileExists(uri);
      await connection.mkdir(path);
      this.fire({ type: vscode.FileChangeType.Created, uri });
    });
  }

  readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return this.run(uri, async (connection, path) => new Uint8Array(await connection.readFile(path)));
  }

  writeFile(uri: vscode.Uri, content: Uint8Array, options: { create: boolean; overwrite: boolean }): Promise<void> {
    return this.run(uri, async (connection, path) => {
      const existing = await connection.statIfExists(path);
      if (existing?.type === 'directory') throw vscode.FileSystemError.FileIsADirectory(uri);
      if (!existing && !options.create) throw vscode.FileSystemError.FileNotFound(uri);
      if (existing && !options.overwrite) throw vscode.FileSystemError.FileExists(uri);
      const parent = path.slice(0, path.lastIndexOf('/')) || '/';
      if (!(await connection.statIfExists(parent))) throw vscode.FileSystemError.FileNotFound(uri.with({ path: parent }));
      await connection.writeFile(path, content);
      this.fire({ type: existing ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri });
    });
  }

  delete(uri: vscode.Uri, options: { recursive: boolean }): Promise<void> {
    return this.run(uri, async (connection, path) => {
      if (path === '/') throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('The volume root cannot be deleted.'));
      await this.deleteTree(connection, path, options.recursive, uri);
      this.fire({ type: vscode.FileChangeType.Deleted, uri });
    });
  }

  rename(oldUri: vscode.Uri, newUri: vscode.Uri, options: { overwrite: boolean }): Promise<void> {
    if (oldUri.authority !== newUri.authority) throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('Moving between volumes is not supported; copy instead.'));
    return this.run(oldUri, async (connection, path) => {
      const target = remotePath(newUri);
      const existing = await connection.lstatIfExists(target);
      if (existing && !options.overwrite) throw vscode.FileSystemError.FileExists(newUri);
      // SFTP v3 rename never replaces: the old target goes first when overwriting was asked for.
      if (existing) await this.deleteTree(connection, target, true, newUri);
      await connection.rename(path, target);
      this.fire({ type: vscode.FileChangeType.Deleted, uri: oldUri }, { type: vscode.FileChangeType.Created, uri: newUri });
    });
  }

  copy(source: vscode.Uri, destination: vscode.Uri, options: { overwrite: boolean }): Promise<void> {
    return this.run(source, async (connection, path) => {
      const target = remotePath(destination);
      const existing = await connection.lstatIfExists(target);
      if (existing && !options.overwrite) throw vscode.FileSystemError.FileExists(destination);
      if (existing) await this.deleteTree(connection, target, true, destination);
      const skipped = new (nasCore().SkippedNames)();
      try {
        await nasCore().copyRemote(connection, path, target, { skipped });
      } finally {
        if (skipped.count > 0) this.onSkipped(skipped, source);
      }
      this.fire({ type: vscode.FileChangeType.Created, uri: destination });
    });
  }

  /** Deletes on the volume, links removed as links (core/nas/remoteTree.ts); skipped names are reported. */
  private async deleteTree(connection: SftpConnection, path: string, recursive: boolean, uri: vscode.Uri): Promise<void> {
    const skipped = new (nasCore().SkippedNames)();
    try {
      await nasCore().deleteRemote(connection, path, recursive, { skipped });
    } finally {
      if (skipped.count > 0) this.onSkipped(skipped, uri);
    }
  }

  /** Tells the Explorer to re-read a folder (no watching over SFTP). */
  refresh(uri: vscode.Uri): void {
    this.fire({ type: vscode.FileChangeType.Changed, uri });
  }

  private uriOf(key: number, path: string): vscode.Uri {
    return vscode.Uri.from({ scheme: this.scheme, authority: String(key), path });
  }

  /** Announces files the extension wrote on a volume outside this provider (uploads, run syncs; see core/nas/writtenPaths). */
  announceWritten(key: number, written: readonly { path: string; replaced: boolean }[]): void {
    if (written.length === 0) return;
    const { created, changed } = nasCore().writtenPaths(written);
    this.fire(
      ...created.map((path) => ({ type: vscode.FileChangeType.Created, uri: this.uriOf(key, path) })),
      ...changed.map((path) => ({ type: vscode.FileChangeType.Changed, uri: this.uriOf(key, path) })),
    );
  }

  /**
   * Announces what lies under `folder` after something the extension started wrote there without telling
   * which files (an S3 transfer, a job's outputs): read the tree (at most `limit` entries) and announce it.
   */
  async announceTree(key: number, folder: string, limit = ANNOUNCED_TREE_LIMIT): Promise<void> {
    const written: { path: string; replaced: boolean }[] = [];
    const pending = [remotePath(this.uriOf(key, folder))];
    while (pending.length > 0 && written.length < limit) {
      const dir = pending.pop() as string;
      let entries: [string, vscode.FileType][];
      try {
        entries = await this.readDirectory(this.uriOf(key, dir));
      } catch {
        continue; // gone or unreadable: nothing to announce there
      }
      for (const [name, type] of entries.slice(0, limit - written.length)) {
        const path = `${dir === '/' ? '' : dir}/${name}`;
        if (type === vscode.FileType.Directory) pending.push(path);
        // Created for a new entry, Changed for an open editor's copy; the Explorer ignores what it knows.
        written.push({ path, replaced: false }, { path, replaced: true });
      }
    }
    this.announceWritten(key, written);
  }
}

/** Most entries announceTree reads: a bounded listing, whatever the volume holds. */
const ANNOUNCED_TREE_LIMIT = 2000;
