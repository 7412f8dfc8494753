// Interface A's batch job routes (docs/platform.md "Batch jobs"): create, detail, search, stop, and
// the queue task-group reads (documented as still in development: the sandbox has no queues, so the
// group list is empty and a group detail is null, after the same parameter checks).

import type { Catalog } from '../compute/catalog';
import { invalidParam } from '../compute/codes';
import { paginate, queryList, queryPaging, requireInt, requireQueryInt } from '../compute/params';
import type { Route } from '../compute/routes';
import { parseJobCreate } from './jobBody';
import { checkStorageMounts } from '../compute/storageMounts';
import type { JobStore } from './jobs';

const JOB_STATUSES = ['Pending', 'Running', 'Paused', 'End'] as const;
const GROUP_STATUSES = ['Running', 'Waiting', 'End'] as const;

export function jobRoutes(catalog: Catalog, jobs: JobStore): Route[] {
  return [
    {
      method: 'POST',
      path: '/api/task/job/create',
      encryption: 'never',
      handle: ({ body }) => {
        const input = parseJobCreate(body, catalog.marks);
        checkStorageMounts(input.body.services, catalog.storage);
        return { task_id: jobs.create(input) };
      },
    },
    {
      method: 'GET',
      path: '/api/task/job/detail',
      encryption: 'never',
      handle: ({ query }) => jobs.detail(requireQueryInt(query, 'task_id', { min: 1 })),
    },
    {
      method: 'GET',
      path: '/api/task/job/search',
      encryption: 'never',
      handle: ({ query }) =>
        jobs.list({ statuses: queryList(query, 'status', JOB_STATUSES), searchValue: query.get('search_value') ?? undefined }, queryPaging(query)),
    },
    {
      method: 'POST',
      path: '/api/task/job/stop',
      encryption: 'never',
      handle: ({ body }) => (jobs.stop(requireInt(body, 'task_id', { min: 1 })), null),
    },
    {
      method: 'GET',
      path: '/api/job/queue/group/search',
      encryption: 'never',
      handle: ({ query }) => {
        requireQueryInt(query, 'queue_id', { min: 1 });
        queryList(query, 'status', GROUP_STATUSES);
        const paging = queryPaging(query);
        if (paging.pageSize > 50) throw invalidParam('page_size', `must be at most 50, got ${paging.pageSize}`);
        return paginate([], paging);
      },
    },
    {
      method: 'GET',
      path: '/api/job/queue/group/detail',
      encryption: 'never',
      handle: ({ query }) => (requireQueryInt(query, 'group_id', { min: 1 }), null),
    },
  ];
}
