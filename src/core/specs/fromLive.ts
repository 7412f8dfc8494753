// A spec file from a live task or job ("Save as Spec File…"): it in readable form, env values that
// look like credentials turned into SecretStorage references (the caller stores the values under
// those names so a plan of the saved file shows no difference), never written inline.

import type { TaskDetail } from '../compute/api';
import type { JobDetail } from '../jobs/operations';
import { looksSecret } from './secrets';
import { liveResource, liveTaskSpec } from './taskBody';
import type { EnvValue, HealthChecks, JobServiceSpec, JobSpec, Mount, TaskServiceSpec, TaskSpec } from './types';

export interface SavedSpec {
  spec: TaskSpec;
  /** Values to store in SecretStorage under the referenced names (never written to the file). */
  secrets: { name: string; value: string }[];
  /** Live fields a spec cannot say (an update from this file would reset them). */
  dropped: string[];
}

/** A SecretStorage name for a task's env variable: "<task>-<VAR>", restricted to the allowed characters. */
export function secretNameFor(taskName: string, variable: string): string {
  const base = `${taskName}-${variable}`.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  return (base || 'secret').slice(0, 128);
}

export function specFromTask(detail: TaskDetail, profileId: string | undefined, schemaUrl?: string): SavedSpec {
  const live = liveTaskSpec(detail);
  const secrets: SavedSpec['secrets'] = [];
  const dropped: string[] = [];
  if (live.other) dropped.push(...Object.keys(live.other));
  const services = (live.services as (TaskServiceSpec & { other?: Record<string, unknown> })[]).map((service, index) => {
    const { other, ...rest } = service;
    if (other) dropped.push(...Object.keys(other).map((key) => `services[${index}].${key}`));
    if (!rest.env) return rest;
    const env: Record<string, EnvValue> = {};
    for (const [name, value] of Object.entries(rest.env)) {
      if (typeof value === 'string' && looksSecret(name, value)) {
        const secret = secretNameFor(detail.task_name, name);
        secrets.push({ name: secret, value });
        env[name] = { secret };
      } else env[name] = value;
    }
    return { ...rest, env };
  });
  const spec: TaskSpec = {
    ...(schemaUrl ? { $schema: schemaUrl } : {}),
    kind: 'task',
    ...(profileId ? { profile: profileId } : {}),
    taskId: detail.task_id,
    name: live.name,
    nodes: live.nodes,
    resource: live.resource,
    ...(live.crossRegion ? { crossRegion: true } : {}),
    ...(live.dedicatedCpu ? { dedicatedCpu: true } : {}),
    ...(live.loadBalance ? { loadBalance: live.loadBalance } : {}),
    ...(live.autoscaling ? { autoscaling: live.autoscaling } : {}),
    services,
  };
  return { spec, secrets, dropped };
}

export interface SavedJobSpec {
  spec: JobSpec;
  secrets: { name: string; value: string }[];
  /** Live fields a spec cannot say (env from field references, extra resources, …). */
  dropped: string[];
}

const jobMounts = (items: { storage_id?: number; target_dir?: string }[] | null | undefined): Mount[] | undefined =>
  items && items.length > 0 ? items.map((item) => ({ storageId: Number(item.storage_id), targetDir: String(item.target_dir ?? '') })) : undefined;
const byName = (items: unknown): { volume: string; targetDir: string }[] | undefined =>
  Array.isArray(items) && items.length > 0 ? (items as { volume_name?: string; target_dir?: string }[]).map((item) => ({ volume: String(item?.volume_name ?? ''), targetDir: String(item?.target_dir ?? '') })) : undefined;

/**
 * A spec file from a job ("Save as Spec File…" on a job): what Deploy would need to run it again.
 * Env values that look like credentials become SecretStorage references (values for the caller to
 * store); the registry password never comes back from the platform, so it is left out.
 */
