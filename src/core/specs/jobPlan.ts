// The plan of a job spec: what Deploy would create (image, command, resources by GPU model and
// count, completions, parallelism, timeout, Spot or on demand, env, mounts) and what it costs: ¥/h
// for the pods that run at once, the expected cost from the estimate, and the cap the timeout implies
// (src/core/jobs/cost.ts). Jobs cannot be updated on the platform (platform reference §5: create,
// detail, list, stop only), so a file that already names a job plans a new one and says so.

import type { Device } from '../compute/api';
import { estimateJobCost } from '../jobs/cost';
import type { JobDetail } from '../jobs/operations';
import { pointsPerSecondToYuanPerHour, pointsToYuan } from '../spend/units';
import { buildJobBody, type JobCreateBody } from './jobBody';
import { ENGLISH, type SpecMessages } from './messages';
import { findOffer, type Offer } from './offers';
import { SpecPlanError } from './plan';
import { refText, type SecretResolver } from './secrets';
import type { JobSpec, SecretRef } from './types';

/** A job in readable form (the file's field names; env references shown as «secret: name», never resolved). */
export interface JobView {
  name: string;
  resource: { gpu: string | null; gpuCount: number; region: string; regionName: string; device: string; memoryMi: number; cpuCores: number };
  spot: boolean;
  estimatedSeconds?: number;
  completions: number;
  parallelism: number;
  timeoutSeconds: number;
  retry: Record<string, unknown>;
  dedicatedCpu?: true;
  sharedDiskVolumes?: string[];
  sharedMemoryVolumes?: { name: string; sizeMi: number }[];
  services: Record<string, unknown>[];
}

export interface JobPlan {
  kind: 'job';
  /** create: no job yet; exists: the file names a job, which cannot be changed (Deploy would need a new one). */
  action: 'create' | 'exists';
  /** The job the file already names (action 'exists'). */
  taskId?: number;
  /** Its status when it could be read (Running, End, …), or undefined when it could not. */
  liveStatus?: string;
  jobName: string;
  offer: Offer;
  /** In stock in the chosen region (a Spot job waits in the queue otherwise). */
  inventory: number;
  spot: boolean;
  /** Pods that run at once: min(parallelism, completions). */
  pods: number;
  /** ¥/h for one pod; undefined when the price is not listed (then no cost figure below either). */
  podYuanPerHour?: number;
  /** ¥/h while all `pods` run. */
  yuanPerHour?: number;
  /** Expected ¥ from the estimate (completions × estimatedSeconds), capped. */
  expectedYuan?: number;
  /** Most it can cost: all parallel pods for the whole timeout (the platform kills the job after it). */
  capYuan?: number;
  /** What would be sent (secrets resolved: never show or log it). */
  body: JobCreateBody;
  desired: JobView;
  missingSecrets: SecretRef[];
}

function jobView(spec: JobSpec, offer: Offer): JobView {
  const resource = offer.region.mark.resource;
  const retry = spec.retry ?? {};
  const view: JobView = {
    name: spec.name,
    resource: { gpu: resource.gpu_name ?? null, gpuCount: resource.gpu_count, region: resource.region, regionName: offer.region.region_name, device: resource.device_name, memoryMi: resource.memory, cpuCores: resource.cpu_cores },
    spot: spec.spot === true,
    ...(spec.estimatedSeconds === undefined ? {} : { estimatedSeconds: spec.estimatedSeconds }),
    completions: spec.completions,
    parallelism: spec.parallelism,
    timeoutSeconds: spec.timeoutSeconds,
    retry: retry.indexed
      ? { indexed: true, backoffLimit: retry.backoffLimit ?? 3, ...(retry.maxFailedIndex === undefined ? {} : { maxFailedIndex: retry.maxFailedIndex }) }
      : { backoffLimit: retry.backoffLimit ?? 3, restartPolicy: retry.restartPolicy ?? 'OnFailure' },
    ...(spec.dedicatedCpu ? { dedicatedCpu: true as const } : {}),
    ...(spec.sharedDiskVolumes?.length ? { sharedDiskVolumes: spec.sharedDiskVolumes } : {}),
    ...(spec.sharedMemoryVolumes?.length ? { sharedMemoryVolumes: spec.sharedMemoryVolumes } : {}),
    services: spec.services.map((service) => {
      const shown: Record<string, unknown> = { name: service.name, image: service.image };
      if (service.command?.length) shown.command = service.command;
      if (service.args?.length) shown.args = service.args;
      const env = Object.entries(service.env ?? {});
      if (env.length > 0) shown.env = Object.fromEntries(env.map(([name, value]) => [name, typeof value === 'string' ? value : refText(value)]));
      if (service.ports?.length) shown.ports = service.ports;
      if (service.weight) shown.weight = service.weight;
      for (const key of ['storage', 'sharedStorage', 'nas', 'sharedMemoryMounts', 'sharedDiskMounts'] as const) if (service[key]?.length) shown[key] = service[key];
      if (service.healthChecks && Object.keys(service.healthChecks).length > 0) shown.healthChecks = service.healthChecks;
      if (service.registry) shown.registry = { username: service.registry.username, ...(service.registry.password ? { password: refText(service.registry.password) } : {}) };
      return shown;
    }),
  };
  return view;
}

/** Builds the plan from a fresh resource search and (when the file names a job) its live detail. */
export async function planJob(spec: JobSpec, devices: readonly Device[], live: Pick<JobDetail, 'task_id' | 'status'> | undefined, resolve: SecretResolver, messages: SpecMessages = ENGLISH): Promise<JobPlan> {
  const lookup = findOffer(devices, spec.resource, messages);
  if ('problem' in lookup) throw new SpecPlanError(lookup.problem, 'resource');
  const offer = lookup.offer;
  const built = await buildJobBody(spec, offer, resolve);
  const price = offer.region.discount_price ?? offer.region.price;
  const pods = Math.max(1, Math.min(spec.parallelism, spec.completions));
  const cost =
    price === null
      ? undefined
      : estimateJobCost({ pointsPerSecond: price, completions: spec.completions, parallelism: spec.parallelism, timeoutSec: spec.timeoutSeconds, estimatedSec: spec.estimatedSeconds ?? null });
  return {
    kind: 'job',
    action: spec.taskId === undefined ? 'create' : 'exists',
    ...(spec.taskId === undefined ? {} : { taskId: spec.taskId }),
    ...(live ? { liveStatus: live.status } : {}),
    jobName: spec.name,
    offer,
    inventory: offer.region.inventory,
    spot: spec.spot === true,
    pods,
    ...(cost && price !== null
      ? {
          podYuanPerHour: pointsPerSecondToYuanPerHour(price),
          yuanPerHour: pointsPerSecondToYuanPerHour(cost.ratePointsPerSecond),
          capYuan: pointsToYuan(cost.capPoints),
          ...(cost.expectedPoints === undefined ? {} : { expectedYuan: pointsToYuan(cost.expectedPoints) }),
        }
      : {}),
    body: built.body,
    desired: jobView(spec, offer),
    missingSecrets: built.missing,
  };
}
