// The table of every command this layer registers (the compute and chat areas register their own).
// Each handler runs inside one guard: a failure becomes a reportError notification, never an
// unhandled rejection or VS Code's generic "command failed" popup.

import * as vscode from 'vscode';
import type { Services } from '../extensionServices';
import type { CommandEntry } from './commandTable';
import { keyCommands } from './keyCommands';
import { profileCommands } from './profileCommands';
import { requestCommands } from './requestCommands';
import { secretCommands } from './secretCommands';

export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  ...profileCommands,
  ...secretCommands,
  ...keyCommands,
  ...requestCommands,
};

export function registerCommands(services: Services): vscode.Disposable[] {
  return Object.entries(COMMANDS).map(([id, entry]) => {
    const handler = entry.create(services);
    return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await handler(...args);
      } catch (error) {
        services.reportError(error, entry.doing, { retry: () => vscode.commands.executeCommand(id, ...args) });
        return undefined;
      }
    });
  });
}
