// The words for a mount path's problem, shared by the create wizard's mount step and Update Task.

import * as vscode from 'vscode';
import { DEFAULT_TARGET_DIR, type TargetDirProblem } from '../../core/nas/mounts';

/** The words for a mount path's problem (core/nas/mounts.ts). */
export function targetDirText(problem: TargetDirProblem | undefined): string | undefined {
  switch (problem) {
    case undefined:
      return undefined;
    case 'relative':
      return vscode.l10n.t('Use an absolute path, e.g. {0}.', DEFAULT_TARGET_DIR);
    case 'root':
      return vscode.l10n.t('Not the container root: choose a folder such as {0}.', DEFAULT_TARGET_DIR);
    case 'dots':
      return vscode.l10n.t('"." and ".." are not allowed in the path.');
    case 'characters':
      return vscode.l10n.t('No spaces, backslashes or control characters in the path.');
    case 'too-long':
      return vscode.l10n.t('This is too long.');
  }
}
