// Bridges VS Code's CancellationToken (progress notifications, QuickPicks) to the AbortSignal every core
// request takes, so pressing Cancel aborts the HTTP request itself.

import type * as vscode from 'vscode';

export function abortSignalFor(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) {
    controller.abort();
  } else {
    const listener = token.onCancellationRequested(() => {
      listener.dispose();
      controller.abort();
    });
  }
  return controller.signal;
}
