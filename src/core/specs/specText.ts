// Spec files as text: a spec (or a plan's view of a task) written as JSON or YAML, and the ids Deploy
// remembers written into an existing file in place, keeping its format, comments and layout.

import { applyEdits, modify } from 'jsonc-parser';
import { parseDocument, stringify } from 'yaml';
import type { SpecFormat } from './types';

/** A new spec file's text in `format` (JSON with two-space indentation, or YAML). */
export function specFileText(value: unknown, format: SpecFormat): string {
  return format === 'yaml' ? stringify(value) : `${JSON.stringify(value, null, 2)}\n`;
}

/** A value as YAML, for the read-only plan documents (live and desired side of the diff). */
export function yamlText(value: unknown): string {
  return stringify(value);
}

/** `text` with "profile" and "taskId" set at the top level, edited in place; `eol` is the file's line ending. */
export function withDeployedIds(text: string, format: SpecFormat, values: { taskId: number; profile: string }, eol: string): string {
  if (format === 'json') {
    const formattingOptions = { insertSpaces: true, tabSize: 2, eol };
    const next = applyEdits(text, modify(text, ['profile'], values.profile, { formattingOptions }));
    return applyEdits(next, modify(next, ['taskId'], values.taskId, { formattingOptions }));
  }
  const yamlDocument = parseDocument(text);
  yamlDocument.set('profile', values.profile);
  yamlDocument.set('taskId', values.taskId);
  return yamlDocument.toString();
}

/** `text` with only "profile" set (a label-based file moved to the profile id), edited in place. */
export function withProfileId(text: string, format: SpecFormat, profileId: string, eol: string): string {
  if (format === 'json') return applyEdits(text, modify(text, ['profile'], profileId, { formattingOptions: { insertSpaces: true, tabSize: 2, eol } }));
  const yamlDocument = parseDocument(text);
  yamlDocument.set('profile', profileId);
  return yamlDocument.toString();
}
