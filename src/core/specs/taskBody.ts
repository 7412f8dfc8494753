// A task spec → the platform's deployment create / update body (platform reference: create §3.2,
// update = full overwrite), and the live task detail → the same readable shape, so both sides of a
// plan compare field by field in the file's own terms.

import type { ResourceSpec, TaskDetail } from '../compute/api';
import { anyProbeOn } from './healthChecks';
import { mountsFromWire, mountsToWire, TASK_MOUNTS, type WireMounts } from './mountFields';
import type { Offer } from './offers';
import { formatEnvText, parseEnvText, refText, resolveEnv, type SecretResolver } from './secrets';
import type { HealthChecks, ResourceSelector, SecretRef, TaskServiceSpec, TaskSpec } from './types';

/** A live task's balance type is shown as the platform sent it; validating the file names an unknown one. */
type LoadBalanceType = NonNullable<TaskSpec['loadBalance']>['type'];

/** A deployment service as create and update accept it (everything the spec can say). */
export interface DeploymentService extends WireMounts<(typeof TASK_MOUNTS)[number]> {
  service_name: string;
  service_image: string;
  remote_ports: { service_port: number }[];
  env: string | null;
  shared_mem_size: number | null;
  start_script_v2: { command: string | null; args: string[] };
  health_checks: HealthChecks | null;
}

export interface DeploymentBody {
  task_type?: 'Deployment';
  task_id?: number;
  task_name: string;
  points: number;
  resources: { mark: string; resource: ResourceSpec; region_name: string }[];
  scheduler_strategy: { mode: 'Unrestricted' } | null;
  task_qos: { class: 'Guaranteed' } | null;
  load_balance: { type: string; params: { header?: string; cookie?: string } } | null;
  dynamic_pod_strategy: Record<string, unknown> | null;
  repository_username?: string;
  repository_password?: string;
  services: DeploymentService[];
}

export interface BuiltBody {
  body: DeploymentBody;
  /** References without a value: nothing may be sent until they are set. */
  missing: SecretRef[];
  /** NAME → value as resolved per service (for the plan's comparison; never shown). */
  envValues: Record<string, string>[];
}

/** The create body (`mode` 'create') or the whole-overwrite update body for `taskId`. */
export async function buildDeploymentBody(spec: TaskSpec, offer: Offer, resolve: SecretResolver, mode: { create: true } | { update: number }): Promise<BuiltBody> {
  const missing: SecretRef[] = [];
  const envValues: Record<string, string>[] = [];
  const services: DeploymentService[] = [];
  for (const service of spec.services) {
    const env = await resolveEnv(service.env, resolve);
    missing.push(...env.missing);
    envValues.push(env.values);
    services.push({
      service_name: service.name,
      service_image: service.image,
      remote_ports: service.ports.map((service_port) => ({ service_port })),
      env: formatEnvText(env.values),
      shared_mem_size: service.sharedMemoryMi ?? null,
      start_script_v2: { command: service.command ?? null, args: service.args ?? [] },
      ...mountsToWire(service, TASK_MOUNTS),
      health_checks: service.healthChecks ?? null,
    });
  }
  const body: DeploymentBody = {
    ...('create' in mode ? { task_type: 'Deployment' as const } : { task_id: mode.update }),
    task_name: spec.name,
    points: spec.nodes,
    resources: [{ mark: offer.region.mark.mark, resource: { ...offer.region.mark.resource }, region_name: offer.region.region_name }],
    scheduler_strategy: spec.crossRegion ? { mode: 'Unrestricted' } : null,
    task_qos: spec.dedicatedCpu ? { class: 'Guaranteed' } : null,
    load_balance: spec.loadBalance ? { type: spec.loadBalance.type, params: { ...(spec.loadBalance.header ? { header: spec.loadBalance.header } : {}), ...(spec.loadBalance.cookie ? { cookie: spec.loadBalance.cookie } : {}) } } : null,
    dynamic_pod_strategy: spec.autoscaling ? { ...spec.autoscaling } : null,
    services,
  };
  // The registry login is write-only and fixed at create (platform reference §3): never in an update.
  if ('create' in mode && spec.registry) {
    const password = await resolve(spec.registry.password);
    if (password === undefined) missing.push(spec.registry.password);
    else {
      body.repository_username = spec.registry.username;
      body.repository_password = password;
    }
  }
  return { body, missing, envValues };
}

// ---- The readable view both sides of a plan are compared in (the spec's own field names) ----

