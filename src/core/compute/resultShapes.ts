// The shapes of compute results the extension relies on, checked where they enter (after the envelope):
// a success envelope with missing or wrong-typed `data` becomes a ProtocolError that names the operation
// and the field, never a TypeError deep in a tree. Only what the code reads is checked; extra fields pass.
// Lists that the platform may send as null are read as empty. One zod schema per result (docs/shapes.md).

import { z } from 'zod';
import { ProtocolError } from '../errors';
import type { OperationId } from './api';
import { NAS_RESULT_SHAPES } from '../nas/resultShapes';
import { MACHINE_RESULT_SHAPES } from '../machines/resultShapes';
import { plainTerminalText } from '../terminalText';
import { anything, list, number, optional, orWhenMissing, paged, record, string } from './wireShapes';

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
const billingBucket = record({ billing_coin: number, discount_coin: optional(number), start_time: string, end_time: string });

// Batch jobs (src/core/jobs): the fields the status model reads.
const jobStatus = record({ status: string, succeeded_pods: optional(number), failed_pods: optional(number) });
const job = record({ task_id: number, task_name: optional(string), status: string, job_status: jobStatus, services: list(record({ service_name: string }), true) });

// Image preheat (src/core/preheat): the fields the view and the progress read.
const preheatTask = record({
  task_id: number,
  task_name: string,
  status: optional(string),
  points: optional(number),
  available_points: optional(number),
  used_points: optional(number),
  region_cache_info: list(record({ region: string, status: string }), true),
  services: list(record({ service_name: string, service_image: string }), true),
});

/** The docs type `results` as one object; an array is expected (docs/platform.md): accept both. */
function oneOrMany(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const results = (value as { results?: unknown }).results;
  return results === null || results === undefined || Array.isArray(results) ? value : { ...value, results: [results] };
}

const RESULT_SHAPES: Record<OperationId, z.ZodType> = {
  'resource.search': paged(device),
  'task.list': paged(task),
  'task.create': record({ task_id: number }),
  'task.detail': task,
  'task.pause': anything,
  'task.recover': anything,
  'task.stop': anything,
  'task.changePoints': anything,
  // An empty log may come as null. Servers colour their logs for a terminal: kept here, so the job
  // terminal shows the colour; every other surface makes them plain through src/core/terminalText.ts.
  // `logsFrom` is the client's own (jsonAnswer.ts keepTail), never the server's.
  'node.log': orWhenMissing(record({ logs: orWhenMissing(string, ''), logsFrom: orWhenMissing(number, 0) }), { logs: '', logsFrom: 0 }),
  'node.list': paged(node),
  'storage.list': paged(storage),
  'storage.encryptCheck': anything,
  'task.update': anything,
  // An empty event list may come as null.
  'node.events': orWhenMissing(
    record({ events: list(record({ reason: string, message: string.transform(plainTerminalText), type: string, event_time: string }), true) }),
    { events: [] },
  ),
  'node.delete': anything,
  'billing.byTime': paged(billingBucket),
  'billing.byTask': paged(record({ task_id: number, task_name: optional(string), billing_coin: number, discount_coin: optional(number) })),
  'job.create': record({ task_id: number }),
  'job.detail': job,
  'job.list': paged(job),
  'job.stop': anything,
  'jobQueue.groups': z.preprocess(oneOrMany, paged(record({ group_id: number, group_name: string, status: string }))),
  'jobQueue.group': optional(record({ group_id: number, group_name: string })).transform((value) => value ?? null),
  'preheat.regions': record({ regions: list(record({ region: string, region_name: string }), true) }),
  'preheat.create': record({ task_id: number }),
  'preheat.detail': optional(preheatTask).transform((value) => value ?? null),
  'preheat.list': paged(preheatTask),
  'preheat.stop': anything,
  ...NAS_RESULT_SHAPES,
  ...MACHINE_RESULT_SHAPES,
};

const EXPECTED: Record<string, string> = { string: 'a string', number: 'a number', boolean: 'true or false', object: 'an object', array: 'an array' };

function describeValue(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.length > 40 ? 'a long string' : `the string ${JSON.stringify(value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  return `a ${typeof value}`;
}

function pathOf(path: readonly PropertyKey[]): string {
  return path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('');
}

/**
 * Checks `data` of a successful `operation` against what the extension reads, and returns it (with null
 * lists read as empty). Throws a ProtocolError naming the operation and the field otherwise; the message
 * quotes at most 40 characters of server text.
 */
export function checkResult(operation: OperationId, title: string, data: unknown): unknown {
  const parsed = RESULT_SHAPES[operation].safeParse(data, { reportInput: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const expected = issue?.code === 'invalid_type' ? (EXPECTED[issue.expected] ?? issue.expected) : 'valid';
  throw new ProtocolError(
    `${title}: the platform's answer is not in the expected shape: \`data${pathOf(issue?.path ?? [])}\` should be ${expected} but is ${describeValue(issue?.input)}.`,
  );
}
