// The line a finished upload or download ends with, in its direction (issue 27: a download said "files
// sent"): "Uploaded …" / "Downloaded …" (docs/localization.md, Glossary).
import * as vscode from 'vscode';
import type { TransferResult } from '../../core/nas/transfer';
import { formatBytes } from '../../core/nas/units';
import { counted } from '../ui/counts';

/** What an upload sent or a download received (the result counts both as `sent`), in its direction. */
export function resultMessage(result: Pick<TransferResult, 'sent' | 'skipped' | 'bytes'>, direction: 'upload' | 'download'): string {
  const moved = counted(result.sent, 'file');
  const skipped = result.skipped.toLocaleString(vscode.env.language);
  return direction === 'upload'
    ? vscode.l10n.t('Uploaded {0} ({1}), {2} skipped.', moved, formatBytes(result.bytes), skipped)
    : vscode.l10n.t('Downloaded {0} ({1}), {2} skipped.', moved, formatBytes(result.bytes), skipped);
}
