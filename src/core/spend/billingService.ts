// What the platform billed: the only caller of the client for billing.byTime and billing.byTask
// (read-only, so nothing to wake).

import type { Paged } from '../compute/wire';
import { send, type ClientSource } from '../state/servicePorts';
import type { BillingQuery, BillingRecord, TaskBillingRecord } from './operations';

export class BillingService {
  constructor(private readonly client: ClientSource) {}

  /** Buckets over time; `task_ids` narrows to those tasks. */
  byTime(query: BillingQuery & { task_ids?: string }, signal?: AbortSignal): Promise<Paged<BillingRecord>> {
    return send(this.client, 'billing.byTime', query, signal);
  }

  byTask(query: BillingQuery, signal?: AbortSignal): Promise<Paged<TaskBillingRecord>> {
    return send(this.client, 'billing.byTask', query, signal);
  }
}