export interface TaskView {
  name: string;
  nodes: number;
  resource: { gpu: string | null; gpuCount: number; region: string; regionName: string; device: string; memoryMi: number; cpuCores: number };
  crossRegion?: true;
  dedicatedCpu?: true;
  loadBalance?: Record<string, unknown>;
  autoscaling?: Record<string, unknown>;
  services: Record<string, unknown>[];
  /** Fields the live task has that a spec cannot say (kept visible: update would drop them). */
  other?: Record<string, unknown>;
}

function resourceView(resource: ResourceSpec | undefined, regionName: string | undefined): TaskView['resource'] {
  return {
    gpu: resource?.gpu_name ?? null,
    gpuCount: resource?.gpu_count ?? 0,
    region: resource?.region ?? '',
    regionName: regionName ?? '',
    device: resource?.device_name ?? '',
    memoryMi: resource?.memory ?? 0,
    cpuCores: resource?.cpu_cores ?? 0,
  };
}

const nonEmpty = <T>(value: T[] | null | undefined): T[] | undefined => (value && value.length > 0 ? value : undefined);

/** Fields of a detail and of its services that the view models; anything else lands in `other`. */
const KNOWN_TASK_FIELDS = new Set(['task_id', 'task_type', 'task_name', 'namespace', 'repository_username', 'repository_password', 'status', 'points', 'runing_points', 'billing_points', 'billing_value', 'forecast_value', 'create_time', 'last_update_time', 'scheduler_strategy', 'task_qos', 'load_balance', 'dynamic_pod_strategy', 'resources', 'services']);
const KNOWN_SERVICE_FIELDS = new Set(['service_id', 'service_name', 'service_image', 'remote_ports', 'env', 'shared_mem_size', 'start_script_v2', 'storage_config', 'share_storage_config', 'nas_storage_config', 'health_checks']);

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0) || (typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0);
}

/** A live service in spec terms, env as NAME → value (plain: the caller masks). */
export function liveServiceSpec(service: Record<string, unknown>): TaskServiceSpec & { other?: Record<string, unknown> } {
  const script = (service.start_script_v2 ?? null) as { command?: string | null; args?: string[] } | null;
  const env = parseEnvText(typeof service.env === 'string' ? service.env : null);
  const ports = Array.isArray(service.remote_ports) ? (service.remote_ports as { service_port?: number }[]).map((port) => Number(port?.service_port)) : [];
  const other: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(service)) if (!KNOWN_SERVICE_FIELDS.has(key) && !isEmpty(value)) other[key] = value;
  const spec: TaskServiceSpec & { other?: Record<string, unknown> } = {
    name: String(service.service_name ?? ''),
    image: String(service.service_image ?? ''),
    ports,
  };
  if (Object.keys(env).length > 0) spec.env = env;
  if (script?.command) spec.command = script.command;
  if (nonEmpty(script?.args)) spec.args = script!.args!;
  if (typeof service.shared_mem_size === 'number' && service.shared_mem_size > 0) spec.sharedMemoryMi = service.shared_mem_size;
  Object.assign(spec, mountsFromWire(service, TASK_MOUNTS));
  // Probes that are all off read as none (what a task made without them returns).
  if (!isEmpty(service.health_checks) && anyProbeOn(service.health_checks)) spec.healthChecks = service.health_checks as HealthChecks;
  if (Object.keys(other).length > 0) spec.other = other;
  return spec;
}

/** The resource of a live task or job (its first resource) as the spec names it. */
export function liveResource(detail: Pick<TaskDetail, 'resources'>): ResourceSelector {
  const first = detail.resources?.[0];
  return {
    gpu: first?.resource.gpu_name ?? '',
    gpuCount: first?.resource.gpu_count ?? 0,
    region: first?.resource.region ?? '',
    device: first?.resource.device_name ?? '',
    memoryMi: first?.resource.memory ?? 0,
    cpuCores: first?.resource.cpu_cores ?? 0,
  };
}

