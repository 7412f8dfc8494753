// The storage port of the chat history: a few whole-file operations on one folder, so the history format
// (conversationStore.ts) is host-neutral and tested on plain Node. nodeChatFiles is the implementation
// the extension uses (on the extension's global storage folder) and the tests use on a temp folder.

import { appendFile, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface ChatFiles {
  /** The file's text, or undefined when it does not exist. */
  read(name: string): Promise<string | undefined>;
  /** Replaces the file atomically (a reader sees the old or the new text, never a mix). Returns the byte size. */
  write(name: string, text: string): Promise<number>;
  /** Appends to the file (creating it); a crash may lose the last line, never earlier ones. */
  append(name: string, text: string): Promise<void>;
  /** Removes the file (no error when it is already gone). */
  remove(name: string): Promise<void>;
  /** Names of the files in a sub-folder ('' for the root); empty when the folder does not exist. */
  list(folder: string): Promise<string[]>;
  /** Size in bytes, or undefined when the file does not exist. */
  size(name: string): Promise<number | undefined>;
}

function isNotFound(error: unknown): boolean {
  return (error as { code?: unknown }).code === 'ENOENT';
}

let tempCounter = 0;

export function nodeChatFiles(root: string): ChatFiles {
  const path = (name: string): string => join(root, ...name.split('/'));
  return {
    async read(name) {
      try {
        return await readFile(path(name), 'utf8');
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },
    async write(name, text) {
      const target = path(name);
      const temp = `${target}.${process.pid}.${++tempCounter}.tmp`;
      const bytes = Buffer.from(text, 'utf8');
      await mkdir(join(target, '..'), { recursive: true });
      await writeFile(temp, bytes);
      try {
        await rename(temp, target);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
      return bytes.length;
    },
    async append(name, text) {
      const target = path(name);
      await mkdir(join(target, '..'), { recursive: true });
      await appendFile(target, text, 'utf8');
    },
    async remove(name) {
      await rm(path(name), { force: true });
    },
    async list(folder) {
      try {
        return await readdir(folder ? path(folder) : root);
      } catch (error) {
        if (isNotFound(error)) return [];
        throw error;
      }
    },
    async size(name) {
      try {
        return (await stat(path(name))).size;
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },
  };
}
