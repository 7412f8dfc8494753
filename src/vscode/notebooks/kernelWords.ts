// The kernel client's problems (src/core/notebooks/errors.ts) in the user's language, with what to do.

import * as vscode from 'vscode';
import type { JupyterProblem } from '../../core/notebooks/errors';

export function problemText(problem: JupyterProblem, status: number | undefined): string {
  switch (problem) {
    case 'unreachable':
      return vscode.l10n.t('Nothing answers at the task\'s Jupyter URL. Is the task running?');
    case 'not-ready':
      return vscode.l10n.t('The task\'s Jupyter server is still starting. Run the cell again in a moment.');
    case 'not-jupyter':
      return vscode.l10n.t('The task\'s URL does not answer as a Jupyter server. Check that the task runs Jupyter on port 8888.');
    case 'wrong-token':
      return vscode.l10n.t('The Jupyter server refused the token. Pick the task again to enter its token.');
    case 'no-websockets':
      return vscode.l10n.t('The task\'s public URL does not pass WebSockets, which a kernel needs. Reach the Jupyter server through SSH port forwarding instead (a rented machine).');
    case 'kernel-dead':
      return vscode.l10n.t('The kernel is gone from the Jupyter server. Run the cell again to start a new one.');
    case 'http':
      return vscode.l10n.t('The Jupyter server answered HTTP {0}.', status ?? 0);
  }
}
