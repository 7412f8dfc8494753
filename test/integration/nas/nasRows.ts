// The NAS view's rows as the in-host tests read them: the kind tree's lead (summary), item and group rows.
import type * as vscode from 'vscode';
import type { NasVolume, TransferRecord } from '../../../src/core/nas/operations';

type Row = vscode.TreeItem & { kind: string; of?: string; item?: unknown };

/** The volume rows, each with its volume. */
export function volumeRows(rows: readonly Row[]): (vscode.TreeItem & { item: NasVolume })[] {
  return rows.filter((row) => row.kind === 'item' && row.of === 'volumes') as (vscode.TreeItem & { item: NasVolume })[];
}

export function summaryRow(rows: readonly Row[]): vscode.TreeItem | undefined {
  return rows.find((row) => row.kind === 'lead' && row.id === 'nas/summary');
}

export function transfersGroup<R extends Row>(rows: readonly R[]): R | undefined {
  return rows.find((row) => row.kind === 'group' && row.id === 'nas/transfers');
}

/** A transfer row's record (undefined for the group's message rows). */
export type TransferRow = vscode.TreeItem & { item?: TransferRecord };
