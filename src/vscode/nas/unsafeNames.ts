// The warning for entries of a volume left out because their names cannot be used safely (`..`, `a/b`,
// NUL, control characters: core/nas/entryNames.ts). The names are shown escaped, never used; a folder
// the Explorer lists again warns once per session.

import * as vscode from 'vscode';
import type { Logger } from '../../core/log';

export interface UnsafeNames {
  count: number;
  shown: readonly string[];
}

/** Folders already warned about (bounded: a session does not keep every folder it listed). */
const warned = new Set<string>();
const MAX_REMEMBERED = 1000;

export function unsafeNamesText(unsafe: UnsafeNames): string {
  const names = unsafe.shown.join(', ') + (unsafe.count > unsafe.shown.length ? ', …' : '');
  return vscode.l10n.t('{0} entries on the volume were skipped: their names cannot be used safely as file names, so they were not opened or written: {1}', unsafe.count, names);
}

/** Warns (and logs): every time, or once per `key` (a folder the Explorer lists) in this session. */
export function warnUnsafeNames(logger: Logger, unsafe: UnsafeNames, key?: string): void {
  if (unsafe.count === 0) return;
  if (key !== undefined) {
    if (warned.has(key)) return;
    if (warned.size >= MAX_REMEMBERED) warned.clear();
    warned.add(key);
  }
  const text = unsafeNamesText(unsafe);
  logger.warn(`NAS: ${unsafe.count} entries with unusable names skipped: ${unsafe.shown.join(', ')}`);
  void vscode.window.showWarningMessage(text);
}
