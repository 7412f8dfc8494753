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
  'job.create': () => vscode.l10n.t('Create batch job'),
  'job.detail': () => vscode.l10n.t('Batch job detail'),
  'job.list': () => vscode.l10n.t('List batch jobs'),
  'job.stop': () => vscode.l10n.t('Stop batch job'),
  'jobQueue.groups': () => vscode.l10n.t('List queue task groups'),
  'jobQueue.group': () => vscode.l10n.t('Queue task group detail'),
  'metal.catalogueSingle': () => vscode.l10n.t('Bare-metal catalogue (single machines)'),
  'metal.catalogueGroups': () => vscode.l10n.t('Bare-metal catalogue (network groups)'),
  'metal.buy': () => vscode.l10n.t('Rent bare-metal machines'),
  'metal.orders': () => vscode.l10n.t('Bare-metal orders'),
  'metal.rentedSingle': () => vscode.l10n.t('Rented machines (single)'),
  'metal.rentedGroups': () => vscode.l10n.t('Rented machines (network groups)'),
  'metal.detail': () => vscode.l10n.t('Machine detail and login'),
  'metal.setAutoRenew': () => vscode.l10n.t('Turn on auto-renew'),
  'metal.cancelAutoRenew': () => vscode.l10n.t('Turn off auto-renew'),
  'nas.summary': () => vscode.l10n.t('NAS usage summary'),
  'nas.dictionaries': () => vscode.l10n.t('NAS regions and classes'),
  'nas.preCreate': () => vscode.l10n.t('NAS creatable configs'),
  'nas.list': () => vscode.l10n.t('List NAS volumes'),
  'nas.create': () => vscode.l10n.t('Create NAS volume'),
  'nas.expand': () => vscode.l10n.t('Expand NAS volume'),
  'nas.rename': () => vscode.l10n.t('Rename NAS volume'),
  'nas.delete': () => vscode.l10n.t('Delete NAS volume'),
  'nas.sftpObtain': () => vscode.l10n.t('Open SFTP session'),
  'nas.sftpDestroy': () => vscode.l10n.t('Close SFTP session'),
  'nas.transferList': () => vscode.l10n.t('List S3 transfers'),
  'nas.transferDetail': () => vscode.l10n.t('S3 transfer detail'),
  'nas.transferStop': () => vscode.l10n.t('Stop S3 transfer'),
  'nas.transferDelete': () => vscode.l10n.t('Delete S3 transfer record'),
  'nas.transferCreate': () => vscode.l10n.t('Create S3 transfer'),
  'nas.transferRetry': () => vscode.l10n.t('Retry S3 transfer'),
  'nas.transferCheck': () => vscode.l10n.t('Check S3 connection'),
  'preheat.regions': () => vscode.l10n.t('Image preheat regions'),
  'preheat.create': () => vscode.l10n.t('Create image preheat'),
  'preheat.detail': () => vscode.l10n.t('Image preheat detail'),
  'preheat.list': () => vscode.l10n.t('List image preheats'),
  'preheat.stop': () => vscode.l10n.t('Stop image preheat'),
};

/** The operation's title in the display language (its catalog title when this table lacks it). */
export function operationTitle(spec: { id: string; title: string }): string {
  return Object.hasOwn(TITLES, spec.id) ? TITLES[spec.id]!() : spec.title;
}
