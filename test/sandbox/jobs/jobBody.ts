// Validation of the job create body (docs/platform.md "Batch jobs"): task_name, sub_type, resources[]
// whose mark the sandbox issued, points (completions), job_support (timeout, parallelism, mod_param,
// estimated_exec_sec required for Spot) and services[] with resource_weight, env as an ARRAY,
// start_script {command[], args[]} and NAS mounts. Anything the platform would refuse fails here
// with C999 naming the field.

import type { TaskResource } from '../../../src/core/compute/api';
import type { JobCreateBody, JobEnvVar, JobModParam, JobMount, JobService, JobSupport } from '../../../src/core/jobs/operations';
import type { IssuedMark } from '../compute/catalog';
import { invalidParam } from '../compute/codes';
import { parseHealthChecks } from '../compute/taskBody';
import { asArray, asObject, optionalString, requireInt, requireString, type JsonObject } from '../compute/params';

export const MAX_COMPLETIONS = 100;
export const MAX_PARALLELISM = 20;
const MAX_EXEC_SEC = 86_400;

export interface JobCreateInput {
  body: JobCreateBody;
  pricePerSecond: number;
}

export function parseJobCreate(body: JsonObject, marks: ReadonlyMap<string, IssuedMark>): JobCreateInput {
  const taskName = requireString(body, 'task_name');
  if (taskName.length > 64) throw invalidParam('task_name', `must be at most 64 characters, got ${taskName.length}`);
  const subType = body.sub_type;
  if (subType !== undefined && subType !== null && subType !== 'Spot') throw invalidParam('sub_type', 'must be "Spot" or null (on-demand)');
  const points = requireInt(body, 'points', { min: 1, max: MAX_COMPLETIONS });

  const resourceItems = asArray('resources', body.resources ?? missing('resources'));
  if (resourceItems.length === 0) throw invalidParam('resources', 'must hold at least one resource from resource search');
  let pricePerSecond = 0;
  const gpuCounts: number[] = [];
  const resources = resourceItems.map((item, index): TaskResource => {
    const path = `resources[${index}]`;
    const object = asObject(path, item);
    const mark = requireString(object, 'mark', `${path}.mark`);
    const issued = marks.get(mark);
    if (!issued) throw invalidParam(`${path}.mark`, 'unknown mark: copy regions[].mark.mark from a fresh resource search');
    if (issued.inventory === 0) throw invalidParam(`${path}.mark`, `${issued.resource.device_name} is sold out in ${issued.resource.region}`);
    if (object.weight !== undefined && object.weight !== null) requireInt(object, 'weight', { min: 0 }, `${path}.weight`);
    optionalString(object, 'region_name', `${path}.region_name`);
    pricePerSecond = Math.max(pricePerSecond, issued.pricePerSecond);
    gpuCounts.push(issued.resource.gpu_count);
    return { resource: { ...issued.resource }, region_name: issued.regionName, mark, weight: 1 };
  });

  const jobSupport = parseJobSupport(asObject('job_support', body.job_support ?? missing('job_support')), subType === 'Spot');
  if (jobSupport.parallelism > points) throw invalidParam('job_support.parallelism', `must be at most points (${points}), got ${jobSupport.parallelism}`);

  const serviceItems = asArray('services', body.services ?? missing('services'));
  if (serviceItems.length === 0) throw invalidParam('services', 'must hold at least one service');
  const services = serviceItems.map((item, index) => parseService(asObject(`services[${index}]`, item), `services[${index}]`));
  const names = new Set<string>();
  services.forEach((service, index) => {
    if (names.has(service.service_name)) throw invalidParam(`services[${index}].service_name`, `"${service.service_name}" is used twice`);
    names.add(service.service_name);
  });
  checkGpuWeights(services, gpuCounts);
  serviceItems.forEach((item, index) => checkServiceFields(item as JsonObject, `services[${index}]`));
  const qos = body.task_qos;
  if (qos !== undefined && qos !== null && asObject('task_qos', qos).class !== 'Guaranteed') throw invalidParam('task_qos.class', 'must be "Guaranteed"');
  checkVolumes(body, services);

  return {
    body: {
      task_name: taskName,
      sub_type: subType === 'Spot' ? 'Spot' : null,
      resources,
      points,
      job_support: jobSupport,
      services,
      task_qos: body.task_qos === undefined || body.task_qos === null ? null : { class: 'Guaranteed' },
      share_disk_volumes: (body.share_disk_volumes ?? null) as JobCreateBody['share_disk_volumes'],
      share_mem_volumes: (body.share_mem_volumes ?? null) as JobCreateBody['share_mem_volumes'],
    },
    pricePerSecond,
  };
}

