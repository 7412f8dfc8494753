// S3 ↔ NAS transfers as a kind (kinds/kindDescriptor.ts), shown as the NAS view's "Transfers" group: jobs
// from the transfer store (core/nas/transferState.ts) with the progress the platform reports — files and
// bytes done / total, rate, time left — status, direction, bucket and folder. Server text (names, error
// messages) goes into tooltips as plain text, cut to a bounded length.

import * as vscode from 'vscode';
import { Commands, Views } from '../commandIds';
import type { TransferRecord } from '../../core/nas/operations';
import { transferProgressView } from '../../core/nas/transferForm';
import { TRANSFER_STATE, isTransferMoving } from '../../core/nas/transferState';
import { formatBytes } from '../../core/nas/units';
import type { KindDescriptor, KindGroup, KindRow } from '../kinds/kindDescriptor';
import { counted } from '../ui/counts';
import { durationText } from '../ui/duration';

/** Longest piece of server text shown in a row or tooltip. */
const TEXT_LIMIT = 300;

export function serverText(value: unknown, limit = TEXT_LIMIT): string {
  const text = typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
  const head = text.length > limit ? `${text.slice(0, limit)}…` : text;
  return head.replace(/[\u0000-\u001f\u007f]+/g, ' ');
}

export function transferStatusName(status: string): string {
  switch (status) {
    case 'Queuing':
      return vscode.l10n.t('Queuing');
    case 'Pending':
      return vscode.l10n.t('Pending');
    case 'Running':
      return vscode.l10n.t('Running');
    case 'Stopped':
      return vscode.l10n.t('Stopped');
    case 'Completed':
      return vscode.l10n.t('Completed');
    case 'Error':
      return vscode.l10n.t('Failed');
    case 'Exception':
      return vscode.l10n.t('Exception');
    case 'Deleted':
      return vscode.l10n.t('Deleted');
    default:
      return serverText(status, 20);
  }
}

export function directionText(direction: number): string {
  return direction === 2 ? vscode.l10n.t('NAS → object storage') : vscode.l10n.t('Object storage → NAS');
}

/** "42 / 100 files · 20 MiB / 100 MiB · 2.00 MiB/s · 40 s left" (totals shown once the platform counted them). */
export function transferProgressText(record: TransferRecord): string {
  const view = transferProgressView(record);
  const parts: string[] = [];
  parts.push(view.filesTotal !== undefined ? `${view.filesDone.toLocaleString(vscode.env.language)} / ${counted(view.filesTotal, 'file')}` : counted(view.filesDone, 'file'));
  parts.push(view.bytesTotal !== undefined ? `${formatBytes(view.bytesDone)} / ${formatBytes(view.bytesTotal)}` : formatBytes(view.bytesDone));
  if (view.bytesPerSecond !== undefined) parts.push(vscode.l10n.t('{0}/s', formatBytes(view.bytesPerSecond)));
  if (view.secondsLeft !== undefined) parts.push(vscode.l10n.t('{0} left', durationText(view.secondsLeft, { round: 'up' })));
  return parts.join(' · ');
}

/** The row of one transfer job: status and progress; the tooltip in full. */
export function transferRow(record: TransferRecord): KindRow {
  const moving = isTransferMoving(record);
  const tooltip = new vscode.MarkdownString(undefined, false);
  tooltip.appendMarkdown('**').appendText(serverText(record.name, 80)).appendMarkdown(`** · id ${record.id}\n\n`);
  tooltip.appendText(`${vscode.l10n.t('Status: {0}', transferStatusName(record.status))}\n`);
  tooltip.appendText(`${directionText(record.direction)}: ${serverText(record.s3_supplier, 40)} ${serverText(record.s3_endpoint, 120)} / ${serverText(record.s3_bucket, 80)}/${serverText(record.s3_prefix, 120)}\n`);
  tooltip.appendText(`${vscode.l10n.t('Volume: {0}, folder {1}', serverText(record.storage_name, 80), serverText(record.nas_path || '/', 120))}\n`);
  tooltip.appendText(`${vscode.l10n.t('Progress: {0}', transferProgressText(record))}\n`);
  tooltip.appendText(`${vscode.l10n.t('Created: {0}', serverText(record.create_time, 40))}${record.end_time ? ` · ${vscode.l10n.t('Ended: {0}', serverText(record.end_time, 40))}` : ''}\n`);
  if (record.error_code || record.error_message) tooltip.appendText(`${serverText(record.error_code, 20)} ${serverText(record.error_message)}\n`);
  const failed = record.status === 'Error' || record.status === 'Exception';
  return {
    id: `nas/transfer/${record.id}`,
    label: serverText(record.name, 80) || `#${record.id}`,
    description: [transferStatusName(record.status), record.status === 'Queuing' || record.status === 'Pending' ? undefined : transferProgressText(record)].filter(Boolean).join(' · '),
    tooltip,
    icon: new vscode.ThemeIcon(
      moving ? 'sync~spin' : record.status === 'Completed' ? 'pass' : failed ? 'error' : 'debug-stop',
      record.status === 'Completed' ? new vscode.ThemeColor('testing.iconPassed') : failed ? new vscode.ThemeColor('testing.iconFailed') : undefined,
    ),
    contextValue: `nasTransfer.${record.status}`,
  };
}

export const TRANSFER_KIND: KindDescriptor<TransferRecord> = {
  state: TRANSFER_STATE as KindDescriptor<TransferRecord>['state'],
  viewId: Views.nas,
  refreshCommand: Commands.nasRefresh,
  what: () => vscode.l10n.t('S3 transfers'),
  emptyText: () => undefined,
  row: transferRow,
};

/** The NAS view's "Transfers" group row: "2 in progress" once the list was read. */
export const TRANSFERS_GROUP: KindGroup<TransferRecord> = {
  kind: TRANSFER_KIND,
  row: (records) => {
    const moving = records?.filter(isTransferMoving).length ?? 0;
    return {
      id: 'nas/transfers',
      label: vscode.l10n.t('Transfers'),
      description: !records ? undefined : moving > 0 ? vscode.l10n.t('{0} in progress', moving) : counted(records.length, 'transfer'),
      icon: new vscode.ThemeIcon('arrow-swap'),
      tooltip: vscode.l10n.t('S3 ↔ NAS transfer jobs (object storage to a volume and back)'),
      contextValue: 'nasTransfers',
    };
  },
  empty: () => ({ label: vscode.l10n.t('No transfers yet: Create Transfer… copies between object storage and a volume.'), command: { command: Commands.nasTransferCreate, title: vscode.l10n.t('Create Transfer…') } }),
  incomplete: () => vscode.l10n.t('Older transfers are not shown.'),
};
