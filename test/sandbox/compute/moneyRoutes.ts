// Interface A routes for money and node care (docs/money.md): the two billing queries,
// task update (whole overwrite), node events and node delete.

import type { SandboxClock } from '../clock';
import { billingByTask, billingByTime } from './billing';
import type { Catalog } from './catalog';
import { requireInt, requireQueryInt } from './params';
import type { Route } from './routes';
import { checkStorageMounts } from './storageMounts';
import { parseTaskUpdate } from './taskBody';
import type { TaskStore } from './tasks';

export function moneyRoutes(catalog: Catalog, tasks: TaskStore, clock: SandboxClock): Route[] {
  return [
    {
      method: 'GET',
      path: '/api/billing/get_billing_record',
      encryption: 'never',
      handle: ({ query }) => billingByTime(tasks.usage, clock, query),
    },
    {
      method: 'GET',
      path: '/api/billing/get_task_billing_record',
      encryption: 'never',
      handle: ({ query }) => billingByTask(tasks.usage, clock, query),
    },
    {
      method: 'POST',
      path: '/api/deployment/task/update',
      encryption: 'never',
      handle: ({ body }) => {
        const { taskId, input } = parseTaskUpdate(body, catalog.marks);
        checkStorageMounts(input.services, catalog.storage);
        tasks.update(taskId, input);
        return null;
      },
    },
    {
      method: 'GET',
      path: '/api/deployment/task/pod_event',
      encryption: 'never',
      handle: ({ query }) => ({ events: tasks.events(requireQueryInt(query, 'point_id', { min: 1 })) }),
    },
    {
      method: 'POST',
      path: '/api/deployment/task/delete_pod',
      encryption: 'never',
      // Like the docs' example, the success answer has no `data` key (more §1): clients must read it as null.
      handle: ({ body }) => void tasks.deleteNode(requireInt(body, 'point_id', { min: 1 })),
    },
  ];
}
