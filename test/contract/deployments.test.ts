// Deployments against the sandbox (docs/deployments.md): a task created from the vLLM arguments of a plan
// is followed until its URL answers (phases waiting → … → ready, never ready before the load delay is
// over), discovered among the running tasks, answers a streamed chat without any key, and drops out of
// the discovered list as soon as it is paused.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ComputeClient, Device, Paged } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import { DeploymentDiscovery } from '../../src/core/deployments/discovery';
import { estimateMemory, shapeFor } from '../../src/core/deployments/estimate';
import { createDeploymentClient, probeDeployment } from '../../src/core/deployments/probe';
import { rankFits } from '../../src/core/deployments/ranking';
import { followReadiness, type DeployPhase, type ReadinessObservation } from '../../src/core/deployments/readiness';
import { VLLM_IMAGE, VLLM_PORT, vllmCommand } from '../../src/core/deployments/vllmArgs';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';
import { PATIENCE_MS } from '../helpers/eventually';

const noKey = async (): Promise<string | undefined> => undefined;

describe('deployments against the sandbox', () => {
  let sandbox: Sandbox;
  let client: ComputeClient;

  before(async () => {
    // The load lasts until the test has seen it loading (finishModelLoad): a busy machine may take longer
    // than any fixed load delay between two looks.
    sandbox = await startSandbox({ pendingMs: 150, modelLoadMs: PATIENCE_MS });
    const token = sandbox.credentials.tokenMode.token;
    client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token }) });
  });
  after(() => sandbox.close());

  async function observe(taskId: number): Promise<ReadinessObservation> {
    const detail = await client.call('task.detail', { task_id: taskId });
    const nodes = await client.call('node.list', { task_id: taskId });
    const url = detail.services[0]?.remote_ports[0]?.url ?? undefined;
    const observation: ReadinessObservation = { taskStatus: detail.status, nodeStatuses: nodes.results.map((node) => node.status) };
    const node = nodes.results[0];
    const serviceId = detail.services[0]?.service_id;
    if (node && node.status === 'Running' && serviceId !== undefined) observation.log = (await client.call('node.log', { task_id: taskId, point_id: node.point_id, service_id: serviceId })).logs;
    if (url) {
      observation.url = url;
      const probe = await probeDeployment(url, noKey);
      if (probe.ok) observation.models = probe.models;
    }
    return observation;
  }

  it('plan → create → ready after the load → discovered → streamed answer without a key → gone once paused', async () => {
    // Plan: the cheapest GPU that fits Qwen3-8B at 8k context.
    const shape = shapeFor('Qwen/Qwen3-8B');
    assert.ok(shape);
    const devices: Paged<Device> = await client.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
    const fit = rankFits(devices.results, estimateMemory(shape, 'bf16', 8192).totalBytes)[0];
    assert.ok(fit?.available, 'a GPU that fits is in stock');
    const command = vllmCommand({ model: 'Qwen/Qwen3-8B', servedModelName: 'Qwen/Qwen3-8B', contextTokens: 8192, tensorParallel: fit.tensorParallel, precision: 'bf16' });
    const { task_id: taskId } = await client.call('task.create', {
      task_type: 'Deployment',
      task_name: 'deploy-qwen3-8b',
      points: 1,
      resources: [{ mark: fit.region.mark.mark, resource: fit.region.mark.resource, region_name: fit.region.region_name }],
      services: [{ service_name: 'vllm', service_image: VLLM_IMAGE, remote_ports: [{ service_port: VLLM_PORT }], env: null, start_script_v2: { command, args: [] } }],
    });

    const phases: DeployPhase[] = [];
    const result = await followReadiness({
      observe: () => observe(taskId),
      onPhase: (phase) => {
        phases.push(phase);
        // Never ready before the sandbox says the weights are loaded.
        if (phase === 'ready') assert.equal(sandbox.modelServerPhase(taskId), 'ready');
        if (phase === 'loading' || phase === 'pulling') {
          assert.notEqual(sandbox.modelServerPhase(taskId), 'ready');
          sandbox.finishModelLoad(taskId);
        }
      },
      firstDelayMs: 20,
      maxDelayMs: 100,
    });
    assert.equal(result.phase, 'ready');
    assert.equal(phases.at(-1), 'ready');
    assert.ok(phases.includes('loading') || phases.includes('pulling'), `followed through loading: ${phases.join(' → ')}`);
    assert.deepEqual(result.observation.models?.map((model) => [model.id, model.maxModelLen]), [['Qwen/Qwen3-8B', 8192]]);

    const discovery = new DeploymentDiscovery({ probe: (url, _taskId, signal) => probeDeployment(url, noKey, signal), priceOf: () => fit.pointsPerSecond ?? undefined, now: () => Date.now() });
    const running = async () => (await client.call('task.list', { type: 'Deployment', status: 'Running,Pending,Paused', page_size: 100 })).results;
    await discovery.refresh(await running());
    const found = discovery.get(taskId);
    assert.equal(found?.state, 'ready');
    assert.deepEqual(found.models.map((model) => model.id), ['Qwen/Qwen3-8B']);
    assert.equal(discovery.list().length, 1, 'seeded tasks that serve no model are not deployments');

    const stream = createDeploymentClient({ url: found.url, apiKey: noKey }).stream({ model: 'Qwen/Qwen3-8B', messages: [{ role: 'user', content: 'hello' }] });
    let text = '';
    for await (const event of stream) if (event.type === 'content') text += event.text;
    const outcome = await stream.outcome;
    assert.equal(outcome.complete, true);
    assert.match(text, /Sandbox reply from `Qwen\/Qwen3-8B`/);
    assert.ok((outcome.usage?.completion_tokens ?? 0) > 0, 'usage reported for the cost line');

    await client.call('task.pause', { task_id: taskId });
    assert.equal(await discovery.refresh(await running()), true);
    assert.equal(discovery.get(taskId)?.state, 'paused');
    const after = await probeDeployment(found.url, noKey);
    assert.equal(after.ok, false, 'the URL no longer answers');
  });
});
