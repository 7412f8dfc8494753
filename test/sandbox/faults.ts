// The fault queue shared by both interfaces: tests (or POST /__sandbox/faults) inject faults,
// and each handler takes the first one matching the request it is about to answer.

import type { Fault, FaultKind, FaultQueue, FaultTarget } from './types';

const FAULT_TARGETS: readonly FaultTarget[] = ['compute', 'inference'];
const FAULT_KINDS: readonly FaultKind[] = [
  'latency',
  'status',
  'html',
  'reset',
  'envelope',
  'error-200',
  'slow-first-token',
  'drop-midstream',
  'malformed-chunk',
];

interface QueuedFault {
  fault: Fault;
  remaining: number;
}

export function createFaultQueue(): FaultQueue {
  const queue: QueuedFault[] = [];
  return {
    inject(fault) {
      const count = fault.count ?? 1;
      if (!Number.isInteger(count) || count < 1) throw new RangeError(`fault count must be a positive integer, got ${String(count)}`);
      queue.push({ fault: { ...fault }, remaining: count });
    },
    take(target, path) {
      const index = queue.findIndex((queued) => queued.fault.target === target && path.startsWith(queued.fault.pathPrefix ?? ''));
      const queued = queue[index];
      if (!queued) return undefined;
      queued.remaining -= 1;
      if (queued.remaining === 0) queue.splice(index, 1);
      return queued.fault;
    },
    clear() {
      queue.length = 0;
    },
    pending() {
      return queue.map((queued) => ({ ...queued.fault, count: queued.remaining }));
    },
  };
}

/** Validates a fault that arrived as JSON over HTTP; throws a TypeError naming the bad field. */
export function parseFault(value: unknown): Fault {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TypeError('fault must be a JSON object');
  const record = value as Record<string, unknown>;
  const target = record.target;
  const kind = record.kind;
  if (!FAULT_TARGETS.includes(target as FaultTarget)) throw new TypeError(`fault.target must be one of ${FAULT_TARGETS.join(', ')}`);
  if (!FAULT_KINDS.includes(kind as FaultKind)) throw new TypeError(`fault.kind must be one of ${FAULT_KINDS.join(', ')}`);
  const fault: Fault = { target: target as FaultTarget, kind: kind as FaultKind };
  for (const name of ['count', 'status', 'retryAfterSeconds', 'delayMs', 'afterChunks'] as const) {
    const field = record[name];
    if (field === undefined) continue;
    if (typeof field !== 'number' || !Number.isInteger(field) || field < 0) throw new TypeError(`fault.${name} must be a non-negative integer`);
    fault[name] = field;
  }
  for (const name of ['pathPrefix', 'code', 'message'] as const) {
    const field = record[name];
    if (field === undefined) continue;
    if (typeof field !== 'string') throw new TypeError(`fault.${name} must be a string`);
    fault[name] = field;
  }
  return fault;
}
