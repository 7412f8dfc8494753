// Reading spec files for the agent tools, confined to the host's folders: a relative path joins the
// first folder, an absolute one must lie inside one; ".." cannot leave them. The caller supplies the
// reading (editor workspace fs, or Node fs for the MCP server). Secret references resolve only to
// spec secrets the user stored (never environment variables): a file written by a model cannot pull
// a credential of the host process into a task.

import * as path from 'node:path';
import type { SpecFileAccess } from '../tools/ports';
import type { SecretRef } from './types';

export const MAX_SPEC_FILE_BYTES = 512 * 1024;

/** The absolute path of `requested` inside one of `roots`, or an error saying why not. */
export function confinedPath(requested: string, roots: readonly string[]): string {
  if (roots.length === 0) throw new Error('No folder is open: spec files are read from the open folder only.');
  const absolute = path.isAbsolute(requested) ? path.resolve(requested) : path.resolve(roots[0]!, requested);
  const inside = roots.some((root) => {
    const relative = path.relative(path.resolve(root), absolute);
    return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
  });
  if (!inside) throw new Error(`${requested} is outside the open folder; spec files are read from it only.`);
  return absolute;
}

/** How the host reads a local file: its size first (a huge file is refused without reading it), then its bytes. */
export interface LocalFiles {
  size(absolutePath: string): Promise<number>;
  read(absolutePath: string): Promise<Uint8Array>;
  /** Whether the path, links resolved, is still inside the roots (core/localLinks.ts); hosts on a real disk give it. */
  insideOnDisk?(absolutePath: string): Promise<boolean>;
}

export function confinedSpecFiles(roots: readonly string[], files: LocalFiles, storedSecret: (name: string) => Promise<string | undefined>, trusted: boolean, checkOffThread?: SpecFileAccess['checkOffThread']): SpecFileAccess {
  const tooLarge = (requested: string) => new Error(`${requested} is larger than ${MAX_SPEC_FILE_BYTES / 1024} KB.`);
  return {
    trusted,
    ...(checkOffThread ? { checkOffThread } : {}),
    async read(requested) {
      const absolute = confinedPath(requested, roots);
      if ((await files.size(absolute)) > MAX_SPEC_FILE_BYTES) throw tooLarge(requested);
      // A link committed to the folder that points outside it is outside.
      if (files.insideOnDisk && !(await files.insideOnDisk(absolute))) throw new Error(`${requested} is outside the open folder (a link leads out of it); spec files are read from it only.`);
      const bytes = await files.read(absolute);
      // The file may have grown between the two calls.
      if (bytes.byteLength > MAX_SPEC_FILE_BYTES) throw tooLarge(requested);
      return new TextDecoder().decode(bytes);
    },
    async resolveSecret(ref: SecretRef) {
      return 'secret' in ref ? storedSecret(ref.secret) : undefined;
    },
  };
}
