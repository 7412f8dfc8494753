// Validation of the task create body (docs/platform.md): task_name, points, resources[] whose
// mark the sandbox issued, services[] with name, image and ports, and the optional settings create
// and update accept (scheduling, QoS, load balancing, autoscaling, shared memory, storage mounts),
// kept as sent so task detail returns them and a whole-overwrite update that leaves one out clears
// it. Fields outside the documented body are ignored.

import type { ServiceSpec, TaskResource } from '../../../src/core/compute/api';
import type { IssuedMark } from './catalog';
import { invalidParam } from './codes';
import { asArray, asObject, optionalString, requireInt, requireString, type JsonObject } from './params';
import { checkAutoscaling, checkRepositoryFields, checkServiceIds } from './taskFieldTypes';

export const MAX_POINTS = 20;

/** Task-level optional settings; null when absent (detail returns them null, as the platform's does). */
export interface TaskSettings {
  scheduler_strategy: { mode: 'Unrestricted' } | null;
  task_qos: { class: 'Guaranteed' } | null;
  load_balance: JsonObject | null;
  dynamic_pod_strategy: JsonObject | null;
}

type Mounts = { storage_id: number; target_dir: string }[] | null;

/** A service with every optional field the create and update bodies document. */
export type SandboxService = ServiceSpec & { shared_mem_size?: number | null; share_storage_config?: Mounts; nas_storage_config?: Mounts; storage_config?: Mounts };

export interface TaskCreateInput {
  name: string;
  points: number;
  resources: TaskResource[];
  services: SandboxService[];
  pricePerSecond: number;
  /** Absent for seeded tasks: every setting null. */
  settings?: TaskSettings;
}

export const NO_SETTINGS: TaskSettings = { scheduler_strategy: null, task_qos: null, load_balance: null, dynamic_pod_strategy: null };

const BALANCE_TYPES = ['LeastConnection', 'RoundRobin', 'Random', 'IpHash', 'HeaderHash', 'CookieHash'];

function parseSettings(body: JsonObject): TaskSettings {
  const present = (key: string): JsonObject | null => (body[key] === undefined || body[key] === null ? null : asObject(key, body[key]));
  const scheduler = present('scheduler_strategy');
  if (scheduler && scheduler.mode !== 'Unrestricted') throw invalidParam('scheduler_strategy.mode', 'must be "Unrestricted"');
  const qos = present('task_qos');
  if (qos && qos.class !== 'Guaranteed') throw invalidParam('task_qos.class', 'must be "Guaranteed"');
  const balance = present('load_balance');
  if (balance && !BALANCE_TYPES.includes(String(balance.type))) throw invalidParam('load_balance.type', `must be one of ${BALANCE_TYPES.join(', ')}`);
  const autoscaling = present('dynamic_pod_strategy');
  if (autoscaling) checkAutoscaling(autoscaling);
  return { scheduler_strategy: scheduler ? { mode: 'Unrestricted' } : null, task_qos: qos ? { class: 'Guaranteed' } : null, load_balance: balance, dynamic_pod_strategy: present('dynamic_pod_strategy') };
}

function parseMounts(object: JsonObject, key: string, path: string): Mounts {
  const value = object[key];
  if (value === undefined || value === null) return null;
  return asArray(`${path}.${key}`, value).map((item, index) => {
    const itemPath = `${path}.${key}[${index}]`;
    const mount = asObject(itemPath, item);
    return { storage_id: requireInt(mount, 'storage_id', { min: 1 }, `${itemPath}.storage_id`), target_dir: requireString(mount, 'target_dir', `${itemPath}.target_dir`) };
  });
}

export function parseTaskCreate(body: JsonObject, marks: ReadonlyMap<string, IssuedMark>): TaskCreateInput {
  const name = requireString(body, 'task_name');
  if (name.length > 64) throw invalidParam('task_name', `must be at most 64 characters, got ${name.length}`);
  const taskType = body.task_type;
  if (taskType !== undefined && taskType !== null && taskType !== 'Deployment') throw invalidParam('task_type', 'must be "Deployment" or null');
  // The platform defaults points to 1 when null or absent.
  const points = body.points === undefined || body.points === null ? 1 : requireInt(body, 'points', { min: 1, max: MAX_POINTS });
  checkRepositoryFields(body);

  const resourceItems = asArray('resources', body.resources ?? missing('resources'));
  if (resourceItems.length === 0) throw invalidParam('resources', 'must hold at least one resource from resource search');
  let pricePerSecond = 0;
  const resources = resourceItems.map((item, index): TaskResource => {
    const path = `resources[${index}]`;
    const object = asObject(path, item);
    const mark = requireString(object, 'mark', `${path}.mark`);
    const issued = marks.get(mark);
    if (!issued) throw invalidParam(`${path}.mark`, 'unknown mark: copy regions[].mark.mark from a fresh resource search');
    if (issued.inventory === 0) throw invalidParam(`${path}.mark`, `${issued.resource.device_name} is sold out in ${issued.resource.region}`);
    if (object.resource !== undefined && object.resource !== null) {
      const resource = asObject(`${path}.resource`, object.resource);
      if (resource.device_name !== issued.resource.device_name || resource.region !== issued.resource.region) {
        throw invalidParam(`${path}.resource`, 'does not match the resource its mark was issued for');
      }
    }
    optionalString(object, 'region_name', `${path}.region_name`);
    pricePerSecond = Math.max(pricePerSecond, issued.pricePerSecond);
    return { resource: { ...issued.resource }, region_name: issued.regionName, mark, weight: 1 };
  });

  const serviceItems = asArray('services', body.services ?? missing('services'));
  if (serviceItems.length === 0) throw invalidParam('services', 'must hold at least one service');
  const services = serviceItems.map((item, index) => parseService(asObject(`services[${index}]`, item), `services[${index}]`));
  return { name, points, resources, services, pricePerSecond, settings: parseSettings(body) };
}