function parseJobSupport(object: JsonObject, spot: boolean): JobSupport {
  const timeout = requireInt(object, 'timeout_sec', { min: 1 }, 'job_support.timeout_sec');
  const parallelism = requireInt(object, 'parallelism', { min: 1, max: MAX_PARALLELISM }, 'job_support.parallelism');
  let estimated: number | null = null;
  if (object.estimated_exec_sec === undefined || object.estimated_exec_sec === null) {
    if (spot) throw invalidParam('job_support.estimated_exec_sec', 'is required for a Spot job (1–86400 s, a little above the real run time)');
  } else {
    estimated = requireInt(object, 'estimated_exec_sec', { min: 1, max: MAX_EXEC_SEC }, 'job_support.estimated_exec_sec');
  }
  const modParam = parseModParam(asObject('job_support.mod_param', object.mod_param ?? missing('job_support.mod_param')));
  return { estimated_exec_sec: estimated, timeout_sec: timeout, parallelism, mod_param: modParam };
}

function parseModParam(object: JsonObject): JobModParam {
  const path = 'job_support.mod_param';
  const hasDefault = object.default !== undefined && object.default !== null;
  const hasIndex = object.index !== undefined && object.index !== null;
  if (hasDefault === hasIndex) throw invalidParam(path, 'must set exactly one of default and index (the other null)');
  if (hasDefault) {
    const value = asObject(`${path}.default`, object.default);
    const policy = value.restart_policy;
    if (policy !== 'OnFailure' && policy !== 'Never') throw invalidParam(`${path}.default.restart_policy`, 'must be OnFailure or Never');
    return { default: { backoff_limit: requireInt(value, 'backoff_limit', { min: 0, max: 100 }, `${path}.default.backoff_limit`), restart_policy: policy }, index: null };
  }
  const value = asObject(`${path}.index`, object.index);
  const maxFailed = value.max_failed_index;
  return {
    default: null,
    index: {
      index_backoff_limit: requireInt(value, 'index_backoff_limit', { min: 0, max: 100 }, `${path}.index.index_backoff_limit`),
      max_failed_index: maxFailed === undefined || maxFailed === null ? null : requireInt(value, 'max_failed_index', { min: 0 }, `${path}.index.max_failed_index`),
    },
  };
}

function parseService(object: JsonObject, path: string): JobService {
  const weights = asObject(`${path}.resource_weight`, object.resource_weight ?? missing(`${path}.resource_weight`));
  const service: JobService = {
    service_name: requireString(object, 'service_name', `${path}.service_name`),
    service_image: requireString(object, 'service_image', `${path}.service_image`),
    resource_weight: {
      cpu_weight: requireInt(weights, 'cpu_weight', { min: 1 }, `${path}.resource_weight.cpu_weight`),
      mem_weight: requireInt(weights, 'mem_weight', { min: 1 }, `${path}.resource_weight.mem_weight`),
      gpu_weight: requireInt(weights, 'gpu_weight', { min: 1 }, `${path}.resource_weight.gpu_weight`),
    },
    env: parseEnv(object.env, `${path}.env`),
    start_script: null,
    nas_storage_config: parseMounts(object.nas_storage_config, `${path}.nas_storage_config`),
  };
  // The other mount lists, kept as sent so detail returns them (more §5.2 "the three *storage_config arrays").
  for (const key of ['storage_config', 'share_storage_config'] as const) {
    const mounts = parseMounts(object[key], `${path}.${key}`);
    if (mounts) service[key] = mounts;
  }
  for (const key of ['share_mem_config', 'share_disk_config'] as const) {
    const mounts = parseVolumeMounts(object[key], `${path}.${key}`);
    if (mounts) service[key] = mounts;
  }
  if (object.start_script !== undefined && object.start_script !== null) {
    const scriptPath = `${path}.start_script`;
    const script = asObject(scriptPath, object.start_script);
    service.start_script = { command: stringArray(script.command, `${scriptPath}.command`), args: stringArray(script.args, `${scriptPath}.args`) };
  }
  // Kept as sent, so detail returns them "as in create" (more §5.3); checkServiceFields checks their types.
  if (Array.isArray(object.remote_ports)) service.remote_ports = object.remote_ports.map((port) => ({ service_port: (port as JsonObject | null)?.service_port as number }));
  if (object.health_checks !== undefined) service.health_checks = object.health_checks ?? null;
  if (object.is_update_repository !== undefined) service.is_update_repository = object.is_update_repository ?? null;
  if (object.repository_account !== undefined && object.repository_account !== null) {
    const account = asObject(`${path}.repository_account`, object.repository_account);
    service.repository_account = {
      repository_username: requireString(account, 'repository_username', `${path}.repository_account.repository_username`),
      repository_password: optionalString(account, 'repository_password', `${path}.repository_account.repository_password`) ?? null,
    };
  }
  return service;
}

