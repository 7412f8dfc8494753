// A length of time in the display language: the one core formatter (core/duration.ts) worded through
// the bundle, by its English template as every core key is (docs/localization.md "Durations").
import * as vscode from 'vscode';
import { duration, type DurationShape } from '../../core/duration';
import { wordText } from '../../core/errors/messages';

export type { DurationShape } from '../../core/duration';

/** "3 min 05 s" / "3 分 05 秒"; see core/duration.ts for the shapes. */
export function durationText(seconds: number, shape?: DurationShape): string {
  return wordText(duration(seconds, shape), (template, args) => vscode.l10n.t(template, ...args));
}
