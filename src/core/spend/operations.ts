// The billing operations: each entry's params and result types sit beside it (CONTRIBUTING.md,
// "Add a platform operation"); src/core/compute/catalog.ts assembles the area catalogs into one.


import { declare, paging, str } from '../compute/operationEntry';
import type { Paged } from '../compute/wire';

export type BillingRange = 'hour' | 'day' | 'week' | 'month';

export interface BillingQuery {
  range: BillingRange;
  /** RFC 3339 with an offset, e.g. 2026-01-01T00:00:00+08:00. */
  start_time: string;
  end_time: string;
  page?: number;
  page_size?: number;
}

/** Spend in one time bucket; amounts in points. */
export interface BillingRecord {
  billing_coin: number;
  discount_coin: number;
  start_time: string;
  end_time: string;
}

/** Spend of one task over the queried window; amounts in points. */
export interface TaskBillingRecord {
  task_id: number;
  task_type: 'Deployment' | 'Development' | null;
  task_name: string | null;
  billing_coin: number;
  discount_coin: number;
}

export const SPEND_OPERATIONS = {
  'billing.byTime': declare<{ params: BillingQuery & { task_ids?: string }; result: Paged<BillingRecord> }>({
    title: 'Spend by time bucket',
    effect: 'read',
    method: 'GET',
    path: '/api/billing/get_billing_record',
    encryption: 'never',
    idempotent: true,
    fields: [str('range', true), str('start_time', true), str('end_time', true), str('task_ids'), ...paging],
  }),
  'billing.byTask': declare<{ params: BillingQuery; result: Paged<TaskBillingRecord> }>({
    title: 'Spend by task',
    effect: 'read',
    method: 'GET',
    path: '/api/billing/get_task_billing_record',
    encryption: 'never',
    idempotent: true,
    fields: [str('range', true), str('start_time', true), str('end_time', true), ...paging],
  }),
};
