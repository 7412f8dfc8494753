// The sandbox refuses what the platform's documents refuse, route by route (docs/sandbox-rules.md holds
// the table: rule → document section → test). Each rule sends one hand-built request (token mode, so the
// extension's client cannot hide a mistake) that breaks exactly that rule, and expects the documented
// failure envelope: HTTP 200, `data: null`, the code, and the message naming the field first. The types
// the documents give for answers are checked too (strings where they say strings).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sendToken, type HandResponse } from '../sandbox/handClient';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';
import { waitUntil } from '../helpers/eventually';

type Json = Record<string, unknown>;

interface Rule {
  rule: string;
  path: string;
  /** A POST body, built from the valid fixtures. */
  body?: (valid: Fixtures) => Json;
  /** The message must start with this field. */
  field: string;
  code?: string;
}

interface Fixtures {
  task: Json;
  job: Json;
  update: Json;
  /** The seeded Active volume (北京一区) and one Active volume in 上海一区. */
  beijingVolume: number;
  shanghaiVolume: number;
}

const SEEDED_TASK = 1229831;
const NAS = '/api/storage/nas/v1';
const without = (object: Json, key: string): Json => Object.fromEntries(Object.entries(object).filter(([name]) => name !== key));
const firstService = (body: Json): Json => (body.services as Json[])[0] as Json;
const withService = (body: Json, change: (service: Json) => Json): Json => ({ ...body, services: [change(firstService(body))] });
const withSupport = (body: Json, change: (support: Json) => Json): Json => ({ ...body, job_support: change(body.job_support as Json) });

const PREHEAT_SERVICE = { service_name: 'main', service_image: 'pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime' };
const PREHEAT = { task_name: 'preheat-rules', regions: [{ region: 'bj-jxq-t1', region_name: null }], services: [PREHEAT_SERVICE] };