/** env is an array of {name, value} or {name, value: null, value_from} (not a string as for deployments). */
function parseEnv(value: unknown, path: string): JobEnvVar[] | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') throw invalidParam(path, 'expected an array of {name, value}: a job\'s env is not a string');
  return asArray(path, value).map((item, index) => {
    const entry = asObject(`${path}[${index}]`, item);
    const name = requireString(entry, 'name', `${path}[${index}].name`);
    if (!/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(name)) throw invalidParam(`${path}[${index}].name`, `"${name.slice(0, 40)}" is not a valid environment variable name`);
    const text = optionalString(entry, 'value', `${path}[${index}].value`) ?? null;
    const from = entry.value_from === undefined || entry.value_from === null ? null : asObject(`${path}[${index}].value_from`, entry.value_from);
    if (text === null && from === null) throw invalidParam(`${path}[${index}]`, 'needs value or value_from');
    return { name, value: text, value_from: from };
  });
}

function parseMounts(value: unknown, path: string): JobMount[] | null {
  if (value === undefined || value === null) return null;
  return asArray(path, value).map((item, index) => {
    const entry = asObject(`${path}[${index}]`, item);
    const targetDir = requireString(entry, 'target_dir', `${path}[${index}].target_dir`);
    if (!targetDir.startsWith('/')) throw invalidParam(`${path}[${index}].target_dir`, 'must be an absolute path in the container');
    return { storage_id: requireInt(entry, 'storage_id', { min: 1 }, `${path}[${index}].storage_id`), target_dir: targetDir };
  });
}

/** share_mem_config / share_disk_config: [{target_dir, volume_name}] (more §5.2); the names are checked against the declared volumes. */
function parseVolumeMounts(value: unknown, path: string): { target_dir: string; volume_name: string }[] | null {
  if (value === undefined || value === null) return null;
  return asArray(path, value).map((item, index) => {
    const entry = asObject(`${path}[${index}]`, item);
    const targetDir = requireString(entry, 'target_dir', `${path}[${index}].target_dir`);
    if (!targetDir.startsWith('/')) throw invalidParam(`${path}[${index}].target_dir`, 'must be an absolute path in the container');
    return { target_dir: targetDir, volume_name: requireString(entry, 'volume_name', `${path}[${index}].volume_name`) };
  });
}

function stringArray(value: unknown, path: string): string[] {
  const items = asArray(path, value ?? missing(path));
  items.forEach((item, index) => {
    if (typeof item !== 'string') throw invalidParam(`${path}[${index}]`, 'expected a string');
  });
  return items as string[];
}

/** The containers' GPU weights must sum to more than 0 (on a GPU node) and divide the GCD of the GPU counts. */
function checkGpuWeights(services: readonly JobService[], gpuCounts: readonly number[]): void {
  const gcd = gpuCounts.reduce((a, b) => (b === 0 ? a : gcdOf(a, b)), 0);
  if (gcd === 0) return; // CPU-only nodes: nothing to split
  const sum = services.reduce((total, service) => total + service.resource_weight.gpu_weight, 0);
  if (sum <= 0) throw invalidParam('services[].resource_weight.gpu_weight', 'must sum to more than 0 on a GPU resource');
  if (gcd % sum !== 0) throw invalidParam('services[].resource_weight.gpu_weight', `the sum (${sum}) must divide the GPU count (${gcd})`);
}

