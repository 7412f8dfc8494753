// Catalog operations' titles in the display language. The catalog (src/core/<area>/operations.ts) keeps
// English titles for the log, the MCP tools and the agent; what Sign Request, its history and its
// pickers show comes from here. An operation added later without an entry shows its English title
// until one is added (CONTRIBUTING.md "Add a platform operation").

import * as vscode from 'vscode';

const TITLES: Record<string, () => string> = {
  'resource.search': () => vscode.l10n.t('Search GPU resources'),
  'billing.byTime': () => vscode.l10n.t('Spend by time bucket'),
  'billing.byTask': () => vscode.l10n.t('Spend by task'),
  'storage.list': () => vscode.l10n.t('List storage'),
  'storage.encryptCheck': () => vscode.l10n.t('Check storage credentials'),
  'task.list': () => vscode.l10n.t('List tasks'),
  'task.create': () => vscode.l10n.t('Create task'),
  'task.detail': () => vscode.l10n.t('Task detail'),
  'task.pause': () => vscode.l10n.t('Pause task'),
  'task.recover': () => vscode.l10n.t('Recover task'),
  'task.stop': () => vscode.l10n.t('Stop (delete) task'),
  'task.changePoints': () => vscode.l10n.t('Change node count'),
  'node.list': () => vscode.l10n.t('List task nodes'),
  'node.log': () => vscode.l10n.t('Node log'),
  'task.update': () => vscode.l10n.t('Update task (whole overwrite)'),
  'node.events': () => vscode.l10n.t('Node events'),
  'node.delete': () => vscode.l10n.t('Delete (reschedule) one node'),
};

/** The operation's title in the display language (its catalog title when this table lacks it). */
export function operationTitle(spec: { id: string; title: string }): string {
  return Object.hasOwn(TITLES, spec.id) ? TITLES[spec.id]!() : spec.title;
}
