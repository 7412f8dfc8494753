// What the Explorer must hear after the extension wrote files on a volume (docs/nas.md: SFTP has no
// change notifications, so our own writes are announced). VS Code's Explorer re-reads a shown folder only
// when it hears of a child it does not know (created) or of a deletion; a change event reloads an open
// editor. So every written file is "created" (or "changed" when it replaced a copy), and so is each
// folder above it, which may be new too.

export interface WrittenPaths {
  created: string[];
  changed: string[];
}

/** Volume paths (absolute, POSIX) to announce for `written`; each path once. */
export function writtenPaths(written: readonly { path: string; replaced: boolean }[]): WrittenPaths {
  const created = new Set<string>();
  const changed = new Set<string>();
  for (const { path, replaced } of written) {
    let end = path.lastIndexOf('/');
    while (end > 0) {
      const folder = path.slice(0, end);
      if (created.has(folder)) break; // its ancestors are in already
      created.add(folder);
      end = path.lastIndexOf('/', end - 1);
    }
    (replaced ? changed : created).add(path);
  }
  return { created: [...created], changed: [...changed] };
}
