// Shows a described error as a notification whose buttons (errors/errorActions.ts) run the fixing command. Every message goes
// through the Redactor first, and every error is logged (redacted) so "Show Logs" has the details.

import * as vscode from 'vscode';
import type { Logger, Redactor } from '../../core/log';
import { describeError } from './describeError';
import { actionTarget, retryTitle, runErrorAction } from './errorActions';

export interface ReportErrorOptions {
  /** Offered as a "Retry" button when the failure is one that repeating could fix. */
  retry?: () => unknown;
}

export type ReportError = (error: unknown, context: string, options?: ReportErrorOptions) => void;

export function createReportError(logger: Logger, redactor: Redactor, hasProfile: () => boolean): ReportError {
  return (error, context, options) => {
    const report = describeError(error, context, options?.retry !== undefined);
    logger.error(redactor.redact(`${context}: ${errorDetails(error)}`));
    if (!report) return;
    const situation = { hasProfile: hasProfile() };
    const buttons = report.actions.map((action) => ({ action, title: actionTarget(action, situation)?.title ?? retryTitle() }));
    const message = redactor.redact(report.message);
    const titles = buttons.map((button) => button.title);
    const shown =
      report.severity === 'warning'
        ? vscode.window.showWarningMessage(message, ...titles)
        : vscode.window.showErrorMessage(message, ...titles);
    void shown.then(
      async (picked) => {
        const chosen = buttons.find((button) => button.title === picked);
        if (chosen) await runErrorAction(chosen.action, { hasProfile: hasProfile() }, options?.retry);
      },
      (showError: unknown) => logger.warn(`Could not show an error notification: ${String(showError)}`),
    );
  };
}

/** Name, message, likely cause and the cause chain, for the log (redacted by the caller). */
function errorDetails(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const parts = [`${error.name}: ${error.message}`];
  const cause = (error as { likelyCause?: { kind?: unknown; detail?: unknown } }).likelyCause;
  // eslint-disable-next-line no-restricted-syntax -- the log's words: errorDetails feeds logger.error only
  if (cause) parts.push(`likely cause ${String(cause.kind)}: ${String(cause.detail)}`);
  let inner: unknown = error.cause;
  for (let depth = 0; inner instanceof Error && depth < 3; depth++) {
    // eslint-disable-next-line no-restricted-syntax -- the log's words, as above
    parts.push(`caused by ${inner.name}: ${inner.message}`);
    inner = inner.cause;
  }
  return parts.join('; ');
}
