// The two billing queries (docs/money.md): spend per time bucket and spend per task, in
// points, from the usage ledger. Strict like the platform's typed server: `range` from its enum,
// both times RFC 3339 with an offset (a raw "+" arrives as a space and is refused, naming %2B),
// end after start, `task_ids` only on the per-bucket query. Buckets follow +08:00 calendar lines.
// Charges are posted every 5 minutes, so the current cycle is not in any record yet.

import type { SandboxClock } from '../clock';
import { invalidParam } from './codes';
import { paginate, queryPaging } from './params';
import type { UsageLedger } from './usage';

const RANGES = ['hour', 'day', 'week', 'month'] as const;
type Range = (typeof RANGES)[number];
const POSTING_MS = 300_000;
const OFFSET_MS = 8 * 3600_000;
const MAX_BUCKETS = 2000;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

function requireTime(query: URLSearchParams, field: string): number {
  const raw = query.get(field);
  if (raw === null || raw === '') throw invalidParam(field, 'is required');
  if (!RFC3339.test(raw)) {
    const hint = / \d{2}:\d{2}$/.test(raw) ? ' (a "+" in a query must be sent as %2B)' : '';
    throw invalidParam(field, `expected RFC 3339 with an offset, e.g. 2026-01-01T00:00:00+08:00, got "${raw.slice(0, 40)}"${hint}`);
  }
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) throw invalidParam(field, `not a valid time: "${raw.slice(0, 40)}"`);
  return ms;
}

function requireRange(query: URLSearchParams): Range {
  const raw = query.get('range');
  if (raw === null || raw === '') throw invalidParam('range', 'is required');
  if (!(RANGES as readonly string[]).includes(raw)) throw invalidParam('range', `"${raw.slice(0, 20)}" is not one of ${RANGES.join(', ')}`);
  return raw as Range;
}

/** Wall time at +08:00 as the platform writes it. */
export function formatCst(ms: number): string {
  return `${new Date(ms + OFFSET_MS).toISOString().slice(0, 19)}+08:00`;
}

/** The bucket boundary at or before `ms`, on +08:00 calendar lines. */
function floorTo(range: Range, ms: number): number {
  const wall = new Date(ms + OFFSET_MS);
  const y = wall.getUTCFullYear();
  const m = wall.getUTCMonth();
  const d = wall.getUTCDate();
  switch (range) {
    case 'hour':
      return Date.UTC(y, m, d, wall.getUTCHours()) - OFFSET_MS;
    case 'day':
      return Date.UTC(y, m, d) - OFFSET_MS;
    case 'week':
      return Date.UTC(y, m, d - ((wall.getUTCDay() + 6) % 7)) - OFFSET_MS;
    case 'month':
      return Date.UTC(y, m, 1) - OFFSET_MS;
  }
}

function step(range: Range, boundary: number): number {
  if (range === 'hour') return boundary + 3600_000;
  if (range === 'day') return boundary + 86_400_000;
  if (range === 'week') return boundary + 7 * 86_400_000;
  const wall = new Date(boundary + OFFSET_MS);
  return Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth() + 1, 1) - OFFSET_MS;
}

interface Window {
  range: Range;
  fromWall: number;
  toWall: number;
}

function readWindow(query: URLSearchParams): Window {
  const range = requireRange(query);
  const fromWall = requireTime(query, 'start_time');
  const toWall = requireTime(query, 'end_time');
  if (toWall <= fromWall) throw invalidParam('end_time', 'must be after start_time');
  return { range, fromWall, toWall };
}

function parseTaskIds(query: URLSearchParams): Set<number> | undefined {
  const raw = query.get('task_ids');
  if (raw === null || raw === '') return undefined;
  const ids = raw.split(',').map((part) => {
    if (!/^\d{1,12}$/.test(part.trim())) throw invalidParam('task_ids', `"${part.slice(0, 20)}" is not a task id`);
    return Number(part);
  });
  return new Set(ids);
}

export function billingByTime(ledger: UsageLedger, clock: SandboxClock, query: URLSearchParams): unknown {
  const { range, fromWall, toWall } = readWindow(query);
  const taskIds = parseTaskIds(query);
  const paging = queryPaging(query);
  // The ledger runs on real time; the query speaks the sandbox's wall clock.
  const postedUntil = Math.floor(clock.realNow() / POSTING_MS) * POSTING_MS;
  const buckets: { billing_coin: number; discount_coin: number; start_time: string; end_time: string }[] = [];
  for (let start = floorTo(range, fromWall); start < toWall; start = step(range, start)) {
    if (buckets.length >= MAX_BUCKETS) throw invalidParam('end_time', `the window holds more than ${MAX_BUCKETS} ${range} buckets`);
    const bucketFrom = Math.max(start, fromWall);
    const bucketTo = Math.min(step(range, start), toWall);
    const byTask = ledger.points(bucketFrom - clock.offsetMs, bucketTo - clock.offsetMs, postedUntil, taskIds && ((id) => taskIds.has(id)));
    let total = 0;
    for (const points of byTask.values()) total += points;
    buckets.push({ billing_coin: total, discount_coin: 0, start_time: formatCst(bucketFrom), end_time: formatCst(bucketTo) });
  }
  return paginate(buckets, paging);
}

export function billingByTask(ledger: UsageLedger, clock: SandboxClock, query: URLSearchParams): unknown {
  if (query.has('task_ids')) throw invalidParam('task_ids', 'is not a parameter of the per-task query');
  const { fromWall, toWall } = readWindow(query);
  const paging = queryPaging(query);
  const postedUntil = Math.floor(clock.realNow() / POSTING_MS) * POSTING_MS;
  const byTask = ledger.points(fromWall - clock.offsetMs, toWall - clock.offsetMs, postedUntil);
  const rows = [...byTask.entries()]
    .filter(([, points]) => points > 0)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .map(([taskId, points]) => {
      const task = ledger.tasks.get(taskId);
      return { task_id: taskId, task_type: task?.type ?? null, task_name: task?.name ?? null, billing_coin: points, discount_coin: 0 };
    });
  return paginate(rows, paging);
}
