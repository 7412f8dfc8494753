// The ports a host gives the tools (ToolContext in api.ts): spec files and NAS files. Here, apart from the
// tools that use them, so the context type does not import the tools (no import circle).

import type { RemoteEntry } from '../nas/sftpConnection';
import type { SecretRef, SpecFormat } from '../specs/types';
import type { SpecTextCheck } from '../specs/workerProtocol';

/** How a host gives the tools spec files; absent when it cannot (then the tools say so). */
export interface SpecFileAccess {
  /** The file's text; refuses paths outside the host's folders. */
  read(path: string): Promise<string>;
  resolveSecret(ref: SecretRef): Promise<string | undefined>;
  /**
   * Whether the files' folder is trusted (VS Code's Workspace Trust; the MCP server's folder is the one
   * its user started it in). Untrusted files are read and planned, never applied (docs/security.md).
   */
  readonly trusted: boolean;
  /**
   * Checks a file's text off the host's thread (the editor's validation worker), so a hostile file never
   * stalls the extension host; absent where the host has no other thread to spare (the MCP server).
   */
  checkOffThread?(text: string, format: SpecFormat): Promise<SpecTextCheck>;
  /** Writes the created task id into the file (Deploy's memory); optional. */
  rememberTaskId?(path: string, taskId: number): Promise<void>;
}

/** What the NAS tools need from the host. */
export interface NasFileAccess {
  /** A folder's entries; names that cannot be used safely are left out and counted (escaped, core/nas/entryNames.ts). */
  list(storageId: number, remotePath: string, signal?: AbortSignal): Promise<{ entries: RemoteEntry[]; skipped: { count: number; shown: readonly string[] } }>;
  /** Refuses (throws) files over `maxBytes` before reading them. */
  read(storageId: number, remotePath: string, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array>;
  /** A local file inside the host's folders (throws outside them, or for a folder). */
  localFile(requested: string): Promise<{ absolutePath: string; size: number; name: string }>;
  upload(storageId: number, absolutePath: string, remotePath: string, overwrite: boolean, signal?: AbortSignal): Promise<{ sent: number; skipped: number; bytes: number }>;
}
