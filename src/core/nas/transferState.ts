// S3 ↔ NAS transfer jobs as a kind of remote state (docs/nas.md, "Transfers"): the ONE function that
// reads the transfer list (`listTransfers`, every page up to a cap) and its StateDefinition
// (`TRANSFER_STATE`, one of the remote-state store's kinds: the NAS view's Transfers group reads it).

import type { ComputeClient } from '../compute/api';
import type { StateDefinition, Listing } from '../state/definition';
import type { TransferList, TransferRecord, TransferStatus } from './operations';
import type { NasApi } from './volumes';

export const TRANSFER_PAGE_SIZE = 100;
/** At most 5 pages (500 jobs) per read: older records beyond it are not shown (`complete` false). */
export const MAX_TRANSFER_PAGES = 5;

/** Queuing, Pending and Running change by themselves; the rest only by someone's action. */
export const MOVING_TRANSFER_STATUSES: readonly TransferStatus[] = ['Queuing', 'Pending', 'Running'];

export interface TransferListing extends Listing<TransferRecord> {
  /** The platform's counts over the whole account (all statuses but Deleted). */
  statusCounts: TransferList['status_counts'] | undefined;
}

/** Every transfer job (newest first, as the platform orders them), up to the page cap. */
export async function listTransfers(api: NasApi, signal?: AbortSignal): Promise<TransferListing> {
  const items: TransferRecord[] = [];
  let total = 0;
  let statusCounts: TransferList['status_counts'] | undefined;
  let complete = false;
  for (let page = 1; page <= MAX_TRANSFER_PAGES; page++) {
    const answer = await api.call('nas.transferList', { page, page_size: TRANSFER_PAGE_SIZE }, signal ? { signal } : undefined);
    statusCounts ??= answer.status_counts;
    total = answer.count;
    items.push(...answer.results.filter((record) => record.status !== 'Deleted'));
    if (answer.results.length < TRANSFER_PAGE_SIZE || page * TRANSFER_PAGE_SIZE >= answer.count) {
      complete = true;
      break;
    }
  }
  return { items, complete, total, statusCounts };
}

export function isTransferMoving(record: Pick<TransferRecord, 'status'>): boolean {
  return MOVING_TRANSFER_STATUSES.includes(record.status);
}

/** The fields whose change is news to the Transfers group (progress included). */
export function sameTransfer(a: TransferRecord, b: TransferRecord): boolean {
  return (
    a.status === b.status &&
    a.name === b.name &&
    a.ready_files === b.ready_files &&
    a.total_files === b.total_files &&
    a.transferred_bytes === b.transferred_bytes &&
    a.total_bytes === b.total_bytes &&
    a.bps === b.bps &&
    a.remaining_seconds === b.remaining_seconds &&
    a.error_code === b.error_code &&
    a.error_message === b.error_message
  );
}

export const TRANSFER_STATE: StateDefinition<TransferRecord, number, ComputeClient> = {
  kind: 'transfers',
  key: (record) => record.id,
  list: (api, signal) => listTransfers(api, signal),
  atRest: (records) => !records.some(isTransferMoving),
  equal: sameTransfer,
};
