// The full operations catalog (docs/platform.md), assembled from the area catalogs. Adding an operation
// is one `declare<…>(…)` entry in its area's operations.ts; the ids and their params/result types follow.
//
// Reads and state-setting actions (pause, recover, stop, set node count) are retried: repeating them
// cannot do more than the first attempt did, though the platform refuses the repeat as an invalid
// transition when the first one took effect (the client then confirms via task detail: desiredState.ts).
// Create is never retried: a retry after a lost response would start a second task.

import type { OperationEntry, TypesOf } from './operationEntry';
import { RESOURCE_OPERATIONS } from '../resources/operations';
import { SPEND_OPERATIONS } from '../spend/operations';
import { STORAGE_OPERATIONS } from '../storage/operations';
import { TASK_OPERATIONS } from '../tasks/operations';
import { JOB_OPERATIONS } from '../jobs/operations';
import { NAS_OPERATIONS } from '../nas/operations';
import { PREHEAT_OPERATIONS } from '../preheat/operations';
import { MACHINE_OPERATIONS } from '../machines/operations';

export type { OperationEntry } from './operationEntry';

/** Keyed by operation id, in the order wizards and Sign Request list them. */
export const OPERATION_CATALOG = { ...RESOURCE_OPERATIONS, ...TASK_OPERATIONS, ...STORAGE_OPERATIONS, ...SPEND_OPERATIONS, ...JOB_OPERATIONS, ...NAS_OPERATIONS, ...PREHEAT_OPERATIONS, ...MACHINE_OPERATIONS };

/** Every operation the catalog knows, by a stable id used by commands and tests. */
export type OperationId = keyof typeof OPERATION_CATALOG;

/** Parameters (query for GET, JSON body for POST) and `data` results per operation. */
export type OperationTypes = TypesOf<typeof OPERATION_CATALOG>;

// Every entry is a full catalog entry (checked here so an area file cannot drift).
OPERATION_CATALOG satisfies { readonly [Id in OperationId]: OperationEntry };
