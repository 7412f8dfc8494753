// Loads one of the repository's .mjs scripts (scripts/…) from a test compiled to CommonJS.
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The repository root, from out/test/unit/scripts/ (or out-<name>/…). */
export const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');

export async function importScript<T>(relativePath: string): Promise<T> {
  return (await import(pathToFileURL(path.join(repoRoot, relativePath)).href)) as T;
}