function parseService(object: JsonObject, path: string): SandboxService {
  checkServiceIds(object, path);
  const service: SandboxService = {
    service_name: requireString(object, 'service_name', `${path}.service_name`),
    service_image: requireString(object, 'service_image', `${path}.service_image`),
    remote_ports: asArray(`${path}.remote_ports`, object.remote_ports ?? missing(`${path}.remote_ports`)).map((port, index) => {
      const portPath = `${path}.remote_ports[${index}]`;
      return { service_port: requireInt(asObject(portPath, port), 'service_port', { min: 1, max: 65535 }, `${portPath}.service_port`) };
    }),
    env: optionalString(object, 'env', `${path}.env`) ?? null,
    shared_mem_size: object.shared_mem_size === undefined || object.shared_mem_size === null ? null : requireInt(object, 'shared_mem_size', { min: 0 }, `${path}.shared_mem_size`),
    storage_config: parseMounts(object, 'storage_config', path),
    share_storage_config: parseMounts(object, 'share_storage_config', path),
    nas_storage_config: parseMounts(object, 'nas_storage_config', path),
  };
  if (object.health_checks !== undefined) service.health_checks = parseHealthChecks(object.health_checks, `${path}.health_checks`);
  if (object.start_script_v2 !== undefined && object.start_script_v2 !== null) {
    const scriptPath = `${path}.start_script_v2`;
    const script = asObject(scriptPath, object.start_script_v2);
    const args = asArray(`${scriptPath}.args`, script.args ?? []);
    args.forEach((arg, index) => {
      if (typeof arg !== 'string') throw invalidParam(`${scriptPath}.args[${index}]`, 'expected a string');
    });
    service.start_script_v2 = { command: optionalString(script, 'command', `${scriptPath}.command`) ?? null, args: args as string[] };
  }
  return service;
}

const PROBES = ['liveness_probe', 'startup_probe', 'readiness_probe'] as const;
const PROBE_INTS = ['port', 'initial_delay_seconds', 'period_seconds', 'timeout_seconds', 'failure_threshold'] as const;

/** health_checks: null, or an object whose probes (each optional) carry every documented field (a job's probes may leave out `path`: more §5.2). */
export function parseHealthChecks(value: unknown, path: string, pathRequired = true): Record<string, unknown> | null {
  if (value === null) return null;
  const checks = asObject(path, value);
  for (const name of PROBES) {
    const probe = checks[name];
    if (probe === undefined || probe === null) continue;
    const probePath = `${path}.${name}`;
    const object = asObject(probePath, probe);
    if (typeof object.switch !== 'boolean') throw invalidParam(`${probePath}.switch`, 'expected a boolean');
    if (object.probe_type !== 'httpGet' && object.probe_type !== 'tcpSocket') throw invalidParam(`${probePath}.probe_type`, 'must be httpGet or tcpSocket');
    if (pathRequired || object.path !== undefined) requireString(object, 'path', `${probePath}.path`);
    for (const field of PROBE_INTS) requireInt(object, field, { min: 0 }, `${probePath}.${field}`);
  }
  return checks;
}

/** The probes a task created without health checks reads back with: each off, with the docs' defaults (docs/sandbox-rules.md). */
export function disabledHealthChecks(): Record<string, unknown> {
  const probe = { switch: false, probe_type: 'httpGet', path: '/live', port: 80, initial_delay_seconds: 0, period_seconds: 10, timeout_seconds: 1, failure_threshold: 3 };
  return Object.fromEntries(PROBES.map((name) => [name, { ...probe }]));
}

/** What detail answers for a service's probes: those it was created with, every other one off (docs/sandbox-rules.md). */
export function readBackHealthChecks(checks: Record<string, unknown> | null | undefined): Record<string, unknown> {
  const read = disabledHealthChecks();
  for (const [name, probe] of Object.entries(checks ?? {})) if (probe !== null && probe !== undefined) read[name] = probe;
  return read;
}

/**
 * Task update (docs/money.md): the whole task as task detail returned it, edited. Needs
 * task_id, and every service must carry `health_checks` as an object (not null) with each of the three
 * probes, every field present (more §3: the update schema requires it although create does not), so a
 * client sends back the live task's probes (docs/sandbox-rules.md).
 */
export function parseTaskUpdate(body: JsonObject, marks: ReadonlyMap<string, IssuedMark>): { taskId: number; input: TaskCreateInput } {
  const taskId = requireInt(body, 'task_id', { min: 1 });
  const input = parseTaskCreate(body, marks);
  asArray('services', body.services).forEach((item, index) => {
    const checks = asObject(`services[${index}]`, item).health_checks;
    if (checks === undefined || checks === null) {
      throw invalidParam(`services[${index}].health_checks`, 'is required by task update: send the live task\'s health_checks back');
    }
    for (const name of PROBES) {
      const probe = asObject(`services[${index}].health_checks`, checks)[name];
      if (probe === undefined || probe === null) throw invalidParam(`services[${index}].health_checks.${name}`, 'is required by task update: send the live task\'s probe back');
    }
  });
  return { taskId, input };
}

function missing(path: string): never {
  throw invalidParam(path, 'is required');
}
