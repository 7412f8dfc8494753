// The platform's status words (English values in its answers) in the display language, for the statuses
// that have no kind of their own in ui/format.ts (tasks): nodes and NAS volumes. A sentence never shows
// the raw value (docs/localization.md, "Glossary").
import * as vscode from 'vscode';
import type { TaskNode } from '../../core/compute/api';
import { shownValue } from '../../core/shownValue';

/** A node status in the display language (the platform's values are English words). */
export function nodeStatusLabel(status: TaskNode['status'] | string): string {
  switch (status) {
    case 'Running':
      return vscode.l10n.t('Running');
    case 'Pending':
      return vscode.l10n.t('Pending');
    case 'Failed':
      return vscode.l10n.t('Failed');
    case 'Succeeded':
      return vscode.l10n.t('Succeeded');
    case 'End':
      return vscode.l10n.t('Ended');
    default:
      return vscode.l10n.t('Unknown');
  }
}

/** A NAS volume's status in the display language; a status the platform adds later is shown as it came (one short plain line). */
export function volumeStatusName(status: string): string {
  switch (status) {
    case 'Creating':
      return vscode.l10n.t('Creating');
    case 'Active':
      return vscode.l10n.t('Active');
    case 'Expanding':
      return vscode.l10n.t('Expanding');
    case 'Deleting':
      return vscode.l10n.t('Deleting');
    case 'Deleted':
      return vscode.l10n.t('Deleted');
    case 'Exception':
      return vscode.l10n.t('Exception');
    default:
      return shownValue(status, 40);
  }
}
