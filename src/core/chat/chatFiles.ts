// The storage port of the chat history: a few whole-file operations on one folder, so the history format
// (conversationStore.ts) is host-neutral and tested on plain Node. nodeChatFiles is the implementation
// the extension uses (on the extension's global storage folder) and the tests use on a temp folder.

import { appendFile, mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A file of the history is larger than the reader accepts: it is not read (a damaged or foreign file). */
export class ChatFileTooLargeError extends Error {
  constructor(
    readonly file: string,
    readonly bytes: number,
    readonly maxBytes: number,
  ) {
    super(`${file} is ${bytes} bytes, more than the ${maxBytes} the chat history reads`);
  }
}

export interface ChatFiles {
  /**
   * The file's text, or undefined when it does not exist. A file larger than `maxBytes` is not read:
   * ChatFileTooLargeError (everything read from the history folder is bounded).
   */
  read(name: string, maxBytes: number): Promise<string | undefined>;
  /** Replaces the file atomically (a reader sees the old or the new text, never a mix). Returns the byte size. */
  write(name: string, text: string): Promise<number>;
  /** Appends to the file (creating it); a crash may lose the last line, never earlier ones. */
  append(name: string, text: string): Promise<void>;
  /** Removes the file (no error when it is already gone). */
  remove(name: string): Promise<void>;
  /** Moves a file to another name (atomic on one volume); false when the source does not exist. */
  move(from: string, to: string): Promise<boolean>;
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
    async read(name, maxBytes) {
      let handle;
      try {
        handle = await open(path(name), 'r');
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
      try {
        const size = (await handle.stat()).size;
        if (size > maxBytes) throw new ChatFileTooLargeError(name, size, maxBytes);
        // Read at most maxBytes + 1 even if the file grew since the stat.
        const buffer = Buffer.alloc(Math.min(size, maxBytes) + 1);
        let length = 0;
        for (;;) {
          const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
          if (bytesRead === 0) break;
          length += bytesRead;
          if (length === buffer.length) break;
        }
        if (length > maxBytes) throw new ChatFileTooLargeError(name, length, maxBytes);
        return buffer.subarray(0, length).toString('utf8');
      } finally {
        await handle.close();
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
    async move(from, to) {
      const target = path(to);
      await mkdir(join(target, '..'), { recursive: true });
      try {
        await rename(path(from), target);
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
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
