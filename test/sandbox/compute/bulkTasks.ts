// A heavy account on demand: N tasks in mixed statuses (Running with nodes, Pending, Paused, End),
// spread over the catalogue's devices and interleaved in creation order the way months of use leave
// them, so tests and benchmarks can see what the extension does with hundreds or thousands of tasks.
// Reached through POST /__sandbox/tasks/seed (control.ts) and Sandbox.seedTasks().

import type { TaskResource } from '../../../src/core/compute/api';
import type { Catalog } from './catalog';
import { seededRandom } from './random';
import type { TaskStore } from './tasks';

/** How many tasks of each status to add. */
export interface TaskSeedCounts {
  running?: number;
  pending?: number;
  paused?: number;
  ended?: number;
}

export interface TaskSeedResult {
  created: number;
  /** Tasks in the store afterwards (the two start-up tasks included). */
  total: number;
  /** Ids of the new tasks by status, so tests can find them. */
  ids: { running: number[]; pending: number[]; paused: number[]; ended: number[] };
}

/** Far above any real account; keeps one control call from eating the test machine. */
export const MAX_SEEDED_TASKS = 20_000;

const STATUSES = ['running', 'pending', 'paused', 'ended'] as const;
type SeedStatus = (typeof STATUSES)[number];

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;
const NAME_STEMS = ['llama-finetune', 'qwen-serving', 'sd-webui', 'comfyui', 'whisper-batch', 'vllm-bench', 'embedding-api', '训练任务'];

/** Validates control input: each count a whole number ≥ 0, at least one task, at most MAX_SEEDED_TASKS. */
export function parseSeedCounts(value: unknown): Required<TaskSeedCounts> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TypeError('seed: expected a JSON object like {"running": 30, "ended": 1950}');
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!(STATUSES as readonly string[]).includes(key)) throw new TypeError(`seed.${key}: unknown; use ${STATUSES.join(', ')}`);
  }
  const counts = { running: 0, pending: 0, paused: 0, ended: 0 };
  for (const status of STATUSES) {
    const count = record[status] ?? 0;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) throw new TypeError(`seed.${status}: expected a whole number ≥ 0`);
    counts[status] = count;
  }
  const total = STATUSES.reduce((sum, status) => sum + counts[status], 0);
  if (total === 0) throw new RangeError('seed: ask for at least one task');
  if (total > MAX_SEEDED_TASKS) throw new RangeError(`seed: at most ${MAX_SEEDED_TASKS} tasks per call, asked for ${total}`);
  return counts;
}

export function seedBulkTasks(catalog: Catalog, tasks: TaskStore, counts: TaskSeedCounts, seed = 1): TaskSeedResult {
  const parsed = parseSeedCounts(counts);
  const random = seededRandom(seed);
  const offers = catalog.devices.flatMap((device) =>
    device.regions
      .filter((region) => region.inventory > 0 && region.price !== null)
      .map((region) => ({
        resource: { resource: { ...region.mark.resource }, region_name: region.region_name, mark: region.mark.mark, weight: 1 } satisfies TaskResource,
        pricePerSecond: region.discount_price ?? region.price ?? 0,
      })),
  );
  if (offers.length === 0) throw new Error('the catalogue sells nothing to seed tasks with');

  // Every status in one list, shuffled (Fisher–Yates), so active tasks are spread through the history.
  const order: SeedStatus[] = STATUSES.flatMap((status) => Array.from({ length: parsed[status] }, () => status));
  for (let index = order.length - 1; index > 0; index--) {
    const other = random.int(0, index);
    [order[index], order[other]] = [order[other] as SeedStatus, order[index] as SeedStatus];
  }

  const ids: TaskSeedResult['ids'] = { running: [], pending: [], paused: [], ended: [] };
  order.forEach((status, index) => {
    const offer = offers[random.int(0, offers.length - 1)] ?? offers[0];
    if (!offer) return;
    const stem = NAME_STEMS[index % NAME_STEMS.length] ?? 'task';
    const taskId = tasks.create(
      {
        name: `${stem}-${String(index + 1).padStart(5, '0')}`,
        points: status === 'running' ? random.int(1, 3) : 1,
        resources: [offer.resource],
        services: [
          {
            service_name: 'app',
            service_image: `harbor.suanleme.cn/public-hub/${stem.replace(/[^a-z-]/g, '') || 'app'}:latest`,
            remote_ports: [{ service_port: 8000 }],
            env: null,
          },
        ],
        pricePerSecond: offer.pricePerSecond,
      },
      // Earlier-created tasks further back (an hour apart); a Pending one waits for resources for a month.
      status === 'pending'
        ? { startedAgoMs: random.int(1, 60) * 60_000, pendingMs: 30 * DAY_MS }
        : { startedAgoMs: (order.length - index) * HOUR_MS + random.int(1, 50) * 60_000, pendingMs: 60_000 },
    );
    if (status === 'paused') tasks.pause(taskId);
    if (status === 'ended') tasks.stop(taskId);
    ids[status].push(taskId);
  });
  return { created: order.length, total: tasks.size, ids };
}