/** The live task in spec terms (env values plain: callers mask or turn them into references). */
export function liveTaskSpec(detail: TaskDetail): Omit<TaskSpec, 'kind'> & { other?: Record<string, unknown>; services: (TaskServiceSpec & { other?: Record<string, unknown> })[] } {
  const raw = detail as unknown as Record<string, unknown>;
  const spec: ReturnType<typeof liveTaskSpec> = {
    name: detail.task_name,
    nodes: detail.points,
    resource: liveResource(detail),
    services: (detail.services ?? []).map((service) => liveServiceSpec(service as unknown as Record<string, unknown>)),
  };
  if ((raw.scheduler_strategy as { mode?: string } | null)?.mode === 'Unrestricted') spec.crossRegion = true;
  if ((raw.task_qos as { class?: string } | null)?.class === 'Guaranteed') spec.dedicatedCpu = true;
  const balance = raw.load_balance as { type?: string; params?: { header?: string; cookie?: string } } | null | undefined;
  if (balance?.type) spec.loadBalance = { type: balance.type as LoadBalanceType, ...(balance.params?.header ? { header: balance.params.header } : {}), ...(balance.params?.cookie ? { cookie: balance.params.cookie } : {}) };
  if (!isEmpty(raw.dynamic_pod_strategy)) spec.autoscaling = raw.dynamic_pod_strategy as Record<string, unknown>;
  const other: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) if (!KNOWN_TASK_FIELDS.has(key) && !isEmpty(value)) other[key] = value;
  if ((detail.resources?.length ?? 0) > 1) other.resources = detail.resources.slice(1).map((resource) => `${resource.resource.device_name} @ ${resource.resource.region}`);
  if (Object.keys(other).length > 0) spec.other = other;
  return spec;
}

export const MASK = '••••••';

/**
 * Both sides of a plan as views. Env values: the file's plain values are shown as written; a
 * reference shows as «secret: name»; a live value is shown only where it equals what the file
 * resolves to (then both read the same), else masked. Secrets never reach a view.
 */
export function planViews(detail: TaskDetail, spec: TaskSpec, offer: Offer, envValues: Record<string, string>[]): { live: TaskView; desired: TaskView } {
  const liveSpec = liveTaskSpec(detail);
  const first = detail.resources?.[0];
  const desiredServices = spec.services.map((service, index) => {
    const shown = serviceView(service);
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(service.env ?? {})) env[name] = typeof value === 'string' ? value : refText(value);
    if (Object.keys(env).length > 0) shown.env = env;
    else delete shown.env;
    void index;
    return shown;
  });
  const liveServices = liveSpec.services.map((service, index) => {
    const shown = serviceView(service);
    const desired = spec.services[index]?.env ?? {};
    const resolved = envValues[index] ?? {};
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(service.env ?? {})) {
      const wanted = desired[name];
      if (wanted !== undefined && resolved[name] === value) env[name] = typeof wanted === 'string' ? wanted : refText(wanted);
      else env[name] = MASK;
    }
    if (Object.keys(env).length > 0) shown.env = env;
    else delete shown.env;
    return shown;
  });
  const common = (source: Omit<TaskSpec, 'kind'>): Omit<TaskView, 'name' | 'nodes' | 'resource' | 'services'> => ({
    ...(source.crossRegion ? { crossRegion: true as const } : {}),
    ...(source.dedicatedCpu ? { dedicatedCpu: true as const } : {}),
    ...(source.loadBalance ? { loadBalance: { ...source.loadBalance } } : {}),
    ...(source.autoscaling ? { autoscaling: { ...source.autoscaling } } : {}),
  });
  const live: TaskView = { name: liveSpec.name, nodes: liveSpec.nodes, resource: resourceView(first?.resource, first?.region_name), ...common(liveSpec), services: liveServices, ...(liveSpec.other ? { other: liveSpec.other } : {}) };
  const desired: TaskView = { name: spec.name, nodes: spec.nodes, resource: resourceView(offer.region.mark.resource, offer.region.region_name), ...common(spec), services: desiredServices };
  return { live, desired };
}

/** A service in view form: the spec's fields with empties dropped and a fixed key order. */
function serviceView(service: TaskServiceSpec & { other?: Record<string, unknown> }): Record<string, unknown> {
  const view: Record<string, unknown> = { name: service.name, image: service.image, ports: service.ports };
  if (service.env && Object.keys(service.env).length > 0) view.env = service.env;
  if (service.command) view.command = service.command;
  if (service.args && service.args.length > 0) view.args = service.args;
  if (service.sharedMemoryMi) view.sharedMemoryMi = service.sharedMemoryMi;
  if (service.storage && service.storage.length > 0) view.storage = service.storage;
  if (service.sharedStorage && service.sharedStorage.length > 0) view.sharedStorage = service.sharedStorage;
  if (service.nas && service.nas.length > 0) view.nas = service.nas;
  if (service.healthChecks && Object.keys(service.healthChecks).length > 0) view.healthChecks = service.healthChecks;
  if (service.other) view.other = service.other;
  return view;
}
