// The shapes of compute results the extension relies on, checked where they enter (after the envelope):
// a success envelope with missing or wrong-typed `data` becomes a ProtocolError that names the operation
// and the field, never a TypeError deep in a tree. Only what the code reads is checked; extra fields pass.
// Lists that the platform may send as null are read as empty. One pass over the data (linear).

import { ProtocolError } from '../errors';
import type { OperationId } from './api';
import { nasResultShapes } from '../nas/resultShapes';
import { machineResultShapes } from '../machines/resultShapes';
import { plainTerminalText } from '../terminalText';

export class ShapeError extends Error {
  constructor(
    readonly path: string,
    readonly expected: string,
    readonly actual: unknown,
  ) {
    super(`${path} should be ${expected}`);
  }
}

export type Check = (value: unknown, path: string) => unknown;

function describeValue(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.length > 40 ? 'a long string' : `the string ${JSON.stringify(value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  return `a ${typeof value}`;
}

const string: Check = (value, path) => {
  if (typeof value !== 'string') throw new ShapeError(path, 'a string', value);
  return value;
};

const number: Check = (value, path) => {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ShapeError(path, 'a number', value);
  return value;
};

const boolean: Check = (value, path) => {
  if (typeof value !== 'boolean') throw new ShapeError(path, 'true or false', value);
  return value;
};

/** null or absent becomes undefined; anything else must pass `check`. */
function optional(check: Check): Check {
  return (value, path) => (value === null || value === undefined ? value : check(value, path));
}

function record(fields: Record<string, Check>): Check {
  return (value, path) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ShapeError(path, 'an object', value);
    const object = value as Record<string, unknown>;
    for (const [name, check] of Object.entries(fields)) {
      const checked = check(object[name], `${path}.${name}`);
      if (checked !== object[name]) object[name] = checked;
    }
    return object;
  };
}

/** An array of items; null or absent is read as an empty list when `emptyIfMissing`. */
function list(item: Check, emptyIfMissing = false): Check {
  return (value, path) => {
    if ((value === null || value === undefined) && emptyIfMissing) return [];
    if (!Array.isArray(value)) throw new ShapeError(path, 'an array', value);
    value.forEach((entry, index) => {
      const checked = item(entry, `${path}[${index}]`);
      if (checked !== entry) value[index] = checked;
    });
    return value;
  };
}

/** `{count, results}`; a missing count is the length of the results. */
function paged(item: Check): Check {
  const shape = record({ results: list(item), count: optional(number) });
  return (value, path) => {
    const page = shape(value, path) as { results: unknown[]; count?: number | null };
    if (typeof page.count !== 'number') page.count = page.results.length;
    return page;
  };
}

const region = record({ region: string, region_name: optional(string), price: optional(number), inventory: optional(number) });
const device = record({ device_name: string, regions: list(region, true) });
const service = record({ service_name: string, remote_ports: list(record({ service_port: number, url: optional(string) }), true) });
const task = record({
  task_id: number,
  task_name: optional(string),
  status: string,
  resources: list(record({}), true),
  services: list(service, true),
});
const node = record({ point_id: number, name: string, status: string });
const storage = record({ storage_id: number, storage_name: string, status: optional(string) });
const anything: Check = (value) => value;
const billingBucket = record({ billing_coin: number, discount_coin: optional(number), start_time: string, end_time: string });

// Batch jobs (src/core/jobs): the fields the status model reads.
const jobStatus = record({ status: string, succeeded_pods: optional(number), failed_pods: optional(number) });
const job = record({ task_id: number, task_name: optional(string), status: string, job_status: jobStatus, services: list(record({ service_name: string }), true) });

const RESULT_SHAPES: Record<OperationId, Check> = {
  'resource.search': paged(device),
  'task.list': paged(task),
  'task.create': record({ task_id: number }),
  'task.detail': task,
  'task.pause': anything,
  'task.recover': anything,
  'task.stop': anything,
  'task.changePoints': anything,
  'node.list': paged(node),
  'node.log': (value, path) => {
    // An empty log may come as null.
    if (value === null || value === undefined) return { logs: '' };
    // Servers colour their logs for a terminal: kept here, so the job terminal shows the colour; every
    // other surface makes them plain through src/core/terminalText.ts.
    return record({ logs: (logs, at) => (logs === null || logs === undefined ? '' : string(logs, at)) })(value, path);
  },
  'storage.list': paged(storage),
  'storage.encryptCheck': anything,
  'task.update': anything,
  // An empty event list may come as null.
  'node.events': (value, path) =>
    value === null || value === undefined ? { events: [] } : record({ events: list(record({ reason: string, message: (text, at) => plainTerminalText(string(text, at) as string), type: string, event_time: string }), true) })(value, path),
  'node.delete': anything,
  'billing.byTime': paged(billingBucket),
  'billing.byTask': paged(record({ task_id: number, task_name: optional(string), billing_coin: number, discount_coin: optional(number) })),
  'job.create': record({ task_id: number }),
  'job.detail': job,
  'job.list': paged(job),
  'job.stop': anything,
  // The docs type `results` as one object; an array is expected (docs/platform.md): accept both.
  'jobQueue.groups': (value, path) => {
    const page = record({ count: optional(number) })(value, path) as { results?: unknown; count?: number };
    if (page.results !== null && page.results !== undefined && !Array.isArray(page.results)) page.results = [page.results];
    return paged(record({ group_id: number, group_name: string, status: string }))(page, path);
  },
  'jobQueue.group': (value, path) => (value === null || value === undefined ? null : record({ group_id: number, group_name: string })(value, path)),
  ...nasResultShapes({ string, number, boolean, optional, record, list, paged, anything }),
  ...machineResultShapes({ string, number, boolean, optional, record, list, paged, anything }),
};

/**
 * Checks `data` of a successful `operation` against what the extension reads, and returns it (with null
 * lists read as empty). Throws a ProtocolError naming the operation and the field otherwise.
 */
export function checkResult(operation: OperationId, title: string, data: unknown): unknown {
  try {
    return RESULT_SHAPES[operation](data, 'data');
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    return failShape(title, error);
  }
}

function failShape(title: string, error: ShapeError): never {
  throw new ProtocolError(
    `${title}: the platform's answer is not in the expected shape: \`${error.path}\` should be ${error.expected} but is ${describeValue(error.actual)}.`,
  );
}
