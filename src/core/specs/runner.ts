// Spec operations against the platform, shared by the editor commands and the agent tools: check a
// spec (resource exists, has stock, NAS volume Active and in the region), plan it, apply a plan
// (task: create or whole-overwrite update; job: create only, with `job.create` as Create Job… sends
// it). Nothing here asks the user; callers confirm with the plan first. Everything is read and sent
// through the kinds' services (SpecServices), never the client itself.

import type { Device, TaskCreateBody, TaskDetail, TaskUpdateBody } from '../compute/api';
import type { JobService } from '../jobs/jobService';
import type { VolumeService } from '../nas/volumeService';
import type { ResourceService } from '../resources/resourceService';
import type { TaskService } from '../tasks/taskService';
import { formatYuanPerHour, pointsPerSecondToYuanPerHour } from '../spend/units';
import type { JobDetail } from '../jobs/operations';
import { ConfigError } from '../errors';
import { deviceLabel } from '../deviceLabel';
import { durationEnglish } from '../duration';
import type { NasVolume } from '../nas/operations';
import { formatYuan } from '../spend/units';
import { planJob, type JobPlan } from './jobPlan';
import { ENGLISH, type SpecMessages } from './messages';
import { findOffer } from './offers';
import { planTask, type TaskPlan } from './plan';
import { refText, type SecretResolver } from './secrets';
import type { JobSpec, Spec, TaskSpec } from './types';

/** The services a spec is checked, planned and applied through (the host builds them over its client). */
export interface SpecServices {
  tasks: Pick<TaskService, 'create' | 'update' | 'detail'>;
  jobs: Pick<JobService, 'create' | 'detail'>;
  resources: Pick<ResourceService, 'gpuDeployments'>;
}

export interface SpecContext {
  services: SpecServices;
  resolveSecret: SecretResolver;
  signal?: AbortSignal;
  /**
   * NAS volumes of the account, when the host can read them (the store's, or nasVolumesOf);
   * without it the NAS check says it was not made.
   */
  nasVolumes?: () => Promise<SpecNasVolume[]>;
  /** Texts for people (the editor passes localized ones); English by default. */
  messages?: SpecMessages;
}

export interface SpecNasVolume {
  id: number;
  regionName: string;
  region?: string;
  status: string;
}

/** What the NAS check needs of a volume. */
export function specVolume(volume: NasVolume): SpecNasVolume {
  return { id: volume.storage_id, regionName: volume.region?.name ?? '', region: volume.region?.tag ?? '', status: volume.status };
}

/** The account's NAS volumes for the NAS check, read through the volumes' service (the agent tools; the editor reads its store). */
export function nasVolumesOf(volumes: Pick<VolumeService, 'list'>, signal?: AbortSignal): () => Promise<SpecNasVolume[]> {
  return async () => (await volumes.list({}, signal)).map(specVolume);
}

export interface SpecCheck {
  /** A spec path ("resource", "services[0].nas[0].volumeId"), for a diagnostic. */
  path: (string | number)[];
  message: string;
  severity: 'error' | 'warning' | 'info';
}

export async function searchDevices(context: SpecContext): Promise<Device[]> {
  const page = await context.services.resources.gpuDeployments(context.signal);
  return page.results ?? [];
}

/** Why volume `id` cannot mount in `region`, or undefined: the platform mounts only an Active volume of the task's region (docs/nas.md). */
function nasProblem(id: number, volumes: readonly SpecNasVolume[], region: { region: string; region_name: string }, messages: SpecMessages): string | undefined {
  const volume = volumes.find((candidate) => candidate.id === id);
  if (!volume) return messages.nasMissing(id);
  if (volume.regionName !== region.region_name && volume.region !== region.region) return messages.nasOtherRegion(id, volume.regionName, region.region_name);
  if (volume.status !== 'Active') return messages.nasNotActive(id, volume.status);
  return undefined;
}

type MountingBody = { resources: { region_name: string; resource: { region: string } }[]; services: { nas_storage_config?: { storage_id: number }[] | null }[] };