function gcdOf(a: number, b: number): number {
  return b === 0 ? a : gcdOf(b, a % b);
}

function missing(path: string): never {
  throw invalidParam(path, 'is required');
}

/** The documented types of a job service's optional fields (more §5.2): refused when they differ, as the platform does. */
function checkServiceFields(object: JsonObject, path: string): void {
  if (object.service_id !== undefined && object.service_id !== null) requireInt(object, 'service_id', { min: 1 }, `${path}.service_id`);
  if (object.remote_ports !== undefined && object.remote_ports !== null) {
    asArray(`${path}.remote_ports`, object.remote_ports).forEach((item, index) => {
      const port = asObject(`${path}.remote_ports[${index}]`, item);
      requireInt(port, 'service_port', { min: 1, max: 65535 }, `${path}.remote_ports[${index}].service_port`);
      optionalString(port, 'url', `${path}.remote_ports[${index}].url`);
    });
  }
  if (object.health_checks !== undefined) parseHealthChecks(object.health_checks, `${path}.health_checks`, false);
  optionalString(object, 'is_update_repository', `${path}.is_update_repository`);
  if (Array.isArray(object.env)) {
    object.env.forEach((item, index) => {
      const from = (item as JsonObject).value_from;
      if (from === undefined || from === null) return;
      const fromPath = `${path}.env[${index}].value_from`;
      const value = asObject(fromPath, from);
      const field = value.field_ref === undefined || value.field_ref === null ? undefined : asObject(`${fromPath}.field_ref`, value.field_ref);
      const resource = value.resource_field_ref === undefined || value.resource_field_ref === null ? undefined : asObject(`${fromPath}.resource_field_ref`, value.resource_field_ref);
      if (!field && !resource) throw invalidParam(fromPath, 'needs field_ref or resource_field_ref');
      if (field) requireString(field, 'field_path', `${fromPath}.field_ref.field_path`);
      if (resource) {
        requireString(resource, 'resource', `${fromPath}.resource_field_ref.resource`);
        optionalString(resource, 'service_name', `${fromPath}.resource_field_ref.service_name`);
      }
    });
  }
}

/** share_disk_volumes [{name}] and share_mem_volumes [{name, size_limit (Mi)}], each null or a list (more §5.2); a service's
 * share_disk_config / share_mem_config mounts only a volume declared there. */
function checkVolumes(body: JsonObject, services: readonly JobService[]): void {
  const declared = { share_disk_config: new Set<string>(), share_mem_config: new Set<string>() };
  if (body.share_disk_volumes !== undefined && body.share_disk_volumes !== null) {
    asArray('share_disk_volumes', body.share_disk_volumes).forEach((item, index) => declared.share_disk_config.add(requireString(asObject(`share_disk_volumes[${index}]`, item), 'name', `share_disk_volumes[${index}].name`)));
  }
  if (body.share_mem_volumes !== undefined && body.share_mem_volumes !== null) {
    asArray('share_mem_volumes', body.share_mem_volumes).forEach((item, index) => {
      const volume = asObject(`share_mem_volumes[${index}]`, item);
      declared.share_mem_config.add(requireString(volume, 'name', `share_mem_volumes[${index}].name`));
      requireInt(volume, 'size_limit', { min: 1 }, `share_mem_volumes[${index}].size_limit`);
    });
  }
  services.forEach((service, serviceIndex) => {
    for (const key of ['share_disk_config', 'share_mem_config'] as const) {
      const volumes = key === 'share_disk_config' ? 'share_disk_volumes' : 'share_mem_volumes';
      ((service[key] ?? []) as { volume_name: string }[]).forEach((mount, index) => {
        if (!declared[key].has(mount.volume_name)) throw invalidParam(`services[${serviceIndex}].${key}[${index}].volume_name`, `"${mount.volume_name.slice(0, 40)}" is not declared in ${volumes}`);
      });
    }
  });
}