export function specFromJob(detail: JobDetail, profileId: string | undefined, schemaUrl?: string): SavedJobSpec {
  const secrets: SavedJobSpec['secrets'] = [];
  const dropped: string[] = [];
  if ((detail.resources?.length ?? 0) > 1) dropped.push('resources[1…]');
  const support = detail.job_support;
  const services: JobServiceSpec[] = (detail.services ?? []).map((service, index) => {
    const spec: JobServiceSpec = { name: String(service.service_name ?? ''), image: String(service.service_image ?? '') };
    const script = service.start_script;
    if (script?.command?.length) spec.command = [...script.command];
    if (script?.args?.length) spec.args = [...script.args];
    const env: Record<string, EnvValue> = {};
    for (const variable of service.env ?? []) {
      if (!variable?.name) continue;
      if (variable.value === null || variable.value === undefined) {
        dropped.push(`services[${index}].env.${variable.name}`);
        continue;
      }
      if (looksSecret(variable.name, variable.value)) {
        const secret = secretNameFor(detail.task_name, variable.name);
        secrets.push({ name: secret, value: variable.value });
        env[variable.name] = { secret };
      } else env[variable.name] = variable.value;
    }
    if (Object.keys(env).length > 0) spec.env = env;
    const ports = (service.remote_ports ?? []).map((port) => Number(port?.service_port)).filter((port) => Number.isInteger(port) && port > 0);
    if (ports.length > 0) spec.ports = ports;
    const weight = service.resource_weight;
    if (weight && (weight.cpu_weight !== 1 || weight.mem_weight !== 1 || weight.gpu_weight !== 1)) {
      spec.weight = {};
      if (weight.cpu_weight >= 1) spec.weight.cpu = weight.cpu_weight;
      if (weight.mem_weight >= 1) spec.weight.memory = weight.mem_weight;
      if (weight.gpu_weight >= 1) spec.weight.gpu = weight.gpu_weight;
    }
    const storage = jobMounts(service.storage_config);
    if (storage) spec.storage = storage;
    const shared = jobMounts(service.share_storage_config);
    if (shared) spec.sharedStorage = shared;
    const nas = jobMounts(service.nas_storage_config);
    if (nas) spec.nas = nas.map((mount) => ({ volumeId: mount.storageId, targetDir: mount.targetDir }));
    const sharedMemory = byName(service.share_mem_config);
    if (sharedMemory) spec.sharedMemoryMounts = sharedMemory;
    const sharedDisk = byName(service.share_disk_config);
    if (sharedDisk) spec.sharedDiskMounts = sharedDisk;
    const health = service.health_checks;
    if (health && typeof health === 'object' && Object.keys(health).length > 0) spec.healthChecks = health as HealthChecks;
    return spec;
  });
  const modParam = support?.mod_param;
  const retry: NonNullable<JobSpec['retry']> = modParam?.index
    ? { indexed: true, backoffLimit: modParam.index.index_backoff_limit, ...(modParam.index.max_failed_index === null ? {} : { maxFailedIndex: modParam.index.max_failed_index }) }
    : modParam?.default
      ? { backoffLimit: modParam.default.backoff_limit, restartPolicy: modParam.default.restart_policy }
      : {};
  const spec: JobSpec = {
    ...(schemaUrl ? { $schema: schemaUrl } : {}),
    kind: 'job',
    ...(profileId ? { profile: profileId } : {}),
    taskId: detail.task_id,
    name: detail.task_name,
    resource: liveResource(detail),
    ...(detail.sub_type === 'Spot' ? { spot: true } : {}),
    ...(typeof support?.estimated_exec_sec === 'number' ? { estimatedSeconds: support.estimated_exec_sec } : {}),
    completions: detail.points,
    parallelism: support?.parallelism ?? 1,
    timeoutSeconds: support?.timeout_sec ?? 3600,
    ...(Object.keys(retry).length > 0 ? { retry } : {}),
    ...(detail.task_qos?.class === 'Guaranteed' ? { dedicatedCpu: true } : {}),
    ...(detail.share_disk_volumes?.length ? { sharedDiskVolumes: detail.share_disk_volumes.map((volume) => volume.name) } : {}),
    ...(detail.share_mem_volumes?.length ? { sharedMemoryVolumes: detail.share_mem_volumes.map((volume) => ({ name: volume.name, sizeMi: volume.size_limit })) } : {}),
    services,
  };
  return { spec, secrets, dropped };
}