/** Refuses, before anything is sent, a body mounting a volume the platform would refuse (a plan may be applied long after its check). */
async function refuseUnmountable(body: MountingBody, context: SpecContext): Promise<void> {
  const ids = body.services.flatMap((service) => (service.nas_storage_config ?? []).map((mount) => mount.storage_id));
  if (ids.length === 0 || !context.nasVolumes) return;
  const volumes = await context.nasVolumes();
  const first = body.resources[0];
  const region = { region: first?.resource.region ?? '', region_name: first?.region_name ?? '' };
  for (const id of ids) {
    const problem = nasProblem(id, volumes, region, context.messages ?? ENGLISH);
    if (problem) throw new ConfigError(problem);
  }
}

/** Checks a valid spec against the platform: the resource, its stock, the task id, the NAS volumes. */
export async function checkSpec(spec: Spec, context: SpecContext): Promise<SpecCheck[]> {
  const checks: SpecCheck[] = [];
  const messages = context.messages ?? ENGLISH;
  const devices = await searchDevices(context);
  const lookup = findOffer(devices, spec.resource, messages);
  if ('problem' in lookup) return [{ path: ['resource'], message: lookup.problem, severity: 'error' }];
  const { region, device } = lookup.offer;
  const wanted = spec.kind === 'task' ? spec.nodes : spec.parallelism;
  const price = region.discount_price ?? region.price;
  if (region.inventory <= 0) checks.push({ path: ['resource'], severity: 'error', message: messages.soldOut(deviceLabel(device), region.region_name) });
  else if (region.inventory < wanted) checks.push({ path: ['resource'], severity: 'warning', message: messages.lowStock(region.inventory, deviceLabel(device), region.region_name, wanted) });
  else checks.push({ path: ['resource'], severity: 'info', message: messages.inStock(deviceLabel(device), region.region_name, region.inventory, price === null ? '¥—/h' : formatYuanPerHour(pointsPerSecondToYuanPerHour(price))) });
  if (spec.kind === 'task' && spec.taskId !== undefined) {
    try {
      await context.services.tasks.detail(spec.taskId, context.signal);
    } catch (error) {
      checks.push({ path: ['taskId'], severity: 'error', message: messages.taskUnreadable(spec.taskId, error instanceof Error ? error.message : String(error)) });
    }
  }
  if (spec.kind === 'job' && spec.taskId !== undefined) checks.push({ path: ['taskId'], severity: 'info', message: messages.jobCannotUpdate(spec.taskId) });
  const nasMounts = spec.services.flatMap((service, index) => (service.nas ?? []).map((mount, mountIndex) => ({ mount, path: ['services', index, 'nas', mountIndex, 'volumeId'] as (string | number)[] })));
  if (nasMounts.length > 0) {
    if (!context.nasVolumes) {
      for (const { path } of nasMounts) checks.push({ path, severity: 'info', message: messages.nasNotChecked() });
    } else {
      const volumes = await context.nasVolumes();
      for (const { mount, path } of nasMounts) {
        const problem = nasProblem(mount.volumeId, volumes, region, messages);
        if (problem) checks.push({ path, severity: 'error', message: problem });
      }
    }
  }
  return checks;
}

/** The plan of a task spec: a create without a task id, else a comparison with the live task. */
export async function planTaskSpec(spec: TaskSpec, context: SpecContext): Promise<TaskPlan> {
  const devices = await searchDevices(context);
  const live: TaskDetail | undefined = spec.taskId === undefined ? undefined : await context.services.tasks.detail(spec.taskId, context.signal);
  return planTask(spec, devices, live, context.resolveSecret, context.messages);
}

/** The plan of a job spec: what Deploy would create; a file that names a job reads its status. */
export async function planJobSpec(spec: JobSpec, context: SpecContext): Promise<JobPlan> {
  const devices = await searchDevices(context);
  let live: JobDetail | undefined;
  if (spec.taskId !== undefined) {
    try {
      live = await context.services.jobs.detail(spec.taskId, context.signal);
    } catch (error) {
      if (context.signal?.aborted) throw error;
      live = undefined; // gone or unreadable: the plan still says what a new job would be
    }
  }
  return planJob(spec, devices, live, context.resolveSecret, context.messages);
}

export class MissingSecretsError extends Error {
  constructor(readonly refs: string[]) {
    super(`Set these secrets first: ${refs.join(', ')} (command "Set Spec Secret…" or the environment variable).`);
    this.name = 'MissingSecretsError';
  }
}

