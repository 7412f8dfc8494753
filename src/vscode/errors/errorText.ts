// An error inside a sentence of the display language ("Could not load NAS volumes: {0}", a terminal's
// last line, a picker's validation message): the one classification (core/errors/classify.ts) worded by
// errorWords.ts, so a core error's keys, a platform refusal or a timeout read in the display language.
// The renderer for text surfaces; notifications and tree rows are describeError.ts, chat turns
// renderers.ts. Lint (eslint.config.mjs) keeps a raw `error.message` out of user-facing text elsewhere.

import * as vscode from 'vscode';
import { classifyError } from '../../core/errors/classify';
import { hintText, whatHappened } from './errorWords';

/** `error` in the display language, for a sentence that frames it; "Request cancelled" for a cancellation. */
export function errorText(error: unknown): string {
  const classification = classifyError(error, { surface: 'compute' });
  if (!classification) return vscode.l10n.t('Request cancelled');
  const what = whatHappened(classification);
  const hint = hintText(classification.hint);
  return hint ? `${what} ${hint}` : what;
}
