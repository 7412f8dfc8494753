// Upload / download progress in a cancellable notification: bytes (of the total), rate and time left. What
// each transfer reported is also kept in a small log (the last transfers' reports, bounded), which the NAS
// area's API hands to the in-host tests: they check what the notification was told, not a stand-in.

import * as vscode from 'vscode';
import type { TransferProgress } from '../../core/nas/progress';
import type { TransferResult } from '../../core/nas/transfer';
import { formatBytes } from '../../core/nas/units';
import { counted } from '../ui/counts';
import { durationText } from '../ui/duration';

export interface ProgressReport {
  /** The notification's title ("Uploading to …"). */
  title: string;
  /** The message shown under it. */
  message: string;
  bytes: number;
  totalBytes: number | undefined;
}

const KEPT_REPORTS = 1000;

/** The reports the transfer notifications were given, oldest first; at most the last 1,000. */
export class ProgressLog {
  private readonly kept: ProgressReport[] = [];
  add(report: ProgressReport): void {
    this.kept.push(report);
    if (this.kept.length > KEPT_REPORTS) this.kept.splice(0, this.kept.length - KEPT_REPORTS);
  }
  reports(): readonly ProgressReport[] {
    return [...this.kept];
  }
}

export function progressMessage(progress: TransferProgress): string {
  const parts = [progress.totalBytes !== undefined ? `${formatBytes(progress.bytes)} / ${formatBytes(progress.totalBytes)}` : formatBytes(progress.bytes)];
  if (progress.bytesPerSecond > 0) parts.push(vscode.l10n.t('{0}/s', formatBytes(progress.bytesPerSecond)));
  if (progress.secondsLeft !== undefined) parts.push(vscode.l10n.t('{0} left', durationText(progress.secondsLeft, { round: 'up' })));
  if (progress.filesTotal !== undefined && progress.filesTotal > 1) parts.push(vscode.l10n.t('{0} of {1}', progress.filesDone.toLocaleString(vscode.env.language), counted(progress.filesTotal, 'file')));
  return parts.join(' · ');
}

/** Runs a transfer under a cancellable notification with bytes, rate and time left; undefined when cancelled. */
export async function withTransferProgress(
  log: ProgressLog,
  title: string,
  run: (signal: AbortSignal, report: (p: TransferProgress) => void) => Promise<TransferResult>,
): Promise<TransferResult | undefined> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    const controller = new AbortController();
    token.onCancellationRequested(() => controller.abort());
    let lastFraction = 0;
    try {
      return await run(controller.signal, (p) => {
        const fraction = p.totalBytes ? p.bytes / p.totalBytes : 0;
        const message = progressMessage(p);
        progress.report({ message, increment: Math.max(0, (fraction - lastFraction) * 100) });
        log.add({ title, message, bytes: p.bytes, totalBytes: p.totalBytes });
        lastFraction = fraction;
      });
    } catch (error) {
      if (controller.signal.aborted) return undefined;
      throw error;
    }
  });
}