const RULES: Rule[] = [
  // Task create: task_name, resources, services required; each service needs name, image, ports.
  { rule: 'task create requires task_name', path: '/api/deployment/task/create', body: (v) => without(v.task, 'task_name'), field: 'task_name' },
  { rule: 'task create requires services', path: '/api/deployment/task/create', body: (v) => without(v.task, 'services'), field: 'services' },
  { rule: 'task create: resources[].mark is required', path: '/api/deployment/task/create', body: (v) => ({ ...v.task, resources: [without((v.task.resources as Json[])[0] as Json, 'mark')] }), field: 'resources[0].mark' },
  { rule: 'task create: services[].service_image is required', path: '/api/deployment/task/create', body: (v) => withService(v.task, (s) => without(s, 'service_image')), field: 'services[0].service_image' },
  { rule: 'task create: services[].remote_ports is required', path: '/api/deployment/task/create', body: (v) => withService(v.task, (s) => without(s, 'remote_ports')), field: 'services[0].remote_ports' },
  { rule: 'task create: env is a string (not an array)', path: '/api/deployment/task/create', body: (v) => withService(v.task, (s) => ({ ...s, env: [{ name: 'A', value: '1' }] })), field: 'services[0].env' },
  { rule: 'task create: a NAS volume of another region is refused', path: '/api/deployment/task/create', body: (v) => withService(v.task, (s) => ({ ...s, nas_storage_config: [{ storage_id: v.shanghaiVolume, target_dir: '/mnt/nas' }] })), field: 'services[0].nas_storage_config[0].storage_id' },
  // Task update: whole overwrite; every service carries health_checks, each probe every field.
  { rule: 'task update: health_checks is required', path: '/api/deployment/task/update', body: (v) => withService(v.update, (s) => without(s, 'health_checks')), field: 'services[0].health_checks' },
  { rule: 'task update: health_checks is not null', path: '/api/deployment/task/update', body: (v) => withService(v.update, (s) => ({ ...s, health_checks: null })), field: 'services[0].health_checks' },
  {
    rule: 'task update: a probe carries every field (failure_threshold missing)',
    path: '/api/deployment/task/update',
    body: (v) => withService(v.update, (s) => ({ ...s, health_checks: { liveness_probe: without((s.health_checks as Json).liveness_probe as Json, 'failure_threshold') } })),
    field: 'services[0].health_checks.liveness_probe.failure_threshold',
  },
  { rule: 'task update: health_checks carries each probe ({} is refused)', path: '/api/deployment/task/update', body: (v) => withService(v.update, (s) => ({ ...s, health_checks: {} })), field: 'services[0].health_checks.liveness_probe' },
  { rule: 'task update: health_checks carries each probe (startup_probe left out)', path: '/api/deployment/task/update', body: (v) => withService(v.update, (s) => ({ ...s, health_checks: without(s.health_checks as Json, 'startup_probe') })), field: 'services[0].health_checks.startup_probe' },
  { rule: 'task update: a probe is an object, not null', path: '/api/deployment/task/update', body: (v) => withService(v.update, (s) => ({ ...s, health_checks: { ...(s.health_checks as Json), readiness_probe: null } })), field: 'services[0].health_checks.readiness_probe' },
  { rule: 'task update requires task_id', path: '/api/deployment/task/update', body: (v) => without(v.update, 'task_id'), field: 'task_id' },
  { rule: 'task update: a NAS volume of another region is refused', path: '/api/deployment/task/update', body: (v) => withService(v.update, (s) => ({ ...s, nas_storage_config: [{ storage_id: v.shanghaiVolume, target_dir: '/mnt/nas' }] })), field: 'services[0].nas_storage_config[0].storage_id' },
  // Node operations.
  { rule: 'node log requires task_id', path: '/api/deployment/task/point_log?point_id=1&service_id=1', field: 'task_id' },
  { rule: 'node events require point_id', path: '/api/deployment/task/pod_event', field: 'point_id' },
  { rule: 'node delete requires point_id', path: '/api/deployment/task/delete_pod', body: () => ({}), field: 'point_id' },
  { rule: 'change_points: points is an integer', path: '/api/deployment/task/change_points', body: () => ({ task_id: SEEDED_TASK, points: '2' }), field: 'points' },
  // Billing: range, start_time and end_time are required.
  { rule: 'spend by time requires range', path: '/api/billing/get_billing_record?start_time=2026-01-01T00:00:00%2B08:00&end_time=2026-01-02T00:00:00%2B08:00', field: 'range' },
  { rule: 'spend by task requires start_time', path: '/api/billing/get_task_billing_record?range=day&end_time=2026-01-02T00:00:00%2B08:00', field: 'start_time' },
  // Batch jobs.
  { rule: 'job create requires task_name', path: '/api/task/job/create', body: (v) => without(v.job, 'task_name'), field: 'task_name' },
  { rule: 'job create requires resources', path: '/api/task/job/create', body: (v) => without(v.job, 'resources'), field: 'resources' },
  { rule: 'job create requires points', path: '/api/task/job/create', body: (v) => without(v.job, 'points'), field: 'points' },
  { rule: 'job create requires services', path: '/api/task/job/create', body: (v) => without(v.job, 'services'), field: 'services' },
  { rule: 'job create: sub_type is "Spot" or null', path: '/api/task/job/create', body: (v) => ({ ...v.job, sub_type: 'OnDemand' }), field: 'sub_type' },
  { rule: 'job create: job_support.timeout_sec is required', path: '/api/task/job/create', body: (v) => withSupport(v.job, (s) => without(s, 'timeout_sec')), field: 'job_support.timeout_sec' },
  { rule: 'job create: job_support.parallelism is required', path: '/api/task/job/create', body: (v) => withSupport(v.job, (s) => without(s, 'parallelism')), field: 'job_support.parallelism' },
  { rule: 'job create: estimated_exec_sec is at most 86400', path: '/api/task/job/create', body: (v) => withSupport({ ...v.job, sub_type: 'Spot' }, (s) => ({ ...s, estimated_exec_sec: 86_401 })), field: 'job_support.estimated_exec_sec' },
  { rule: 'job create: restart_policy is OnFailure or Never', path: '/api/task/job/create', body: (v) => withSupport(v.job, (s) => ({ ...s, mod_param: { default: { backoff_limit: 1, restart_policy: 'Always' }, index: null } })), field: 'job_support.mod_param.default.restart_policy' },
  { rule: 'job create: services[].resource_weight is required', path: '/api/task/job/create', body: (v) => withService(v.job, (s) => without(s, 'resource_weight')), field: 'services[0].resource_weight' },
  { rule: 'job create: resource_weight.gpu_weight is an integer > 0', path: '/api/task/job/create', body: (v) => withService(v.job, (s) => ({ ...s, resource_weight: { cpu_weight: 1, mem_weight: 1, gpu_weight: 0 } })), field: 'services[0].resource_weight.gpu_weight' },
  { rule: 'job create: resource_weight.cpu_weight is an integer > 0', path: '/api/task/job/create', body: (v) => withService(v.job, (s) => ({ ...s, resource_weight: { cpu_weight: 0, mem_weight: 1, gpu_weight: 1 } })), field: 'services[0].resource_weight.cpu_weight' },
  { rule: 'job create: resource_weight.mem_weight is an integer > 0', path: '/api/task/job/create', body: (v) => withService(v.job, (s) => ({ ...s, resource_weight: { cpu_weight: 1, mem_weight: 1.5, gpu_weight: 1 } })), field: 'services[0].resource_weight.mem_weight' },
  { rule: 'job create: start_script needs args as well as command', path: '/api/task/job/create', body: (v) => withService(v.job, (s) => ({ ...s, start_script: { command: ['sh'] } })), field: 'services[0].start_script.args' },
  { rule: 'job create: an env entry needs value or value_from', path: '/api/task/job/create', body: (v) => withService(v.job, (s) => ({ ...s, env: [{ name: 'A', value: null, value_from: null }] })), field: 'services[0].env[0]' },
  { rule: 'job create: a NAS volume of another region is refused', path: '/api/task/job/create', body: (v) => withService(v.job, (s) => ({ ...s, nas_storage_config: [{ storage_id: v.shanghaiVolume, target_dir: '/mnt/work' }] })), field: 'services[0].nas_storage_config[0].storage_id' },
  { rule: 'job create: an unknown NAS volume is refused', path: '/api/task/job/create', body: (v) => withService(v.job, (s) => ({ ...s, nas_storage_config: [{ storage_id: 987_654, target_dir: '/mnt/work' }] })), field: 'services[0].nas_storage_config[0].storage_id' },
  { rule: 'job create: a mount target_dir is an absolute path', path: '/api/task/job/create', body: (v) => withService(v.job, (s) => ({ ...s, nas_storage_config: [{ storage_id: v.beijingVolume, target_dir: 'work' }] })), field: 'services[0].nas_storage_config[0].target_dir' },
  { rule: 'job create: remote_ports[].service_port is an integer', path: '/api/task/job/create', body: (v) => withService(v.job, (s) => ({ ...s, remote_ports: [{ service_port: '8080' }] })), field: 'services[0].remote_ports[0].service_port' },
  { rule: 'job create: health_checks is an object or null, each probe typed', path: '/api/task/job/create', body: (v) => withService(v.job, (s) => ({ ...s, health_checks: { liveness_probe: { switch: true, probe_type: 'exec', port: 80, initial_delay_seconds: 0, period_seconds: 10, timeout_seconds: 1, failure_threshold: 3 } } })), field: 'services[0].health_checks.liveness_probe.probe_type' },
  { rule: 'job create: is_update_repository is a string or null', path: '/api/task/job/create', body: (v) => withService(v.job, (s) => ({ ...s, is_update_repository: true })), field: 'services[0].is_update_repository' },
  { rule: 'job create: value_from names field_ref or resource_field_ref', path: '/api/task/job/create', body: (v) => withService(v.job, (s) => ({ ...s, env: [{ name: 'POD', value: null, value_from: { field_ref: { path: 'metadata.name' } } }] })), field: 'services[0].env[0].value_from.field_ref.field_path' },
  { rule: 'job create: task_qos is {class: "Guaranteed"} or null', path: '/api/task/job/create', body: (v) => ({ ...v.job, task_qos: { class: 'BestEffort' } }), field: 'task_qos.class' },
  { rule: 'job create: share_mem_volumes[].size_limit is an integer (Mi)', path: '/api/task/job/create', body: (v) => ({ ...v.job, share_mem_volumes: [{ name: 'shm', size_limit: '1Gi' }] }), field: 'share_mem_volumes[0].size_limit' },
  { rule: 'job create: share_disk_volumes[].name is required', path: '/api/task/job/create', body: (v) => ({ ...v.job, share_disk_volumes: [{}] }), field: 'share_disk_volumes[0].name' },
  // Storage mounts (more §5.2, storage §2.10): typed items; storage_config names a Juicefs storage and
  // share_storage_config a ShareStorage of get_storage (3101 and 3103 in the sandbox); shared volumes are declared.
  { rule: 'job create: storage_config[].storage_id is an integer', path: '/api/task/job/create', body: (v) => withService(v.job, (s) => ({ ...s, storage_config: [{ storage_id: '3101', target_dir: '/data' }] })), field: 'services[0].storage_config[0].storage_id' },
  { rule: 'job create: share_storage_config[].target_dir is required', path: '/api/task/job/create', body: (v) => withService(v.job, (s) => ({ ...s, share_storage_config: [{ storage_id: 3103 }] })), field: 'services[0].share_storage_config[0].target_dir' },
  { rule: 'job create: storage_config names an object storage of get_storage, not a NAS volume', path: '/api/task/job/create', body: (v) => withService(v.job, (s) => ({ ...s, storage_config: [{ storage_id: v.beijingVolume, target_dir: '/data' }] })), field: 'services[0].storage_config[0].storage_id' },
  { rule: 'job create: share_storage_config names a ShareStorage, not a Juicefs storage', path: '/api/task/job/create', body: (v) => withService(v.job, (s) => ({ ...s, share_storage_config: [{ storage_id: 3101, target_dir: '/shared' }] })), field: 'services[0].share_storage_config[0].storage_id' },
  { rule: 'job create: share_mem_config mounts a volume declared in share_mem_volumes', path: '/api/task/job/create', body: (v) => withService(v.job, (s) => ({ ...s, share_mem_config: [{ volume_name: 'shm', target_dir: '/dev/shm' }] })), field: 'services[0].share_mem_config[0].volume_name' },
  { rule: 'job create: share_disk_config[].target_dir is required', path: '/api/task/job/create', body: (v) => ({ ...withService(v.job, (s) => ({ ...s, share_disk_config: [{ volume_name: 'scratch' }] })), share_disk_volumes: [{ name: 'scratch' }] }), field: 'services[0].share_disk_config[0].target_dir' },
  { rule: 'task create: storage_config names an object storage of get_storage', path: '/api/deployment/task/create', body: (v) => withService(v.task, (s) => ({ ...s, storage_config: [{ storage_id: 987_654, target_dir: '/data' }] })), field: 'services[0].storage_config[0].storage_id' },
  { rule: 'task update: share_storage_config names a ShareStorage of get_storage', path: '/api/deployment/task/update', body: (v) => withService(v.update, (s) => ({ ...s, share_storage_config: [{ storage_id: 3101, target_dir: '/shared' }] })), field: 'services[0].share_storage_config[0].storage_id' },
  // Image preheat create (storage §5.3): the documented types of the optional fields.
  { rule: 'preheat create: services[].is_update_repository is a boolean or null', path: '/api/task/image_preheat/create', body: () => ({ ...PREHEAT, services: [{ ...PREHEAT_SERVICE, is_update_repository: 'true' }] }), field: 'services[0].is_update_repository' },
  { rule: 'preheat create: repository_account.repository_password is a string or null', path: '/api/task/image_preheat/create', body: () => ({ ...PREHEAT, services: [{ ...PREHEAT_SERVICE, repository_account: { repository_username: 'u', repository_password: 123 } }] }), field: 'services[0].repository_account.repository_password' },
  { rule: 'preheat create: regions[].region_name is a string or null', path: '/api/task/image_preheat/create', body: () => ({ ...PREHEAT, regions: [{ region: 'bj-jxq-t1', region_name: 7 }] }), field: 'regions[0].region_name' },
  { rule: 'preheat create: resources[].weight is an integer or null', path: '/api/task/image_preheat/create', body: (v) => ({ task_name: 'p', resources: [{ mark: ((v.task.resources as Json[])[0] as Json).mark, weight: '1' }], points: 1, services: [PREHEAT_SERVICE] }), field: 'resources[0].weight' },
  { rule: 'job detail requires task_id', path: '/api/task/job/detail', field: 'task_id' },
  { rule: 'job stop requires task_id', path: '/api/task/job/stop', body: () => ({}), field: 'task_id' },
  // NAS volumes, SFTP and transfers.
  { rule: 'volume create requires name', path: `${NAS}/create`, body: () => ({ nas_config_id: 101, total_size: 1024 ** 3 }), field: 'name' },
  { rule: 'volume create: name is 1–32 characters after trimming', path: `${NAS}/create`, body: () => ({ name: 'x'.repeat(33), nas_config_id: 101, total_size: 1024 ** 3 }), field: 'name' },
  { rule: 'volume create: total_size is > 0', path: `${NAS}/create`, body: () => ({ name: 'v', nas_config_id: 101, total_size: 0 }), field: 'total_size' },
  { rule: 'volume create: only an Available config', path: `${NAS}/create`, body: () => ({ name: 'v', nas_config_id: 104, total_size: 1024 ** 3 }), field: 'nas_config_id' },
  { rule: 'volume expand: the new total is larger than the current one', path: `${NAS}/expand`, body: (v) => ({ id: v.beijingVolume, total_size: 1024 ** 3 }), field: 'total_size' },
  { rule: 'volume rename requires name', path: `${NAS}/rename`, body: (v) => ({ id: v.beijingVolume }), field: 'name' },
  { rule: 'volume delete: force is a boolean', path: `${NAS}/delete`, body: (v) => ({ id: v.beijingVolume, force: 'yes' }), field: 'force' },
  { rule: 'volume list: statuses is one of the volume statuses', path: `${NAS}/list?statuses=Active,Broken`, field: 'statuses' },
  { rule: 'SFTP obtain: storage_id > 0', path: `${NAS}/sftp/obtain`, body: () => ({ storage_id: 0 }), field: 'storage_id' },
  { rule: 'SFTP destroy requires storage_id', path: `${NAS}/sftp/destroy`, body: () => ({}), field: 'storage_id' },
  { rule: 'transfer detail requires id', path: `${NAS}/s3/detail`, field: 'id' },
  { rule: 'transfer stop: id > 0', path: `${NAS}/s3/stop`, body: () => ({ id: 0 }), field: 'id' },
  // Deployment body types the sandbox used to let through.
  { rule: 'task create: repository_username is a string or null', path: '/api/deployment/task/create', body: (v) => ({ ...v.task, repository_username: 7 }), field: 'repository_username' },
  { rule: 'task create: repository_password is a string or null', path: '/api/deployment/task/create', body: (v) => ({ ...v.task, repository_username: 'u', repository_password: 123 }), field: 'repository_password' },
  { rule: 'task create: resources[].region_name is a string or null', path: '/api/deployment/task/create', body: (v) => ({ ...v.task, resources: [{ ...((v.task.resources as Json[])[0] as Json), region_name: 1 }] }), field: 'resources[0].region_name' },
  { rule: 'task create: dynamic_pod_strategy.switch is a boolean', path: '/api/deployment/task/create', body: (v) => ({ ...v.task, dynamic_pod_strategy: { switch: 'true', min_workers: 1, max_workers: 2 } }), field: 'dynamic_pod_strategy.switch' },
  { rule: 'task create: dynamic_pod_strategy.max_workers is an integer', path: '/api/deployment/task/create', body: (v) => ({ ...v.task, dynamic_pod_strategy: { switch: true, min_workers: 1, max_workers: '2' } }), field: 'dynamic_pod_strategy.max_workers' },
  { rule: 'task create: dynamic_pod_strategy.benchmark[].scaling_strategy is queue_delay or queue_length', path: '/api/deployment/task/create', body: (v) => ({ ...v.task, dynamic_pod_strategy: { switch: true, min_workers: 1, max_workers: 2, benchmark: [{ scaling_strategy: 'cpu' }] } }), field: 'dynamic_pod_strategy.benchmark[0].scaling_strategy' },
  { rule: 'task create: services[].remote_ports[].url is a string or null', path: '/api/deployment/task/create', body: (v) => withService(v.task, (s) => ({ ...s, remote_ports: [{ service_port: 80, url: 80 }] })), field: 'services[0].remote_ports[0].url' },
  { rule: 'task update: services[].service_id is a number or null', path: '/api/deployment/task/update', body: (v) => withService(v.update, (s) => ({ ...s, service_id: String(s.service_id) })), field: 'services[0].service_id' },
  { rule: 'job create: services[].service_id is an integer or null', path: '/api/task/job/create', body: (v) => withService(v.job, (s) => ({ ...s, service_id: 'c1' })), field: 'services[0].service_id' },
  { rule: 'job create: resources[].region_name is a string or null', path: '/api/task/job/create', body: (v) => ({ ...v.job, resources: [{ ...((v.job.resources as Json[])[0] as Json), region_name: 1 }] }), field: 'resources[0].region_name' },
];

