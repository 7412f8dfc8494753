// A spec file from a live task or job ("Save as Spec File…"): it in readable form, every env value
// turned into a SecretStorage reference unless the user picked it to stay plain (the caller stores the
// values under those names so a plan of the saved file shows no difference). A value is written into
// the file only by the user's choice: whether it looks like a credential is only a hint for that choice.

import type { TaskDetail } from '../compute/api';
import type { JobDetail } from '../jobs/operations';
import { JOB_MOUNTS, mountsFromWire } from './mountFields';
import { looksSecret } from './secrets';
import { liveResource, liveTaskSpec } from './taskBody';
import type { EnvValue, HealthChecks, JobServiceSpec, JobSpec, TaskServiceSpec, TaskSpec } from './types';

export interface SavedSpec {
  spec: TaskSpec;
  /** Values to store in SecretStorage under the referenced names (never written to the file). */
  secrets: { name: string; value: string }[];
  /** Live fields a spec cannot say (an update from this file would reset them). */
  dropped: string[];
}

/** Which env values stay plain in the file: (service index, variable name) → true. Default: none. */
export type KeepPlain = (service: number, name: string) => boolean;

export interface SaveOptions {
  /** Env values written into the file as they are; every other one becomes a stored-secret reference. */
  keepPlain?: KeepPlain;
  schemaUrl?: string;
}

/** An env variable of a live task or job, for the choice of what stays plain (its value is not shown). */
export interface LiveEnvChoice {
  service: number;
  serviceName: string;
  name: string;
  /** A hint: the name or value looks like a credential. */
  looksSecret: boolean;
}

/** Turns one service's env into the file's form: references (values to store in `secrets`) unless kept plain. */
function envOf(taskName: string, service: number, entries: readonly (readonly [string, string])[], keepPlain: KeepPlain, secrets: { name: string; value: string }[]): Record<string, EnvValue> {
  const env: Record<string, EnvValue> = {};
  for (const [name, value] of entries) {
    if (keepPlain(service, name)) {
      env[name] = value;
      continue;
    }
    let secret = secretNameFor(taskName, name);
    // Two services with the same variable get names of their own.
    if (secrets.some((stored) => stored.name === secret && stored.value !== value)) secret = secretNameFor(taskName, `${name}-${service}`);
    if (!secrets.some((stored) => stored.name === secret)) secrets.push({ name: secret, value });
    env[name] = { secret };
  }
  return env;
}

/** The env variables of a live task, per service, for the choice of what stays plain. */
export function taskEnvChoices(detail: TaskDetail): LiveEnvChoice[] {
  const live = liveTaskSpec(detail);
  return (live.services as TaskServiceSpec[]).flatMap((service, index) =>
    Object.entries(service.env ?? {}).map(([name, value]) => ({ service: index, serviceName: service.name, name, looksSecret: typeof value === 'string' && looksSecret(name, value) })),
  );
}

/** The env variables of a job with a value, per service, for the choice of what stays plain. */
export function jobEnvChoices(detail: JobDetail): LiveEnvChoice[] {
  return (detail.services ?? []).flatMap((service, index) =>
    (service.env ?? [])
      .filter((variable) => variable?.name && typeof variable.value === 'string')
      .map((variable) => ({ service: index, serviceName: String(service.service_name ?? ''), name: variable.name, looksSecret: looksSecret(variable.name, variable.value as string) })),
  );
}

/** A SecretStorage name for a task's env variable: "<task>-<VAR>", restricted to the allowed characters. */
export function secretNameFor(taskName: string, variable: string): string {
  const base = `${taskName}-${variable}`.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  return (base || 'secret').slice(0, 128);
}

export function specFromTask(detail: TaskDetail, profileId: string | undefined, options: SaveOptions = {}): SavedSpec {
  const { schemaUrl, keepPlain = () => false } = options;
  const live = liveTaskSpec(detail);
  const secrets: SavedSpec['secrets'] = [];
  const dropped: string[] = [];
  if (live.other) dropped.push(...Object.keys(live.other));
  const services = (live.services as (TaskServiceSpec & { other?: Record<string, unknown> })[]).map((service, index) => {
    const { other, ...rest } = service;
    if (other) dropped.push(...Object.keys(other).map((key) => `services[${index}].${key}`));
    if (!rest.env) return rest;
    const entries = Object.entries(rest.env).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
    return { ...rest, env: envOf(detail.task_name, index, entries, keepPlain, secrets) };
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


/**
 * A spec file from a job ("Save as Spec File…" on a job): what Deploy would need to run it again.
 * Env values that look like credentials become SecretStorage references (values for the caller to
 * store); the registry password never comes back from the platform, so it is left out.
 */
export function specFromJob(detail: JobDetail, profileId: string | undefined, options: SaveOptions = {}): SavedJobSpec {
  const { schemaUrl, keepPlain = () => false } = options;
  const secrets: SavedJobSpec['secrets'] = [];
  const dropped: string[] = [];
  if ((detail.resources?.length ?? 0) > 1) dropped.push('resources[1…]');
  const support = detail.job_support;
  const services: JobServiceSpec[] = (detail.services ?? []).map((service, index) => {
    const spec: JobServiceSpec = { name: String(service.service_name ?? ''), image: String(service.service_image ?? '') };
    const script = service.start_script;
    if (script?.command?.length) spec.command = [...script.command];
    if (script?.args?.length) spec.args = [...script.args];
    const entries: [string, string][] = [];
    for (const variable of service.env ?? []) {
      if (!variable?.name) continue;
      if (variable.value === null || variable.value === undefined) dropped.push(`services[${index}].env.${variable.name}`);
      else entries.push([variable.name, variable.value]);
    }
    const env = envOf(detail.task_name, index, entries, keepPlain, secrets);
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
    Object.assign(spec, mountsFromWire(service, JOB_MOUNTS));
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
