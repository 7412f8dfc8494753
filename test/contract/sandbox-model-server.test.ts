// The sandbox's model-serving tasks (test/sandbox/deployments): a task whose service runs `vllm serve`
// gets a public URL on 127.0.0.1 that answers 503 while pulling and loading, then serves the model named
// in its args over the OpenAI convention (streamed with the official SDK too); pausing closes the URL,
// recovering opens it again after another load. A task that does not run vLLM keeps the `.invalid` URL.

import assert from 'node:assert/strict';
import { setTimeout as wait } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import OpenAI from 'openai';
import type { ComputeClient, TaskCreateBody } from '../../src/core/compute/api';
import { inStockTaskBody } from './helpers/inStockTaskBody';
import { createComputeClient } from '../../src/core/compute/client';
import { modelServerOf } from '../sandbox/deployments/modelServerRule';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';

const LOAD_MS = 600;

function createBody(client: ComputeClient, name: string, command: string | null, image = 'vllm/vllm-openai:latest'): Promise<TaskCreateBody> {
  return inStockTaskBody(client, name, { service_name: 'vllm', service_image: image, remote_ports: [{ service_port: 8000 }], start_script_v2: { command, args: [] } });
}

async function serviceUrl(client: ComputeClient, taskId: number): Promise<string | null> {
  const detail = await client.call('task.detail', { task_id: taskId });
  return detail.services[0]?.remote_ports[0]?.url ?? null;
}

/** Polls until `check` returns a value (bounded by attempts, not by time). */
async function eventually<T>(check: () => Promise<T | undefined>, attempts = 400): Promise<T> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const value = await check();
    if (value !== undefined) return value;
    await wait(10);
  }
  throw new Error('condition never held');
}

async function statusOf(url: string): Promise<number | 'refused'> {
  try {
    const response = await fetch(`${url}/v1/models`);
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 'refused';
  }
}

