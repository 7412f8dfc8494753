// A local file or folder the workspace names (run.json's folder, an agent tool's file, a spec file's
// path) must be inside a workspace folder on disk, not only by its name: a symbolic link committed to a
// cloned repository (`src -> ~`, `data.bin -> ~/.ssh/id_rsa`) is not a way out of the folder
// (docs/security.md "Workspace content is untrusted").

import { realpath } from 'node:fs/promises';
import * as path from 'node:path';

/**
 * The real path of `target` (links resolved) when it is one of `roots` or inside one of them (their
 * links resolved too); undefined when it leads outside. Throws when `target` does not exist.
 */
export async function realPathInside(roots: readonly string[], target: string): Promise<string | undefined> {
  const real = await realpath(target);
  for (const root of roots) {
    const realRoot = await realpath(root).catch(() => undefined);
    if (realRoot === undefined) continue;
    const relative = path.relative(realRoot, real);
    if (relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))) return real;
  }
  return undefined;
}
