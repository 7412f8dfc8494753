// The command table: every command of the extension is an entry here, from the area that owns it
// (commands/, views/commands.ts, chat/commands.ts). `registerCommandTable` is the one place that
// calls `registerCommand`: each handler runs inside one guard, so a failure becomes a reportError
// notification (with Retry), never an unhandled rejection or VS Code's generic "command failed" popup.
// Each entry's factory receives its area's context once, at registration, and returns the handler
// (rust-analyzer's commands.ts pattern). The handler runs with the command as the origin of the
// requests it sends (core/requests/requestOrigin.ts), which the request history shows.

import * as vscode from 'vscode';
import type { CommandId } from '../commandIds';
import type { ReportError } from '../errors/reportError';
import { runWithOrigin } from '../../core/requests/requestOrigin';

export type CommandHandler = (...args: unknown[]) => unknown;

export interface CommandEntry<Context> {
  id: CommandId;
  /** What the command does, as a phrase for error messages: "Connect to the sandbox". */
  doing: string;
  create: (context: Context) => CommandHandler;
}

/** Registers the entries with the guard; the returned disposables unregister them. */
export function registerCommandTable<Context>(entries: readonly CommandEntry<Context>[], context: Context, reportError: ReportError): vscode.Disposable[] {
  const registered: vscode.Disposable[] = [];
  try {
    for (const entry of entries) {
      const handler = entry.create(context);
      registered.push(
        vscode.commands.registerCommand(entry.id, async (...args: unknown[]) => {
          try {
            return await runWithOrigin({ kind: 'command', command: entry.id }, () => handler(...args));
          } catch (error) {
            reportError(error, entry.doing, { retry: () => vscode.commands.executeCommand(entry.id, ...args) });
            return undefined;
          }
        }),
      );
    }
  } catch (error) {
    // A table that fails halfway (a factory throws, an id taken) is taken back whole: its area fails clean.
    for (const disposable of registered) disposable.dispose();
    throw error;
  }
  return registered;
}

/** Reads a profile id given as a command argument: `'id'` or `{ profileId: 'id' }` (tree items, links, tests). */
export function profileIdArgument(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'object' && value !== null) {
    const id = (value as { profileId?: unknown }).profileId;
    if (typeof id === 'string' && id !== '') return id;
  }
  return undefined;
}