/** Sends a plan: create → the new task id; update → the task id. Refuses while a secret is missing. */
export async function applyTaskPlan(plan: TaskPlan, context: SpecContext): Promise<{ taskId: number; created: boolean }> {
  if (plan.missingSecrets.length > 0) throw new MissingSecretsError(plan.missingSecrets.map(refText));
  await refuseUnmountable(plan.body, context);
  if (plan.action === 'create') {
    const taskId = await context.services.tasks.create(plan.body as unknown as TaskCreateBody, context.signal ? { signal: context.signal } : {});
    return { taskId, created: true };
  }
  await context.services.tasks.update(plan.body as unknown as TaskUpdateBody, context.signal);
  return { taskId: plan.taskId!, created: false };
}

/** Creates the job of a plan (the same `job.create` call as Create Job…). Refuses while a secret is missing or the file already names a job. */
export async function applyJobPlan(plan: JobPlan, context: SpecContext): Promise<{ taskId: number }> {
  if (plan.missingSecrets.length > 0) throw new MissingSecretsError(plan.missingSecrets.map(refText));
  if (plan.action !== 'create') throw new Error(`This file already created job ${plan.taskId}; jobs cannot be changed. Remove "taskId" to create a new job.`);
  await refuseUnmountable(plan.body, context);
  return { taskId: await context.services.jobs.create(plan.body, context.signal) };
}

function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** The plan in plain English lines (agent tools and the MCP server; the editor localizes its own). */
export function describePlan(plan: TaskPlan): string[] {
  const cost = (value: number | undefined) => (value === undefined ? 'price not listed' : formatYuanPerHour(value));
  const lines: string[] = [];
  if (plan.action === 'create') {
    lines.push(`Create task "${plan.taskName}": ${plan.body.points} node(s) of ${deviceLabel(plan.offer.device)} in ${plan.offer.region.region_name}, ${cost(plan.costAfter)} (${plan.inventory} in stock).`);
  } else if (plan.changes.length === 0) {
    lines.push(`Task ${plan.taskId} "${plan.taskName}" already matches the file: nothing to update.`);
  } else {
    lines.push(`Update task ${plan.taskId} "${plan.taskName}" (a whole overwrite; running nodes restart): ${plan.changes.length} change(s), cost ${cost(plan.costBefore)} → ${cost(plan.costAfter)}.`);
    for (const change of plan.changes.slice(0, 40)) {
      lines.push(change.kind === 'reset' ? `- RESET ${change.path}: ${show(change.before)} → cleared (the file leaves it out)` : `- ${change.path}: ${show(change.before)} → ${show(change.after)}`);
    }
    if (plan.changes.length > 40 || plan.truncated) lines.push('- …and more');
  }
  if (plan.missingSecrets.length > 0) lines.push(`Missing secrets (set them before applying): ${plan.missingSecrets.map(refText).join(', ')}.`);
  return lines;
}

/** A job plan in plain English lines (agent tools and the MCP server; the editor localizes its own). What runs is describeSpecFacts's. */
export function describeJobPlan(plan: JobPlan): string[] {
  const lines: string[] = [];
  const mode = plan.spot ? 'Spot' : 'on demand';
  if (plan.action === 'exists') {
    lines.push(`This file already created job ${plan.taskId}${plan.liveStatus ? ` (${plan.liveStatus})` : ''}. Jobs cannot be updated on the platform: to run this file again, remove "taskId" and deploy a new job.`);
  }
  lines.push(
    `${plan.action === 'create' ? 'Create' : 'A new deploy would create'} job "${plan.jobName}": ${plan.body.points} completion(s), ${plan.pods} pod(s) at once, ${mode}, on ${deviceLabel(plan.offer.device)} in ${plan.offer.region.region_name} (${plan.inventory} in stock), timeout ${durationEnglish(plan.body.job_support.timeout_sec)}.`,
  );
  if (plan.yuanPerHour === undefined) lines.push('Price not listed for this resource.');
  else {
    lines.push(`Cost: ${formatYuanPerHour(plan.yuanPerHour)} while ${plan.pods} pod(s) run (${formatYuanPerHour(plan.podYuanPerHour ?? 0)} per pod); at most ${formatYuan(plan.capYuan ?? 0)} (all pods for the whole timeout)${plan.expectedYuan === undefined ? '' : `; expected ${formatYuan(plan.expectedYuan)}`}.`);
  }
  if (plan.missingSecrets.length > 0) lines.push(`Missing secrets (set them before deploying): ${plan.missingSecrets.map(refText).join(', ')}.`);
  return lines;
}
