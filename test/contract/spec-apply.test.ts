// Spec files against the strict sandbox: task update is a whole overwrite there as on the platform
// (a field the body leaves out is cleared), and a spec saved from a task, edited, planned and
// applied changes exactly what was edited; a second plan finds nothing.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ComputeClient, TaskCreateBody, TaskUpdateBody } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import { specFromTask } from '../../src/core/specs/fromLive';
import { applyTaskPlan, checkSpec, planTaskSpec, type SpecContext } from '../../src/core/specs/runner';
import type { TaskSpec } from '../../src/core/specs/types';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { confinedPath, confinedSpecFiles } from '../../src/core/specs/fileAccess';
import { findTool, type ToolContext } from '../../src/core/tools/index';
import { confirmTool, runTool } from '../../src/core/tools/run';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';
import { specServicesOver } from '../../src/core/specs/specServices';

describe('spec files against the strict sandbox', () => {
  let sandbox: Sandbox;
  let client: ComputeClient;

  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0 });
    client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }), retry: { baseDelayMs: 5, maxDelayMs: 50 } });
  });
  after(() => sandbox.close());

  const createTask = async (extra: Record<string, unknown>, serviceExtra: Record<string, unknown>): Promise<number> => {
    const devices = await client.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
    // 北京一区: the seeded NAS volume 1001's region (a task mounts only volumes of its own region).
    const region = devices.results.flatMap((device) => device.regions).find((candidate) => candidate.inventory > 2 && candidate.region_name === '北京一区');
    assert.ok(region, 'the sandbox lists a resource in stock');
    const body = {
      task_type: 'Deployment',
      task_name: 'overwrite-check',
      points: 1,
      resources: [{ mark: region.mark.mark, resource: region.mark.resource, region_name: region.region_name }],
      services: [{ service_name: 'web', service_image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0', remote_ports: [{ service_port: 6688 }], env: 'A=1', ...serviceExtra }],
      ...extra,
    } as unknown as TaskCreateBody;
    return (await client.call('task.create', body)).task_id;
  };

  it('task update is a whole overwrite: settings and service fields left out are cleared', async () => {
    const taskId = await createTask(
      { task_qos: { class: 'Guaranteed' }, scheduler_strategy: { mode: 'Unrestricted' }, load_balance: { type: 'RoundRobin', params: {} } },
      { shared_mem_size: 2048, nas_storage_config: [{ storage_id: 1001, target_dir: '/mnt/nas' }] },
    );
    const detail = (await client.call('task.detail', { task_id: taskId })) as unknown as Record<string, unknown> & { services: Record<string, unknown>[] };
    assert.deepEqual(detail.task_qos, { class: 'Guaranteed' });
    assert.deepEqual(detail.scheduler_strategy, { mode: 'Unrestricted' });
    assert.equal(detail.services[0]!.shared_mem_size, 2048);
    assert.deepEqual(detail.services[0]!.nas_storage_config, [{ storage_id: 1001, target_dir: '/mnt/nas' }]);

    // Post back the detail without the settings and the service's optional fields.
    const { task_qos: _q, scheduler_strategy: _s, load_balance: _l, ...rest } = detail;
    const service = detail.services[0]!;
    const { shared_mem_size: _m, nas_storage_config: _n, env: _e, ...bareService } = service;
    await client.call('task.update', { ...rest, services: [bareService] } as unknown as TaskUpdateBody);
    const after = (await client.call('task.detail', { task_id: taskId })) as unknown as Record<string, unknown> & { services: Record<string, unknown>[] };
    assert.equal(after.task_qos, null);
    assert.equal(after.scheduler_strategy, null);
    assert.equal(after.load_balance, null);
    assert.equal(after.services[0]!.shared_mem_size, null);
    assert.equal(after.services[0]!.nas_storage_config, null);
    assert.equal(after.services[0]!.env, null);
    // What was posted stays.
    assert.equal(after.services[0]!.service_image, service.service_image);
  });

  it('save a task as a spec, edit node count + env + image: the plan shows exactly those, update applies, a second plan is empty', async () => {
    const taskId = await createTask({}, { env: 'MODE=prod\nHF_TOKEN=hf_abcdefghijklmnop' });
    const secrets = new Map<string, string>();
    const context: SpecContext = { services: specServicesOver(() => client), resolveSecret: async (ref) => ('secret' in ref ? secrets.get(ref.secret) : undefined) };
    const saved = specFromTask(await client.call('task.detail', { task_id: taskId }), 'sandbox');
    for (const secret of saved.secrets) secrets.set(secret.name, secret.value);
    assert.deepEqual((await planTaskSpec(saved.spec, context)).changes, [], 'the saved file matches the task');

    const edited: TaskSpec = structuredClone(saved.spec);
    edited.nodes = 2;
    edited.services[0]!.image = 'harbor.suanleme.cn/public-hub/dailyhot:2.0';
    edited.services[0]!.env = { ...edited.services[0]!.env, MODE: 'staging' };
    const checks = await checkSpec(edited, context);
    assert.ok(!checks.some((check) => check.severity === 'error'), JSON.stringify(checks));
    const plan = await planTaskSpec(edited, context);
    assert.deepEqual(plan.changes.map((change) => change.path), ['nodes', 'services[0].image', 'services[0].env.MODE']);
    assert.ok(plan.costBefore !== undefined && plan.costAfter !== undefined && Math.abs(plan.costAfter - 2 * plan.costBefore) < 1e-9);
    assert.deepEqual(await applyTaskPlan(plan, context), { taskId, created: false });

    const live = await client.call('task.detail', { task_id: taskId });
    assert.equal(live.points, 2);
    assert.equal(live.services[0]!.service_image, 'harbor.suanleme.cn/public-hub/dailyhot:2.0');
    assert.equal(live.services[0]!.env, 'MODE=staging\nHF_TOKEN=hf_abcdefghijklmnop');
    assert.deepEqual((await planTaskSpec(edited, context)).changes, [], 'a second plan finds nothing');
  });

  it('a file without health checks updates a task that has them: the live probes are sent back, and the plan does not clear them', async () => {
    const probe = { switch: true, probe_type: 'tcpSocket', path: '/live', port: 6688, initial_delay_seconds: 5, period_seconds: 10, timeout_seconds: 1, failure_threshold: 3 };
    const taskId = await createTask({}, { health_checks: { liveness_probe: probe } });
    const context: SpecContext = { services: specServicesOver(() => client), resolveSecret: async () => undefined };
    // Env values stay plain here (no secret store in this test): only the probes are in question.
    const saved = specFromTask(await client.call('task.detail', { task_id: taskId }), 'sandbox', { keepPlain: () => true });
    const { healthChecks: _probes, ...service } = saved.spec.services[0]!;
    const fromTemplate: TaskSpec = { ...saved.spec, services: [{ ...service, image: 'harbor.suanleme.cn/public-hub/dailyhot:2.0' }] };
    const plan = await planTaskSpec(fromTemplate, context);
    assert.deepEqual(plan.changes.map((change) => [change.path, change.kind]), [['services[0].image', 'change']], 'nothing about health checks is cleared');
    assert.deepEqual(await applyTaskPlan(plan, context), { taskId, created: false });
    const live = await client.call('task.detail', { task_id: taskId });
    assert.equal(live.services[0]!.service_image, 'harbor.suanleme.cn/public-hub/dailyhot:2.0');
    assert.deepEqual((live.services[0]!.health_checks as Record<string, unknown>).liveness_probe, probe);
  });

  it('deploys a spec without a task id as a create', async () => {
    const context: SpecContext = { services: specServicesOver(() => client), resolveSecret: async () => undefined };
    const devices = await client.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
    const device = devices.results.find((candidate) => candidate.regions.some((region) => region.inventory > 0))!;
    const region = device.regions.find((candidate) => candidate.inventory > 0)!;
    const spec: TaskSpec = { kind: 'task', name: 'from-spec', nodes: 1, resource: { gpu: device.gpu_name, gpuCount: device.gpu_count, region: region.region, device: device.device_name, memoryMi: device.memory, cpuCores: device.cpu_cores }, services: [{ name: 'web', image: 'nginx:1.27', ports: [80], sharedMemoryMi: 1024 }] };
    const plan = await planTaskSpec(spec, context);
    assert.equal(plan.action, 'create');
    const { taskId, created } = await applyTaskPlan(plan, context);
    assert.ok(created);
    const detail = (await client.call('task.detail', { task_id: taskId })) as unknown as { services: { shared_mem_size: number }[] };
    assert.equal(detail.services[0]!.shared_mem_size, 1024);
    assert.deepEqual((await planTaskSpec({ ...spec, taskId }, context)).changes, []);
  });

  it('agent tools: validate and plan a spec file, apply it with the plan in the confirmation; files outside the folder are refused', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'spec-tools-'));
    try {
      const taskId = await createTask({}, { env: 'MODE=prod' });
      const saved = specFromTask(await client.call('task.detail', { task_id: taskId }), undefined, { keepPlain: () => true });
      writeFileSync(path.join(folder, 'api.task.json'), JSON.stringify({ ...saved.spec, nodes: 2 }, null, 2));
      writeFileSync(path.join(folder, 'typo.task.json'), JSON.stringify({ ...saved.spec, nodse: 2 }, null, 2));
      const context: ToolContext = { client, profile: { label: 'sandbox', environment: 'sandbox' }, specFiles: confinedSpecFiles([folder], { size: async (file) => statSync(file).size, read: async (file) => readFileSync(file) }, async () => undefined, true) };
      const validate = await runTool(findTool('compute_validate_spec')!, { path: 'typo.task.json' }, context);
      assert.match(validate.text, /line \d+: error: Unknown field "nodse"/);
      const plan = await runTool(findTool('compute_plan_spec')!, { path: 'api.task.json' }, context);
      assert.equal(plan.isError, false, plan.text);
      assert.match(plan.text, /- nodes: 1 → 2/);
      const confirm = await confirmTool(findTool('compute_apply_spec')!, { path: 'api.task.json' }, context);
      assert.match(confirm?.message ?? '', /- nodes: 1 → 2/);
      const applied = await runTool(findTool('compute_apply_spec')!, { path: 'api.task.json' }, context);
      assert.equal(applied.isError, false, applied.text);
      assert.equal((await client.call('task.detail', { task_id: taskId })).points, 2);
      const outside = await runTool(findTool('compute_plan_spec')!, { path: '../etc/passwd.task.json' }, context);
      assert.equal(outside.isError, true);
      assert.match(outside.text, /outside the open folder/);
      assert.throws(() => confinedPath('/etc/x.task.json', [folder]), /outside/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