function assertRefused(response: HandResponse, rule: Rule): void {
  assert.equal(response.status, 200, 'the platform answers business failures with HTTP 200');
  assert.deepEqual(Object.keys(response.json ?? {}).sort(), ['code', 'data', 'message']);
  assert.equal(response.code, rule.code ?? 'C999', String(response.message));
  assert.equal(response.data, null, 'data is null whenever code is not 0000');
  assert.ok(String(response.message).startsWith(`${rule.field}:`), `the message names ${rule.field} first: ${String(response.message)}`);
}

describe('the sandbox refuses what the documents refuse (docs/sandbox-rules.md)', () => {
  let sandbox: Sandbox;
  let fixtures: Fixtures;
  const send = (path: string, body?: Json): Promise<HandResponse> =>
    sendToken(sandbox.url, sandbox.credentials.tokenMode.token, { path, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const ok = async (path: string, body?: Json): Promise<unknown> => {
    const response = await send(path, body);
    assert.equal(response.code, '0000', `${path}: ${String(response.message)}`);
    return response.data;
  };

  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0, jobPendingMs: 200, nas: { creatingMs: 0 } });
    const search = (await ok('/api/deployment/resource/search?task_type=Deployment&device_type=GpuDevice')) as { results: { gpu_count: number; regions: Json[] }[] };
    const region = search.results.filter((device) => device.gpu_count === 1).flatMap((device) => device.regions).find((r) => r.region_name === '北京一区' && (r.inventory as number) > 0);
    assert.ok(region, 'a 1-GPU offer in 北京一区');
    const mark = region.mark as { mark: string; resource: Json };
    const resources = [{ mark: mark.mark, resource: mark.resource, region_name: region.region_name }];
    const volumes = (await ok(`${NAS}/list`)) as { results: { storage_id: number; region: { name: string } }[] };
    const beijing = volumes.results.find((volume) => volume.region.name === '北京一区');
    assert.ok(beijing, 'the seeded volume is in 北京一区');
    const created = (await ok(`${NAS}/create`, { name: 'shanghai', nas_config_id: 103, total_size: 1024 ** 3 })) as { storage_id: number };
    await waitUntil('the 上海一区 volume is Active', async () => {
      const listed = (await ok(`${NAS}/list?storage_ids=${created.storage_id}`)) as { results: { status: string }[] };
      return listed.results[0]?.status === 'Active' ? true : undefined;
    });
    const task = {
      task_name: 'rules',
      points: 1,
      resources,
      services: [{ service_name: 'web', service_image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0', remote_ports: [{ service_port: 80 }], env: null }],
    };
    const { task_id: taskId } = (await ok('/api/deployment/task/create', task)) as { task_id: number };
    const update = (await ok(`/api/deployment/task/detail?task_id=${taskId}`)) as Json;
    const job = {
      task_name: 'rules-job',
      sub_type: null,
      resources,
      points: 1,
      job_support: { estimated_exec_sec: null, timeout_sec: 60, parallelism: 1, mod_param: { default: { backoff_limit: 0, restart_policy: 'Never' }, index: null } },
      services: [
        {
          service_name: 'container-01',
          service_image: 'pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime',
          resource_weight: { cpu_weight: 1, mem_weight: 1, gpu_weight: 1 },
          env: [{ name: 'A', value: '1' }],
          start_script: { command: ['/bin/sh', '-c'], args: ['exit 3'] },
          nas_storage_config: [{ storage_id: beijing.storage_id, target_dir: '/mnt/work' }],
        },
      ],
    };
    fixtures = { task, job, update, beijingVolume: beijing.storage_id, shanghaiVolume: created.storage_id };
  });
  after(() => sandbox.close());

  for (const rule of RULES) {
    it(rule.rule, async () => {
      assertRefused(await send(rule.path, rule.body?.(fixtures)), rule);
    });
  }

  it('the valid fixtures themselves pass (the rules do not refuse everything)', async () => {
    await ok('/api/deployment/task/create', fixtures.task);
    await ok('/api/deployment/task/update', fixtures.update);
    await ok('/api/task/job/create', fixtures.job);
    // The documented optional job fields, well typed, pass too (a job probe may leave out path).
    const probe = { switch: true, probe_type: 'tcpSocket', port: 8080, initial_delay_seconds: 0, period_seconds: 10, timeout_seconds: 1, failure_threshold: 3 };
    await ok('/api/task/job/create', {
      ...withService(fixtures.job, (s) => ({ ...s, remote_ports: [{ service_port: 8080, url: null }], health_checks: { liveness_probe: probe }, is_update_repository: null, env: [{ name: 'POD', value: null, value_from: { field_ref: { field_path: 'metadata.name' } } }] })),
      task_name: 'rules-job-fields',
      task_qos: { class: 'Guaranteed' },
      share_mem_volumes: [{ name: 'shm', size_limit: 1024 }],
      share_disk_volumes: [{ name: 'scratch' }],
    });
    await ok('/api/task/image_preheat/create', { ...PREHEAT, services: [{ ...PREHEAT_SERVICE, is_update_repository: false, repository_account: { repository_username: 'u', repository_password: null } }] });
    // Every mount list, well formed, passes and reads back as sent.
    const mounts = { storage_config: [{ storage_id: 3101, target_dir: '/data' }], share_storage_config: [{ storage_id: 3103, target_dir: '/shared' }], share_mem_config: [{ volume_name: 'shm', target_dir: '/dev/shm' }], share_disk_config: [{ volume_name: 'scratch', target_dir: '/scratch' }] };
    const { task_id: jobId } = (await ok('/api/task/job/create', { ...withService(fixtures.job, (s) => ({ ...s, ...mounts })), task_name: 'rules-job-mounts', share_mem_volumes: [{ name: 'shm', size_limit: 1024 }], share_disk_volumes: [{ name: 'scratch' }] })) as { task_id: number };
    const detail = (await ok(`/api/task/job/detail?task_id=${jobId}`)) as Json;
    for (const [key, value] of Object.entries(mounts)) assert.deepEqual(firstService(detail)[key], value, key);
    assert.deepEqual(detail.share_mem_volumes, [{ name: 'shm', size_limit: 1024 }]);
    await ok('/api/deployment/task/create', { ...withService(fixtures.task, (s) => ({ ...s, storage_config: mounts.storage_config, share_storage_config: mounts.share_storage_config })), task_name: 'rules-task-mounts' });
  });

  it('task detail answers the write-only registry login as null, not absent, and well-typed optional fields pass', async () => {
    const autoscaling = { switch: true, min_workers: 1, max_workers: 2, idle_timeout: 300, execution_timeout: 600, benchmark: [{ scaling_strategy: 'queue_length' }] };
    const { task_id: id } = (await ok('/api/deployment/task/create', { ...fixtures.task, task_name: 'registry', repository_username: 'u', repository_password: 'p', dynamic_pod_strategy: autoscaling })) as { task_id: number };
    const detail = (await ok(`/api/deployment/task/detail?task_id=${id}`)) as Json;
    assert.ok('repository_username' in detail && 'repository_password' in detail, 'both keys are present');
    assert.equal(detail.repository_username, null);
    assert.equal(detail.repository_password, null);
    await ok('/api/deployment/task/update', detail);
  });

  it('job detail returns the services as created, each port with its public URL once Running (more §5.3)', async () => {
    const probe = { switch: true, probe_type: 'tcpSocket', port: 8080, initial_delay_seconds: 0, period_seconds: 10, timeout_seconds: 1, failure_threshold: 3 };
    const body = withService(fixtures.job, (s) => ({ ...s, start_script: { command: ['/bin/sh', '-c'], args: ['sleep 30'] }, remote_ports: [{ service_port: 8080 }], health_checks: { liveness_probe: probe }, is_update_repository: null }));
    const { task_id: id } = (await ok('/api/task/job/create', { ...body, task_name: 'job-ports' })) as { task_id: number };
    const running = await waitUntil('the job runs', async () => {
      const detail = (await ok(`/api/task/job/detail?task_id=${id}`)) as Json;
      return detail.status === 'Running' ? detail : undefined;
    });
    const service = firstService(running);
    assert.deepEqual(service.health_checks, { liveness_probe: probe });
    assert.equal(service.is_update_repository, null);
    const ports = service.remote_ports as { url: unknown; service_port: unknown }[];
    assert.equal(ports.length, 1);
    assert.equal(ports[0]?.service_port, 8080);
    assert.equal(typeof ports[0]?.url, 'string', `url: ${JSON.stringify(ports[0]?.url)}`);
    await ok('/api/task/job/stop', { task_id: id });
  });

  it('change_points and delete_pod succeed without a data key, as the docs\' examples answer (more §1, §4.2–4.3)', async () => {
    const { task_id: id } = (await ok('/api/deployment/task/create', { ...fixtures.task, task_name: 'no-data-key' })) as { task_id: number };
    const changed = await send('/api/deployment/task/change_points', { task_id: id, points: 2 });
    assert.equal(changed.code, '0000', String(changed.message));
    assert.deepEqual(Object.keys(changed.json ?? {}).sort(), ['code', 'message']);
    const nodes = (await ok(`/api/deployment/task/points?task_id=${id}`)) as { results: { point_id: number }[] };
    const deleted = await send('/api/deployment/task/delete_pod', { point_id: nodes.results[0]?.point_id });
    assert.equal(deleted.code, '0000', String(deleted.message));
    assert.deepEqual(Object.keys(deleted.json ?? {}).sort(), ['code', 'message']);
  });

  it('a task created without health checks reads back with every probe off, and that detail posts back as an update', async () => {
    const { task_id: id } = (await ok('/api/deployment/task/create', { ...fixtures.task, task_name: 'no-probes' })) as { task_id: number };
    const detail = (await ok(`/api/deployment/task/detail?task_id=${id}`)) as Json;
    const checks = firstService(detail).health_checks as Record<string, Json>;
    assert.deepEqual(Object.keys(checks).sort(), ['liveness_probe', 'readiness_probe', 'startup_probe']);
    for (const probe of Object.values(checks)) assert.equal(probe.switch, false);
    await ok('/api/deployment/task/update', detail);
  });

  it("a node's exit_code is a string (or null), as the documents type it, for a job's pods and a task's nodes", async () => {
    const { task_id: jobId } = (await ok('/api/task/job/create', { ...fixtures.job, task_name: 'exit-code' })) as { task_id: number };
    const pods = await waitUntil('the job pod has exited', async () => {
      const listed = (await ok(`/api/deployment/task/points?task_id=${jobId}`)) as { results: { containers: { exit_code: unknown }[] }[] };
      return listed.results.some((pod) => pod.containers[0]?.exit_code !== null) ? listed.results : undefined;
    });
    assert.ok(pods.some((pod) => pod.containers[0]?.exit_code === '3'), `exit_code "3": ${JSON.stringify(pods.map((pod) => pod.containers[0]?.exit_code))}`);
    const nodes = (await ok(`/api/deployment/task/points?task_id=${SEEDED_TASK}`)) as { results: { containers: { exit_code: unknown }[] }[] };
    for (const node of nodes.results) for (const container of node.containers) assert.ok(container.exit_code === null || typeof container.exit_code === 'string');
  });

  it('node counts are strings: resource.gpu_count and cpu_cores in the node list, as the documents type them', async () => {
    const nodes = (await ok(`/api/deployment/task/points?task_id=${SEEDED_TASK}`)) as { results: { resource: { gpu_count: unknown; cpu_cores: unknown } }[] };
    assert.ok(nodes.results.length > 0);
    for (const node of nodes.results) {
      assert.match(String(node.resource.gpu_count), /^\d+$/);
      assert.equal(typeof node.resource.gpu_count, 'string', JSON.stringify(node.resource));
      assert.equal(typeof node.resource.cpu_cores, 'string', JSON.stringify(node.resource));
    }
  });
});