describe('sandbox: a vLLM task serves its model at its public URL', () => {
  let sandbox: Sandbox;
  let client: ComputeClient;

  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0, modelLoadMs: LOAD_MS });
    const token = sandbox.credentials.tokenMode.token;
    client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token }) });
  });
  after(() => sandbox.close());

  /** 503 while the phase (read before and after the request) is pulling or loading, 200 once ready. */
  async function answersAsPhaseSays(url: string, taskId: number): Promise<void> {
    const before = sandbox.modelServerPhase(taskId);
    const status = await statusOf(url);
    const after = sandbox.modelServerPhase(taskId);
    if (after !== 'ready') assert.equal(status, 503, `answers 503 while ${after ?? 'unknown'}`);
    if (before === 'ready') assert.equal(status, 200);
  }

  it('the rule: vllm serve, the api_server module, the vLLM image with --model; served name, port and key from the args', () => {
    const service = (command: string, image = 'vllm/vllm-openai:latest', port = 8000) => ({ service_name: 's', service_image: image, remote_ports: [{ service_port: port }], env: null, start_script_v2: { command, args: [] } });
    assert.deepEqual(modelServerOf(service('vllm serve Qwen/Qwen3-8B --port 8000 --served-model-name qwen3 --max-model-len 8192')), { servedModel: 'qwen3', model: 'Qwen/Qwen3-8B', servicePort: 8000, apiKey: undefined, maxModelLen: 8192 });
    assert.equal(modelServerOf(service('python3 -m vllm.entrypoints.openai.api_server --model=m/x --api-key k', 'any/image'))?.apiKey, 'k');
    assert.equal(modelServerOf(service('--model m/y', 'harbor.suanleme.cn/public-hub/vllm-openai:0.8.5'))?.servedModel, 'm/y');
    assert.equal(modelServerOf(service('python serve.py --model m/z', 'any/image')), undefined, 'not vLLM');
    assert.equal(modelServerOf(service('vllm serve m/x --port 9000')), undefined, 'its port is not exposed');
    assert.equal(modelServerOf(service('vllm serve --help')), undefined, 'no model');
  });

  it('503 while pulling and loading (logs say so), then /v1/models and a streamed reply; paused → refused; recovered → serves again', async () => {
    const { task_id: taskId } = await client.call('task.create', await createBody(client, 'qwen-deploy', 'vllm serve Qwen/Qwen3-8B --host 0.0.0.0 --port 8000 --served-model-name qwen3-8b --max-model-len 16384'));
    const url = await eventually(async () => (await serviceUrl(client, taskId)) ?? undefined);
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);

    await answersAsPhaseSays(url, taskId);
    const nodes = await client.call('node.list', { task_id: taskId });
    const node = nodes.results[0];
    assert.ok(node);
    const serviceId = (await client.call('task.detail', { task_id: taskId })).services[0]?.service_id;
    assert.ok(serviceId !== undefined);
    const log = async (): Promise<string> => (await client.call('node.log', { task_id: taskId, point_id: node.point_id, service_id: serviceId })).logs;
    if (sandbox.modelServerPhase(taskId) !== 'ready') assert.doesNotMatch(await log(), /Application startup complete/);

    await eventually(async () => ((await statusOf(url)) === 200 ? true : undefined));
    assert.equal(sandbox.modelServerPhase(taskId), 'ready');
    const text = await log();
    assert.match(text, /Pulling image "vllm\/vllm-openai:latest"/);
    assert.match(text, /Starting to load model Qwen\/Qwen3-8B/);
    assert.match(text, /Application startup complete\./);

    const models = (await (await fetch(`${url}/v1/models`)).json()) as { data: { id: string; max_model_len: number }[] };
    assert.deepEqual(models.data.map((model) => [model.id, model.max_model_len]), [['qwen3-8b', 16384]]);

    // No key was set with --api-key: vLLM accepts any.
    const openai = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused' });
    const stream = await openai.chat.completions.create({ model: 'qwen3-8b', messages: [{ role: 'user', content: 'hello' }], stream: true, stream_options: { include_usage: true } });
    let content = '';
    let completionTokens = 0;
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      completionTokens = chunk.usage?.completion_tokens ?? completionTokens;
    }
    assert.match(content, /Sandbox reply from `qwen3-8b`/);
    assert.ok(completionTokens > 0);
    await assert.rejects(openai.chat.completions.create({ model: 'other/model', messages: [{ role: 'user', content: 'x' }] }), (error: unknown) => error instanceof OpenAI.NotFoundError);

    await client.call('task.pause', { task_id: taskId });
    assert.equal(await serviceUrl(client, taskId), null, 'a paused task lists no URL');
    assert.equal(await statusOf(url), 'refused', 'the old URL refuses connections');

    await client.call('task.recover', { task_id: taskId });
    const again = await eventually(async () => (await serviceUrl(client, taskId)) ?? undefined);
    await answersAsPhaseSays(again, taskId);
    await eventually(async () => ((await statusOf(again)) === 200 ? true : undefined));

    await client.call('task.stop', { task_id: taskId });
    assert.equal(await statusOf(again), 'refused', 'an ended task answers nothing');
  });

  it('--api-key is required as vLLM requires it; a task that runs no model server keeps the unresolvable URL', async () => {
    const { task_id: keyed } = await client.call('task.create', await createBody(client, 'keyed', 'vllm serve m/keyed --api-key secret-k'));
    const url = await eventually(async () => (await serviceUrl(client, keyed)) ?? undefined);
    await eventually(async () => ((await statusOf(url)) === 401 ? true : undefined));
    const ok = await fetch(`${url}/v1/models`, { headers: { authorization: 'Bearer secret-k' } });
    assert.equal(ok.status, 200);

    const { task_id: plain } = await client.call('task.create', await createBody(client, 'web', null, 'harbor.suanleme.cn/public-hub/dailyhot:1.0'));
    const plainUrl = await eventually(async () => (await serviceUrl(client, plain)) ?? undefined);
    assert.match(plainUrl, /\.sandbox\.invalid$/);
    assert.equal(sandbox.modelServerPhase(plain), undefined);
  });
});
