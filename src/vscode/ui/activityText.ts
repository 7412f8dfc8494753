// The one activity rule's activities (core/spend/activity.ts) in the user's language, for the warnings of
// a held pause and the note of what a budget's auto-pause interrupted.

import * as vscode from 'vscode';
import type { Activity } from '../../core/spend/activity';
import { plain } from './notificationCenter';

export function activityText(activity: Activity): string {
  const label = plain(activity.label, 60);
  switch (activity.kind) {
    case 'kernel-busy':
      return vscode.l10n.t('a cell running in "{0}"', label);
    case 'terminal':
      return vscode.l10n.t('the open terminal "{0}"', label);
    case 'ssh':
      return vscode.l10n.t('the open SSH session "{0}"', label);
    case 'run-on-gpu':
      return vscode.l10n.t('the running Run on GPU "{0}"', label);
    case 'model-answering':
      return vscode.l10n.t('the model answering "{0}"', label);
  }
}

/** At most a few, then how many more. */
export function activitiesText(activities: readonly Activity[]): string {
  const shown = activities.slice(0, 3).map(activityText);
  return activities.length > 3 ? vscode.l10n.t('{0} and {1} more', shown.join(', '), activities.length - 3) : shown.join(', ');
}
