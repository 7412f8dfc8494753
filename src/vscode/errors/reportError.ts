// Shows a described error as a notification whose buttons run the fixing command. Every message goes
// through the Redactor first, and every error is logged (redacted) so "Show Logs" has the details.

import * as vscode from 'vscode';
import type { Logger, Redactor } from '../../core/log';
import { Commands } from '../commandIds';
import type { SecretKind } from '../services';
import { describeError, type ErrorAction } from './describeError';

export interface ReportErrorOptions {
  /** Offered as a "Retry" button when the failure is one that repeating could fix. */
  retry?: () => unknown;
}

export type ReportError = (error: unknown, context: string, options?: ReportErrorOptions) => void;

const SET_SECRET_COMMAND: Record<SecretKind, string> = {
  apiToken: Commands.secretsSetToken,
  privateKey: Commands.secretsSetPrivateKey,
  platformPublicKey: Commands.secretsSetPlatformPublicKey,
  modelApiKey: Commands.secretsSetModelApiKey,
};

const SET_SECRET_TITLE: Record<SecretKind, string> = {
  apiToken: 'Set API Token',
  privateKey: 'Set Private Key',
  platformPublicKey: 'Set Platform Public Key',
  modelApiKey: 'Set Model API Key',
};

export function createReportError(logger: Logger, redactor: Redactor, hasProfile: () => boolean): ReportError {
  return (error, context, options) => {
    const report = describeError(error, context, options?.retry !== undefined);
    logger.error(redactor.redact(`${context}: ${errorDetails(error)}`));
    if (!report) return;
    const buttons = report.actions.map((action) => ({ action, title: actionTitle(action) }));
    const message = redactor.redact(report.message);
    const titles = buttons.map((button) => button.title);
    const shown =
      report.severity === 'warning'
        ? vscode.window.showWarningMessage(message, ...titles)
        : vscode.window.showErrorMessage(message, ...titles);
    void shown.then(
      async (picked) => {
        const chosen = buttons.find((button) => button.title === picked);
        if (chosen) await runAction(chosen.action, options, hasProfile);
      },
      (showError: unknown) => logger.warn(`Could not show an error notification: ${String(showError)}`),
    );
  };
}

function actionTitle(action: ErrorAction): string {
  switch (action.kind) {
    case 'showLogs':
      return 'Show Logs';
    case 'retry':
      return 'Retry';
    case 'openSignRequest':
      return 'Open Sign Request';
    case 'configureProfile':
      return 'Configure Profile';
    case 'createProfile':
      return 'Create Profile';
    case 'connectSandbox':
      return 'Connect to Local Sandbox';
    case 'setSecret':
      return SET_SECRET_TITLE[action.secret];
    case 'showFingerprints':
      return 'Show Key Fingerprints';
  }
}

async function runAction(action: ErrorAction, options: ReportErrorOptions | undefined, hasProfile: () => boolean): Promise<void> {
  switch (action.kind) {
    case 'showLogs':
      await vscode.commands.executeCommand(Commands.showLogs);
      return;
    case 'retry':
      await options?.retry?.();
      return;
    case 'openSignRequest':
      await vscode.commands.executeCommand(Commands.requestSign, action.operation ? { operation: action.operation } : undefined);
      return;
    case 'configureProfile':
      await vscode.commands.executeCommand(hasProfile() ? Commands.profileEdit : Commands.profileCreate);
      return;
    case 'createProfile':
      await vscode.commands.executeCommand(Commands.profileCreate);
      return;
    case 'connectSandbox':
      await vscode.commands.executeCommand(Commands.profileConnectSandbox);
      return;
    case 'setSecret':
      await vscode.commands.executeCommand(SET_SECRET_COMMAND[action.secret]);
      return;
    case 'showFingerprints':
      await vscode.commands.executeCommand(Commands.keysShowFingerprints);
      return;
  }
}

/** Name, message, likely cause and the cause chain, for the log (redacted by the caller). */
function errorDetails(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const parts = [`${error.name}: ${error.message}`];
  const cause = (error as { likelyCause?: { kind?: unknown; detail?: unknown } }).likelyCause;
  if (cause) parts.push(`likely cause ${String(cause.kind)}: ${String(cause.detail)}`);
  let inner: unknown = error.cause;
  for (let depth = 0; inner instanceof Error && depth < 3; depth++) {
    parts.push(`caused by ${inner.name}: ${inner.message}`);
    inner = inner.cause;
  }
  return parts.join('; ');
}
