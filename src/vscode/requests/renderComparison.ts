// The comparison document: the first difference between what the user pasted and what this extension
// would send, every other difference, and our side for reference. Values are masked excerpts (the core
// made them); here they are only placed where no backtick can break out.

import * as vscode from 'vscode';
import type { PreparedRequest } from '../../core/compute/api';
import type { SignComparison, SignDifference } from '../../core/requests/signCompare';
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
    comparison.differences.forEach((difference, index) => out.push(`${index + 1}. **${difference.where}** (${difference.kind}): ${inline(difference.explanation)}`));
    out.push('');
  }
  if (comparison.notes.length > 0) {
    out.push(`## ${vscode.l10n.t('Notes')}`, '', ...comparison.notes.map((note) => `- ${inline(note)}`), '');
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
  const lines = [`**${difference.where}** (${difference.kind}): ${inline(difference.explanation)}`, ''];
  if (difference.theirs !== undefined) lines.push(`- ${vscode.l10n.t('Pasted')}: \`${inline(difference.theirs)}\``);
  if (difference.ours !== undefined) lines.push(`- ${vscode.l10n.t('This extension')}: \`${inline(difference.ours)}\``);
  return lines;
}

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
