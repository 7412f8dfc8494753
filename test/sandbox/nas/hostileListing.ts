// A hostile SFTP server's listings, laid over a volume's real files (the sandbox's SFTP server asks this
// first): extra entries whose names no file system could hold (`../../../../x`, `a/b`, NUL, control
// characters), each served from a real file on the volume (`backing`); folders whose chain never ends
// (`/deep`, `/deep/d`, `/deep/d/d`, …); and folders whose listing never ends.

import { posix } from 'node:path';

export interface HostileEntry {
  /** The name as listed (anything, "/" and NUL included). */
  name: string;
  type: 'file' | 'directory';
  /** Real volume path whose content is served for it (a client reading `<folder>/<name>` gets this). */
  backing?: string;
}

export type HostileListing =
  /** `folder`'s listing gains `entries`. */
  | { kind: 'entries'; storageId: number; folder: string; entries: HostileEntry[] }
  /** `folder` and every folder under it list one more folder, `d`, for ever. */
  | { kind: 'endless-chain'; storageId: number; folder: string }
  /** `folder` lists new file names for ever (a listing that never ends). */
  | { kind: 'endless-listing'; storageId: number; folder: string };

const normal = (path: string): string => posix.normalize(`/${path}`).replace(/(.)\/+$/, '$1');

export class HostileListings {
  private readonly listings: HostileListing[] = [];

  add(listing: HostileListing): void {
    this.listings.push({ ...listing, folder: normal(listing.folder) });
  }

  clear(): void {
    this.listings.length = 0;
  }

  /** Extra entries for a listing of `folder`. */
  extraEntries(storageId: number, folder: string): HostileEntry[] {
    const at = normal(folder);
    return this.listings.flatMap((l) => (l.kind === 'entries' && l.storageId === storageId && l.folder === at ? l.entries : []));
  }

  /** The real volume path to serve for `path`, when `path` names a hostile entry with a backing file. */
  backing(storageId: number, path: string): string | undefined {
    const at = normal(path);
    for (const listing of this.listings) {
      if (listing.kind !== 'entries' || listing.storageId !== storageId) continue;
      for (const entry of listing.entries) if (entry.backing !== undefined && normal(`${listing.folder}/${entry.name}`) === at) return entry.backing;
    }
    return undefined;
  }

  /** Whether `path` is a folder only this overlay has (part of an endless chain or an endless listing). */
  virtualFolder(storageId: number, path: string): 'chain' | 'listing' | undefined {
    const at = normal(path);
    for (const listing of this.listings) {
      if (listing.storageId !== storageId) continue;
      if (listing.kind === 'endless-chain' && (at === listing.folder || at.startsWith(`${listing.folder}/`))) return 'chain';
      if (listing.kind === 'endless-listing' && at === listing.folder) return 'listing';
    }
    return undefined;
  }
}
