// The repository's TypeScript sources for tests that read code as text (who may call what): paths
// relative to the repository root with forward slashes, and each file's text, read once.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

/** The repository root, from a compiled test file (out/test/…). */
export const REPO_ROOT = path.resolve(__dirname, '../../..');

/** Every .ts/.tsx file under `dir` (a path relative to the root), as root-relative paths. */
export function typeScriptFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (full: string): void => {
    for (const name of readdirSync(full)) {
      const child = path.join(full, name);
      if (statSync(child).isDirectory()) walk(child);
      else if (/\.tsx?$/.test(name)) files.push(path.relative(REPO_ROOT, child).split(path.sep).join('/'));
    }
  };
  walk(path.join(REPO_ROOT, dir));
  return files;
}

/** Each file's text, keyed by its root-relative path. */
export function readSources(files: readonly string[]): Map<string, string> {
  return new Map(files.map((file) => [file, readFileSync(path.join(REPO_ROOT, file), 'utf8')]));
}
