// The MCP server (dist/mcp.js) through the official SDK's own Client and StdioClientTransport, against the
// strict sandbox in both key modes: tools listed with annotations, read tools answer from the sandbox,
// write tools appear only with COMPUTE_TOOLKIT_ALLOW_WRITES=1, and a malformed key is a clear stderr
// error. No output ever contains a secret.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createComputeClient } from '../../src/core/compute/client';
import { TOOLS } from '../../src/core/tools/index';
import { buildMcpBundle } from '../helpers/mcpBundle';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';
import { pemBlock } from '../helpers/pemArmor';
import { waitUntil } from '../helpers/eventually';

type Mode = 'token' | 'rsa';
interface TextResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
}

const READ_TOOLS = TOOLS.filter((tool) => tool.effect === 'read').map((tool) => tool.name).sort();
const ALL_TOOLS = TOOLS.map((tool) => tool.name).sort();

describe('MCP server over stdio (official SDK client) against the sandbox', () => {
  let sandbox: Sandbox;
  let bundle: string;
  const clients: Client[] = [];
  const stderrText: string[] = [];

  before(async () => {
    [sandbox, bundle] = await Promise.all([startSandbox({ pendingMs: 0 }), buildMcpBundle()]);
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await sandbox.close();
  });

  function secrets(): string[] {
    const rsa = sandbox.credentials.rsaMode;
    const bodyLine = rsa.privateKeyPem.split('\n').find((line) => line.length > 40 && !line.startsWith('-----')) ?? '';
    return [sandbox.credentials.tokenMode.token, rsa.token, bodyLine];
  }

  function env(mode: Mode, extra: Record<string, string> = {}): Record<string, string> {
    const rsa = sandbox.credentials.rsaMode;
    const base: Record<string, string> = {
      PATH: process.env['PATH'] ?? '',
      COMPUTE_TOOLKIT_BASE_URL: sandbox.computeBaseUrl,
      COMPUTE_TOOLKIT_MODE: mode,
      COMPUTE_TOOLKIT_TOKEN: mode === 'token' ? sandbox.credentials.tokenMode.token : rsa.token,
      COMPUTE_TOOLKIT_MODEL_BASE_URL: sandbox.modelApiBaseUrl,
      COMPUTE_TOOLKIT_MODEL_API_KEY: sandbox.credentials.modelApiKey,
    };
    if (mode === 'rsa') {
      base['COMPUTE_TOOLKIT_PRIVATE_KEY'] = rsa.privateKeyPem;
      base['COMPUTE_TOOLKIT_PLATFORM_PUBLIC_KEY'] = rsa.platformPublicKeyPem;
    }
    return { ...base, ...extra };
  }

  function transport(environment: Record<string, string>): StdioClientTransport {
    const created = new StdioClientTransport({ command: process.execPath, args: [bundle], env: environment, stderr: 'pipe' });
    created.stderr?.on('data', (chunk: Buffer) => stderrText.push(chunk.toString('utf8')));
    return created;
  }

  /** A client that can ask its user (MCP elicitation): `answer` plays the user and sees what the server shows. */
  async function connect(environment: Record<string, string>, answer?: (message: string) => boolean): Promise<Client> {
    const client = new Client({ name: 'contract-test', version: '1.0.0' }, answer ? { capabilities: { elicitation: { form: {} } } } : {});
    if (answer) {
      client.setRequestHandler(ElicitRequestSchema, (request) => {
        const message = String((request.params as { message?: unknown }).message ?? '');
        return answer(message) ? { action: 'accept' as const, content: { confirm: true } } : { action: 'decline' as const };
      });
    }
    await client.connect(transport(environment));
    clients.push(client);
    return client;
  }

  async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ text: string; isError: boolean }> {
    const result = (await client.callTool({ name, arguments: args })) as TextResult;
    const text = result.content.map((part) => part.text ?? '').join('\n');
    for (const secret of secrets()) assert.ok(!text.includes(secret), `${name} result contains a secret`);
    return { text, isError: result.isError === true };
  }

  for (const mode of ['token', 'rsa'] as const) {
    it(`${mode} mode: lists only the read tools with read-only annotations and every read tool answers`, async () => {
      const client = await connect(env(mode));
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name).sort(), READ_TOOLS);
      for (const tool of tools) {
        assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
        assert.equal(tool.annotations?.destructiveHint, false, tool.name);
        assert.match(tool.name, /^[a-zA-Z0-9_-]{1,64}$/);
        assert.equal(tool.inputSchema.type, 'object');
      }

      const gpus = await call(client, 'compute_search_gpus', { gpu_model: '4090', max_yuan_per_hour: 3 });
      assert.equal(gpus.isError, false, gpus.text);
      assert.match(gpus.text, /RTX 4090 × 1 · 24 GB VRAM per card/);
      assert.doesNotMatch(gpus.text, /H20|A100|L40S/);
      const prices = [...gpus.text.matchAll(/¥(\d+\.\d\d)\/h/g)].map((match) => Number(match[1]));
      assert.ok(prices.length > 0 && prices.every((price) => price <= 3), `prices ≤ ¥3/h: ${prices.join(', ')}`);
      assert.deepEqual(prices, [...prices].sort((a, b) => a - b), 'cheapest first');
      assert.match((await call(client, 'compute_search_gpus', { min_vram_gb: 90 })).text, /H20 × 8 · 96 GB VRAM per card/);

      const tasks = await call(client, 'compute_list_tasks', { status: ['Running'] });
      assert.equal(tasks.isError, false, tasks.text);
      const running = /- (\d+) "qwen3-32b-serving" · Running/.exec(tasks.text);
      assert.ok(running, tasks.text);
      const taskId = Number(running[1]);

      const task = await call(client, 'compute_get_task', { task_id: taskId });
      assert.equal(task.isError, false, task.text);
      assert.match(task.text, /8000 → https?:\/\//, 'the service public URL is shown');
      assert.match(task.text, /Nodes \(2\):/);

      const log = await call(client, 'compute_node_log', { task_id: taskId, lines: 3 });
      assert.equal(log.isError, false, log.text);
      assert.match(log.text, /last \d of \d+ line\(s\)/);
      assert.equal(log.text.split('\n').length, 1 + Number(/last (\d) of/.exec(log.text)?.[1]));

      const storage = await call(client, 'compute_list_storage');
      assert.equal(storage.isError, false, storage.text);
      assert.match(storage.text, /storage volume\(s\)/);

      const explained = await call(client, 'compute_explain_failure');
      assert.equal(explained.isError, false, explained.text);
      assert.match(explained.text, new RegExp(`Key mode: ${mode}`));
      assert.match(explained.text, /accepted ✓/);
      if (mode === 'rsa') assert.match(explained.text, /verifies with the public half/);

      const bad = await call(client, 'compute_get_task', { task_id: 'seven' });
      assert.equal(bad.isError, true);
      assert.match(bad.text, /task_id must be a whole number/);

      const hidden = await call(client, 'compute_stop_task', { task_id: taskId });
      assert.equal(hidden.isError, true);
      assert.match(hidden.text, /COMPUTE_TOOLKIT_ALLOW_WRITES=1/);
      assert.match((await call(client, 'compute_get_task', { task_id: taskId })).text, /· Running ·/, 'the hidden stop did nothing');

      // Renting a machine spends at once: refused without writes, nothing ordered; the machine reads still answer.
      const machines = await call(client, 'compute_search_machines', { gpu_model: 'A100' });
      assert.equal(machines.isError, false, machines.text);
      assert.match(machines.text, /device_id 9001 · 8 × NVIDIA A100/);
      const rent = await call(client, 'compute_rent_machine', { device_id: 9001 });
      assert.equal(rent.isError, true);
      assert.match(rent.text, /COMPUTE_TOOLKIT_ALLOW_WRITES=1/);
      assert.equal(sandbox.metal.rental(9001), undefined, 'the hidden rent ordered nothing');
    });
  }

  it('ALLOW_WRITES=1: each change is confirmed by the user, who sees what will be sent; no confirmation, nothing sent', async () => {
    const create = { task_name: 'mcp-unconfirmed', device_name: 'RTX 4090 x 1', region: '北京一区', image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0', ports: [6688], nodes: 1 };
    const created = async (): Promise<boolean> => (await createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }) })
      .call('task.list', { type: 'Deployment', status: 'Pending,Running,Paused,End', page: 1, page_size: 100 })).results.some((task) => task.task_name === 'mcp-unconfirmed');

    // A client that cannot ask: refused, with what would have been sent and how the user opts out.
    const silent = await connect(env('token', { COMPUTE_TOOLKIT_ALLOW_WRITES: '1' }));
    const refused = await call(silent, 'compute_create_task', create);
    assert.equal(refused.isError, true, refused.text);
    assert.match(refused.text, /Nothing was sent/);
    assert.match(refused.text, /RTX 4090 × 1 in 北京一区 ≈ ¥\d+\.\d\d\/h/, 'shows the resource and the cost');
    assert.match(refused.text, /harbor\.suanleme\.cn\/public-hub\/dailyhot:1\.0/, 'shows the image');
    assert.match(refused.text, /COMPUTE_TOOLKIT_WRITES_UNCONFIRMED=1/);

    // The user declines: nothing sent; the question showed the profile, the image and the cost.
    const asked: string[] = [];
    const declining = await connect(env('token', { COMPUTE_TOOLKIT_ALLOW_WRITES: '1' }), (message) => (asked.push(message), false));
    const declined = await call(declining, 'compute_create_task', create);
    assert.equal(declined.isError, true, declined.text);
    assert.match(declined.text, /the user did not confirm/);
    assert.equal(asked.length, 1);
    assert.match(asked[0] ?? '', /Create task "mcp-unconfirmed"\?/);
    assert.match(asked[0] ?? '', /≈ ¥\d+\.\d\d\/h/);
    assert.match(asked[0] ?? '', /dailyhot:1\.0/);
    assert.equal(await created(), false, 'neither refused call created a task');

    // The explicit opt-out: sent, and the answer says so with what was sent.
    const optedOut = await connect(env('token', { COMPUTE_TOOLKIT_ALLOW_WRITES: '1', COMPUTE_TOOLKIT_WRITES_UNCONFIRMED: '1' }));
    const sent = await call(optedOut, 'compute_create_task', create);
    assert.equal(sent.isError, false, sent.text);
    assert.match(sent.text, /Sent without a per-call confirmation \(COMPUTE_TOOLKIT_WRITES_UNCONFIRMED=1\)/);
    assert.equal(await created(), true);
  });

  it('rsa mode with ALLOW_WRITES=1: lists every tool with its effect and runs create → pause → recover → stop, each confirmed', async () => {
    const asked: string[] = [];
    const client = await connect(env('rsa', { COMPUTE_TOOLKIT_ALLOW_WRITES: '1' }), (message) => (asked.push(message), true));
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), ALL_TOOLS);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    assert.equal(byName.get('compute_stop_task')?.annotations?.destructiveHint, true);
    assert.equal(byName.get('compute_create_task')?.annotations?.readOnlyHint, false);
    assert.equal(byName.get('compute_create_task')?.annotations?.idempotentHint, false);
    assert.equal(byName.get('compute_pause_task')?.annotations?.destructiveHint, false);

    const created = await call(client, 'compute_create_task', {
      task_name: 'mcp-contract',
      device_name: 'RTX 4090 x 2',
      region: '北京一区',
      image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0',
      ports: [6688],
      nodes: 2,
    });
    assert.equal(created.isError, false, created.text);
    // The expected cost from the platform's own numbers: points per second × 3600 / 1e6 per node.
    const devices = await createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }) })
      .call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
    const region = devices.results.find((device) => device.device_name === 'RTX 4090 x 2')?.regions.find((r) => r.region_name === '北京一区');
    assert.ok(region && region.price !== null);
    const perNode = ((region.discount_price ?? region.price) * 3600) / 1_000_000;
    assert.ok(created.text.includes(`2 × RTX 4090 × 2 in 北京一区 ≈ ¥${(2 * perNode).toFixed(2)}/h (¥${perNode.toFixed(2)}/h per node)`), created.text);
    const taskId = Number(/Created task (\d+)/.exec(created.text)?.[1]);
    assert.ok(taskId > 0);

    const waitForStatus = async (status: string): Promise<void> => {
      await waitUntil(`task ${taskId} to reach ${status}`, async () => (await call(client, 'compute_get_task', { task_id: taskId })).text.includes(`· ${status} ·`));
    };
    await waitForStatus('Running');
    assert.equal((await call(client, 'compute_change_node_count', { task_id: taskId, nodes: 1 })).isError, false);
    assert.equal((await call(client, 'compute_pause_task', { task_id: taskId })).isError, false);
    await waitForStatus('Paused');
    assert.equal((await call(client, 'compute_recover_task', { task_id: taskId })).isError, false);
    await waitForStatus('Running');
    const stopped = await call(client, 'compute_stop_task', { task_id: taskId });
    assert.equal(stopped.isError, false, stopped.text);
    await waitForStatus('End');

    const refused = await call(client, 'compute_pause_task', { task_id: taskId });
    assert.equal(refused.isError, true, 'pausing an ended task is refused');
    assert.match(refused.text, /Next step:/);
    assert.equal(asked.length, 6, 'create, scale, pause, recover, stop and the refused pause were each asked');
    assert.match(created.text, /Confirmed by the user:/);
  });

  it('a malformed private key: the server exits with a clear stderr message naming the variable, never the key', async () => {
    const secretBody = 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0MjQyNDI0MjQyNDI0MjQy';
    const before = stderrText.length;
    const client = new Client({ name: 'contract-test', version: '1.0.0' });
    const broken = transport(env('rsa', { COMPUTE_TOOLKIT_PRIVATE_KEY: `${pemBlock('PRIVATE KEY', secretBody)}\n` }));
    const closed = new Promise<void>((resolve) => {
      broken.onclose = () => resolve();
    });
    await assert.rejects(client.connect(broken));
    await closed;
    const text = stderrText.slice(before).join('');
    assert.match(text, /invalid configuration/);
    assert.match(text, /COMPUTE_TOOLKIT_PRIVATE_KEY: /);
    assert.ok(!text.includes(secretBody), 'stderr must not echo the key');
  });

  it('never writes a secret to stderr', () => {
    const text = stderrText.join('');
    assert.match(text, /ready: token mode/);
    for (const secret of secrets()) assert.ok(!text.includes(secret));
  });
});
