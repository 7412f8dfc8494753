// Two rows of docs/sandbox-rules.md against the client: a task update carries every service's three
// probes, every field present (more §3), and a job container's resource weights are integers > 0, the
// GPU weight too, also on a CPU node (more §5.2). The sandbox refuses the rest (the rows'
// sandbox-documented-rules.test.ts cases); here the client's own bodies pass it: an update from a
// spec file with no probes, with `healthChecks: {}` or with one probe sends the live ones back, and
// Run on GPU's job body on a CPU device sends a GPU weight of 1.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TaskCreateBody } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import { buildJobBody } from '../../src/core/jobs/jobBody';
import { specFromTask } from '../../src/core/specs/fromLive';
import { applyTaskPlan, planTaskSpec, type SpecContext } from '../../src/core/specs/runner';
import type { TaskSpec } from '../../src/core/specs/types';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';
import { specServicesOver } from '../../src/core/specs/specServices';

const PROBE = { switch: true, probe_type: 'httpGet', path: '/healthz', port: 6688, initial_delay_seconds: 5, period_seconds: 10, timeout_seconds: 2, failure_threshold: 3 } as const;

describe('probes on update and job weights: the client passes the documents the sandbox enforces', () => {
  let sandbox: Sandbox;
  let client: ReturnType<typeof createComputeClient>;
  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0 });
    client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }), retry: { baseDelayMs: 5, maxDelayMs: 50 } });
  });
  after(() => sandbox.close());

  const createTask = async (healthChecks: Record<string, unknown> | undefined): Promise<number> => {
    const devices = await client.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
    const region = devices.results.flatMap((device) => device.regions).find((candidate) => candidate.inventory > 2);
    assert.ok(region, 'the sandbox lists a resource in stock');
    const service = { service_name: 'web', service_image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0', remote_ports: [{ service_port: 6688 }], ...(healthChecks ? { health_checks: healthChecks } : {}) };
    const body = { task_name: 'probe-check', points: 1, resources: [{ mark: region.mark.mark, resource: region.mark.resource, region_name: region.region_name }], services: [service] };
    return (await client.call('task.create', body as unknown as TaskCreateBody)).task_id;
  };
  const context = (): SpecContext => ({ services: specServicesOver(() => client), resolveSecret: async () => undefined });
  const liveChecks = async (taskId: number) => ((await client.call('task.detail', { task_id: taskId })).services[0] as { health_checks?: unknown }).health_checks;
  const update = async (taskId: number, change: (spec: TaskSpec) => TaskSpec): Promise<void> => {
    const saved = specFromTask(await client.call('task.detail', { task_id: taskId }), 'sandbox', { keepPlain: () => true });
    const plan = await planTaskSpec(change({ ...saved.spec, nodes: 2 }), context());
    await applyTaskPlan(plan, context());
  };

  for (const [what, change] of [
    ['no probes', (spec: TaskSpec): TaskSpec => ({ ...spec, services: spec.services.map(({ healthChecks: _none, ...service }) => service) })],
    ['healthChecks: {}', (spec: TaskSpec): TaskSpec => ({ ...spec, services: spec.services.map((service) => ({ ...service, healthChecks: {} })) })],
  ] as const) {
    it(`an update from a file with ${what} sends the live probes back unchanged`, async () => {
      const taskId = await createTask({ liveness_probe: PROBE });
      const before = await liveChecks(taskId);
      await update(taskId, change);
      assert.deepEqual(await liveChecks(taskId), before);
      const offTask = await createTask(undefined);
      const offBefore = await liveChecks(offTask);
      await update(offTask, change);
      assert.deepEqual(await liveChecks(offTask), offBefore, 'every probe off stays off');
    });
  }

  it('an update from a file naming one probe changes that one and keeps the others', async () => {
    const taskId = await createTask({ liveness_probe: PROBE, readiness_probe: { ...PROBE, path: '/ready' } });
    const before = (await liveChecks(taskId)) as Record<string, unknown>;
    const edited = { ...PROBE, period_seconds: 30 };
    await update(taskId, (spec) => ({ ...spec, services: spec.services.map((service) => ({ ...service, healthChecks: { liveness_probe: edited } })) }));
    assert.deepEqual(await liveChecks(taskId), { ...before, liveness_probe: edited });
  });

  it("Run on GPU's job body on a CPU device sends every weight > 0 and is created", async () => {
    const devices = await client.call('resource.search', { task_type: 'Deployment', device_type: 'CpuDevice' });
    const region = devices.results.filter((device) => device.gpu_count === 0).flatMap((device) => device.regions).find((candidate) => candidate.inventory > 0);
    assert.ok(region, 'the sandbox lists a CPU resource in stock');
    const body = buildJobBody({
      name: 'cpu-job',
      resource: { resource: region.mark.resource, region_name: region.region_name, mark: region.mark.mark },
      image: 'python:3.12',
      command: 'python -c "print(1)"',
      spot: false,
      timeoutSec: 60,
      completions: 1,
      parallelism: 1,
      indexed: false,
      retries: 0,
      env: [],
    });
    assert.deepEqual(body.services[0]!.resource_weight, { cpu_weight: 1, mem_weight: 1, gpu_weight: 1 });
    const { task_id: jobId } = await client.call('job.create', body);
    assert.ok(jobId > 0);
  });
});
