// A plan: what applying a task spec would do. Without a task id it is a create (cost after only);
// with one it compares the live task with the file field by field: each field that changes, each
// field the update would reset (task update overwrites the whole task, so a field the file leaves
// out is cleared; probes excepted: a file without them keeps the live ones), and the cost per hour before and after.

import type { Device, TaskDetail } from '../compute/api';
import { configDiff } from '../tasks/configDiff';
import { pointsPerSecondToYuanPerHour } from '../spend/units';
import { fillHealthChecks, withLiveHealthChecks } from './healthChecks';
import { ENGLISH, type SpecMessages } from './messages';
import { findOffer, livePrice, type Offer } from './offers';
import type { SecretResolver } from './secrets';
import { buildDeploymentBody, planViews, type DeploymentBody, type TaskView } from './taskBody';
import type { SecretRef, TaskSpec } from './types';

export interface PlanChange {
  /** In the file's terms: "services[0].image", "nodes". */
  path: string;
  before: unknown;
  after: unknown;
  /** reset: the live task has a value the file leaves out, so the update clears it. */
  kind: 'change' | 'add' | 'reset';
}

export interface TaskPlan {
  action: 'create' | 'update';
  taskId?: number;
  taskName: string;
  /** Empty for a create, and for an update that changes nothing. */
  changes: PlanChange[];
  truncated: boolean;
  /** ¥/h for all nodes; undefined when the price is not listed. */
  costBefore?: number;
  costAfter?: number;
  /** In stock in the chosen region (create/update would stay Pending otherwise). */
  inventory: number;
  offer: Offer;
  /** What would be sent (secrets resolved: never show or log it). */
  body: DeploymentBody;
  /** The two sides in readable form for a diff view (no secrets). */
  live?: TaskView;
  desired: TaskView;
  /** Secret references with no value: the plan cannot be applied until they are set. */
  missingSecrets: SecretRef[];
  /** Live status (update). */
  liveStatus?: string;
}

export class SpecPlanError extends Error {
  constructor(
    message: string,
    /** The spec path the problem concerns ("resource"), for a diagnostic. */
    readonly path: string,
  ) {
    super(message);
    this.name = 'SpecPlanError';
  }
}

function emptyish(value: unknown): boolean {
  return value === undefined || value === null || value === false || value === '' || (Array.isArray(value) && value.length === 0);
}

/** Builds the plan from a fresh resource search and (for an update) the live detail. */
export async function planTask(spec: TaskSpec, devices: readonly Device[], live: TaskDetail | undefined, resolve: SecretResolver, messages: SpecMessages = ENGLISH): Promise<TaskPlan> {
  const lookup = findOffer(devices, spec.resource, messages);
  if ('problem' in lookup) throw new SpecPlanError(lookup.problem, 'resource');
  const offer = lookup.offer;
  const price = offer.region.discount_price ?? offer.region.price;
  const costAfter = price === null ? undefined : pointsPerSecondToYuanPerHour(price * spec.nodes);
  // Update: a file without probes keeps the live task's (update refuses none: docs/specs.md).
  const effective = live ? withLiveHealthChecks(spec, live) : spec;
  const built = await buildDeploymentBody(effective, offer, resolve, live ? { update: live.task_id } : { create: true });
  if (live) fillHealthChecks(built.body, live);
  const base = { taskName: spec.name, inventory: offer.region.inventory, offer, body: built.body, missingSecrets: built.missing, ...(costAfter === undefined ? {} : { costAfter }) };
  if (!live) {
    const { desired } = planViews({ task_id: 0, task_name: '', status: 'Pending', points: 0, runing_points: 0, billing_value: 0, forecast_value: 0, create_time: '', resources: [], services: [] }, spec, offer, built.envValues);
    return { ...base, action: 'create', changes: [], truncated: false, desired };
  }
  const views = planViews(live, effective, offer, built.envValues);
  const { changes, truncated } = configDiff(views.live, views.desired);
  const classified: PlanChange[] = changes.map((change) => ({
    ...change,
    kind: emptyish(change.after) && !emptyish(change.before) ? 'reset' : emptyish(change.before) ? 'add' : 'change',
  }));
  const before = livePrice(devices, live.resources?.[0]?.resource);
  return {
    ...base,
    action: 'update',
    taskId: live.task_id,
    changes: classified,
    truncated,
    live: views.live,
    desired: views.desired,
    liveStatus: live.status,
    ...(before === undefined ? {} : { costBefore: pointsPerSecondToYuanPerHour(before * live.points) }),
  };
}
