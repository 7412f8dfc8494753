// Registers a compute command inside one guard: an unexpected failure becomes a reportError
// notification with actions, never an unhandled rejection or VS Code's generic "command failed".
import * as vscode from 'vscode';
import type { ExtensionServices } from '../services';

export function registerGuarded(
  services: ExtensionServices,
  id: string,
  /** What the command does, for the error message, e.g. "Pause task". */
  doing: string,
  handler: (arg?: unknown) => unknown,
): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (arg?: unknown) => {
    try {
      return await handler(arg);
    } catch (error) {
      services.reportError(error, doing);
      return undefined;
    }
  });
}
