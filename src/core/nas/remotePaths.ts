// Paths on a volume: POSIX and absolute ("/data/train.csv").

import { posix } from 'node:path';

/** Joins and normalizes volume path parts into one absolute path without a trailing "/". */
export function remoteJoin(...parts: string[]): string {
  return posix.normalize(`/${parts.join('/')}`).replace(/\/+$/, '') || '/';
}
