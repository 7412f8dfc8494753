// Reading spec files for the agent tools, confined to the host's folders: a relative path joins the
// first folder, an absolute one must lie inside one; ".." cannot leave them. The caller supplies the
// reading (editor workspace fs, or Node fs for the MCP server). Secret references resolve only to
// spec secrets the user stored (never environment variables): a file written by a model cannot pull
// a credential of the host process into a task.

import * as path from 'node:path';
import type { SpecFileAccess } from '../tools/specTools';
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

export function confinedSpecFiles(
  roots: readonly string[],
  readFile: (absolutePath: string) => Promise<Uint8Array>,
  storedSecret: (name: string) => Promise<string | undefined>,
): SpecFileAccess {
  return {
    async read(requested) {
      const bytes = await readFile(confinedPath(requested, roots));
      if (bytes.byteLength > MAX_SPEC_FILE_BYTES) throw new Error(`${requested} is larger than ${MAX_SPEC_FILE_BYTES / 1024} KB.`);
      return new TextDecoder().decode(bytes);
    },
    async resolveSecret(ref: SecretRef) {
      return 'secret' in ref ? storedSecret(ref.secret) : undefined;
    },
  };
}
