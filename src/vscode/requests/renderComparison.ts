// The comparison document: the first difference between what the user pasted and what this extension
// would send, every other difference, and our side for reference. Values are masked excerpts (the core
// made them); here they are only placed where no backtick can break out.

import * as vscode from 'vscode';
import type { PreparedRequest } from '../../core/compute/api';
import { fieldWords, type DifferenceKind, type SignComparison, type SignDifference } from '../../core/requests/signCompare';
import { coreWords } from '../errors/errorWords';
import { fence } from './markdownBlocks';
import { modeName } from '../ui/format';

export function renderComparison(comparison: SignComparison, prepared: PreparedRequest, title: string): string {
  const out: string[] = [`# ${vscode.l10n.t('Compare with a failing request: {0}', title)}`, ''];
  out.push(vscode.l10n.t('Pasted: {0}. Compared with what this profile would send now ({1} mode).', kindLabel(comparison.pastedKind), modeName(prepared.mode)), '');
  out.push(`## ${vscode.l10n.t('First difference')}`, '');
  if (comparison.first) out.push(...renderDifference(comparison.first), '');
  else if (comparison.pastedKind === 'reply' || comparison.pastedKind === 'signature' || comparison.pastedKind === 'empty') out.push(vscode.l10n.t('Nothing to compare field by field (see the notes).'), '');
  else out.push(vscode.l10n.t('None: the pasted request signs the same fields the same way (timestamps and signatures differ on every request).'), '');
  if (comparison.differences.length > 1) {
    out.push(`## ${vscode.l10n.t('All differences')}`, '');
    comparison.differences.forEach((difference, index) => out.push(`${index + 1}. ${heading(difference)}: ${inline(differenceText(difference))}`));
    out.push('');
  }
  if (comparison.notes.length > 0) {
    out.push(`## ${vscode.l10n.t('Notes')}`, '', ...comparison.noteWords.map((note) => `- ${inline(coreWords(note))}`), '');
  }
  out.push(`## ${vscode.l10n.t('What this extension sends')}`, '');
  out.push(fence('text', `${prepared.method} ${prepared.pathWithQuery}`), '');
  out.push(fence('http', Object.entries(prepared.displayHeaders).map(([name, value]) => `${name}: ${value}`).join('\n')), '');
  if (prepared.stringToSignForDisplay !== undefined) {
    out.push(vscode.l10n.t('The string to sign as a JSON string literal (token masked):'), '', fence('json', JSON.stringify(prepared.stringToSignForDisplay)), '');
  }
  return out.join('\n');
}

function renderDifference(difference: SignDifference): string[] {
  const lines = [`${heading(difference)}: ${inline(differenceText(difference))}`, ''];
  if (difference.theirsWords !== undefined) lines.push(`- ${vscode.l10n.t('Pasted')}: ${inline(coreWords(difference.theirsWords))}`);
  else if (difference.theirs !== undefined) lines.push(`- ${vscode.l10n.t('Pasted')}: \`${inline(difference.theirs)}\``);
  if (difference.ours !== undefined) lines.push(`- ${vscode.l10n.t('This extension')}: \`${inline(difference.ours)}\``);
  return lines;
}

/** Where a difference is: a field in words ("版本"), a header by its name (it is what is sent). */
export function differenceWhere(difference: SignDifference): { text: string; isName: boolean } {
  const isField = FIELDS.has(difference.where) && !difference.kind.startsWith('header-');
  return isField ? { text: coreWords(fieldWords(difference.where as FieldOrSeparator)), isName: false } : { text: difference.where, isName: true };
}

/** A difference's explanation in the display language. */
export function differenceText(difference: SignDifference): string {
  return coreWords(difference.words);
}

/** "**version** (version as a number)". */
function heading(difference: SignDifference): string {
  const where = differenceWhere(difference);
  return `**${where.isName ? `\`${inline(where.text)}\`` : where.text}** (${DIFFERENCE_KINDS[difference.kind]()})`;
}

type FieldOrSeparator = Parameters<typeof fieldWords>[0];
const FIELDS: ReadonlySet<string> = new Set<FieldOrSeparator>(['path', 'version', 'timestamp', 'token', 'body', 'separator']);

const DIFFERENCE_KINDS: { readonly [K in DifferenceKind]: () => string } = {
  'field-count': () => vscode.l10n.t('number of fields'),
  'field-order': () => vscode.l10n.t('order of fields'),
  separator: () => vscode.l10n.t('field separator'),
  path: () => vscode.l10n.t('different path'),
  'query-order': () => vscode.l10n.t('order of query parameters'),
  'query-escape-case': () => vscode.l10n.t('case of %-escapes'),
  'query-plus': () => vscode.l10n.t('space encoded as +'),
  'query-unencoded': () => vscode.l10n.t('query encoding'),
  'query-double-encoded': () => vscode.l10n.t('query encoded twice'),
  'query-value': () => vscode.l10n.t('query value'),
  'version-numeric': () => vscode.l10n.t('version as a number'),
  'version-value': () => vscode.l10n.t('version value'),
  'timestamp-seconds': () => vscode.l10n.t('timestamp in seconds'),
  'timestamp-format': () => vscode.l10n.t('timestamp format'),
  'timestamp-expired': () => vscode.l10n.t('timestamp expired'),
  'token-whitespace': () => vscode.l10n.t('whitespace around the token'),
  'token-bearer': () => vscode.l10n.t('Bearer prefix'),
  'token-value': () => vscode.l10n.t('another token'),
  'body-empty-object': () => vscode.l10n.t('empty body signed as {} or null'),
  'body-missing': () => vscode.l10n.t('body missing'),
  'body-json-whitespace': () => vscode.l10n.t('JSON whitespace'),
  'body-key-order': () => vscode.l10n.t('order of JSON keys'),
  'body-trailing-newline': () => vscode.l10n.t('trailing line break'),
  'body-value': () => vscode.l10n.t('body content'),
  'header-name': () => vscode.l10n.t('header name'),
  'header-missing': () => vscode.l10n.t('header missing'),
  'header-unexpected': () => vscode.l10n.t('unexpected header'),
};

function kindLabel(kind: SignComparison['pastedKind']): string {
  switch (kind) {
    case 'string-to-sign':
      return vscode.l10n.t('a string to sign');
    case 'headers':
      return vscode.l10n.t('request headers');
    case 'reply':
      return vscode.l10n.t("the server's reply");
    case 'signature':
      return vscode.l10n.t('a signature');
    case 'empty':
      return vscode.l10n.t('nothing');
  }
}

function inline(text: string): string {
  return text.replace(/`/g, "'").replace(/[\r\n]+/g, ' ');
}
