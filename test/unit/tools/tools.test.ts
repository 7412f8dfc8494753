// The tool definitions without a network: names and schemas a model can fill, input checks, confirmations
// (profile, task, money or loss; prod stands out), capped results that say what was cut, errors with the
// diagnosis, secrets masked.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ComputeClient, Device, OperationId, TaskDetail } from '../../../src/core/compute/api';
import { ComputeApiError } from '../../../src/core/compute/errors';
import { findTool, TOOL_NAME_PATTERN, TOOLS, toolsFor, validateInput, type JsonSchema, type ToolContext } from '../../../src/core/tools/index';
import { confirmTool, inputSchemaOf, runTool } from '../../../src/core/tools/run';
import { strongestEffect } from '../../../src/core/tools/effects';
import { capLines, tailLines } from '../../../src/core/tools/format';
import { assertLinearTime, flat } from '../../helpers/linearTime';

const device: Device = {
  device_name: 'RTX 4090 x 2',
  gpu_name: 'RTX 4090',
  gpu_memory: 49120,
  gpu_count: 2,
  memory: 129024,
  cpu_cores: 32,
  disk_size: 40960,
  disk_type: 'HDD',
  regions: [
    {
      region: 'beijing-jxq-p1',
      region_name: '北京一区',
      price: 1000,
      discount_price: 383, // 383 points/s = ¥1.3788/h per node
      inventory: 3,
      mark: { resource: { device_name: 'RTX 4090 x 2', region: 'beijing-jxq-p1', gpu_name: 'RTX 4090', gpu_count: 2, gpu_memory: 49120, memory: 129024, cpu_cores: 32 }, mark: 'MARK-1' },
    },
  ],
};

const detail: TaskDetail = {
  task_id: 42,
  task_name: 'train-llm',
  status: 'Running',
  points: 2,
  runing_points: 2,
  billing_value: 5_000_000,
  forecast_value: 0,
  create_time: '2026-01-01T00:00:00+08:00',
  resources: [{ resource: device.regions[0]!.mark.resource, region_name: '北京一区', mark: 'MARK-1' }],
  services: [{ service_id: 7, service_name: 'web', service_image: 'img:1', remote_ports: [{ service_port: 80, url: 'https://x-80.example' }] }],
};

function fakeClient(calls: string[] = [], failWith?: Error): ComputeClient {
  const answers: Partial<Record<OperationId, unknown>> = {
    'resource.search': { count: 1, results: [device] },
    'task.detail': detail,
    'task.list': { count: 1, results: [detail] },
    'node.list': { count: 0, results: [] },
  };
  return {
    async call(operation: OperationId) {
      calls.push(operation);
      if (failWith) throw failWith;
      return answers[operation] ?? null;
    },
  } as unknown as ComputeClient;
}

const context = (environment: string, client = fakeClient()): ToolContext => ({ client, profile: { label: 'Main', environment } });

function walkSchemas(schema: JsonSchema, visit: (schema: JsonSchema, path: string) => void, path = 'input'): void {
  visit(schema, path);
  for (const [name, property] of Object.entries(schema.properties ?? {})) walkSchemas(property, visit, `${path}.${name}`);
  if (schema.items) walkSchemas(schema.items, visit, `${path}[]`);
}

describe('tool definitions', () => {
  it('names match what OpenAI-compatible servers accept, and are unique', () => {
    assert.equal(new Set(TOOLS.map((tool) => tool.name)).size, TOOLS.length);
    for (const tool of TOOLS) {
      assert.match(tool.name, TOOL_NAME_PATTERN, tool.name);
      assert.match(tool.toolReferenceName, /^[a-zA-Z0-9_]+$/, tool.toolReferenceName);
    }
    assert.doesNotMatch('compute.stop', TOOL_NAME_PATTERN);
  });

  it('each effect is the strongest catalog effect of the operations the tool performs', () => {
    for (const tool of TOOLS) {
      assert.ok(tool.operations.length > 0, tool.name);
      assert.equal(tool.effect, strongestEffect(tool.operations), tool.name);
    }
    assert.equal(strongestEffect(['task.detail', 'task.stop']), 'destructive');
    assert.equal(strongestEffect(['resource.search']), 'read');
  });

  it('every input property is described; reads are safe, stop is the one destructive tool, every change confirms', () => {
    for (const tool of TOOLS) {
      assert.ok(tool.modelDescription.length > 60, `${tool.name} says when to use it`);
      walkSchemas(inputSchemaOf(tool), (schema, path) => {
        if (path !== 'input' && !path.endsWith('[]')) assert.ok(schema.description, `${tool.name} ${path} has a description`);
      });
      assert.equal(tool.confirm !== undefined, tool.effect !== 'read', `${tool.name}: a confirmation exactly when it changes something`);
    }
    // Stop deletes; applying a spec may overwrite (reset) a live task's configuration.
    assert.deepEqual(TOOLS.filter((tool) => tool.effect === 'destructive').map((tool) => tool.name), ['compute_stop_task', 'compute_stop_job', 'compute_apply_spec']);
    assert.deepEqual(toolsFor(false).map((tool) => tool.effect), toolsFor(false).map(() => 'read'));
    assert.equal(toolsFor(true).length, TOOLS.length);
  });
});

describe('validateInput', () => {
  const schema = inputSchemaOf(findTool('compute_create_task')!);
  it('accepts a complete input', () => {
    const input = { task_name: 'a', device_name: 'd', region: 'r', image: 'i:1', ports: [80], nodes: 2, env: { A: 'b' } };
    assert.deepEqual(validateInput(schema, input), input);
  });
  it('names every wrong field and what it must be', () => {
    assert.throws(
      () => validateInput(schema, { task_name: '', device_name: 3, region: 'r', image: 'i', ports: [0, 'x'], nodes: 1.5, colour: 'red' }),
      (error: Error) =>
        /input\.task_name must not be empty/.test(error.message) &&
        /input\.device_name must be a string \(got 3\)/.test(error.message) &&
        /input\.ports\[0\] must be ≥ 1/.test(error.message) &&
        /input\.ports\[1\] must be a whole number/.test(error.message) &&
        /input\.nodes must be a whole number/.test(error.message) &&
        /input\.colour is not a parameter/.test(error.message),
    );
  });
  it('checks enums and required fields', () => {
    assert.throws(() => validateInput(inputSchemaOf(findTool('compute_list_tasks')!), { status: ['Sleeping'] }), /must be one of "Pending", "Running", "Paused", "End"/);
    assert.throws(() => validateInput(inputSchemaOf(findTool('compute_stop_task')!), {}), /input\.task_id is required/);
  });
});

describe('confirmations', () => {
  it('create shows nodes × device in region with the hourly cost, and the profile', async () => {
    const create = findTool('compute_create_task')!;
    const input = { task_name: 'serve', device_name: 'RTX 4090 x 2', region: '北京一区', image: 'img:1', ports: [8080], nodes: 2 };
    const confirmation = await confirmTool(create, input, context('dev'));
    assert.ok(confirmation);
    assert.equal(confirmation.title, 'Create task "serve"?');
    assert.match(confirmation.message, /profile "Main" \(dev\)/);
    assert.match(confirmation.message, /2 × RTX 4090 × 2 in 北京一区 ≈ ¥2\.76\/h \(¥1\.38\/h per node\)/);
  });

  it('a prod profile stands out in the title and the message', async () => {
    const confirmation = await confirmTool(findTool('compute_pause_task')!, { task_id: 42 }, context('prod'));
    assert.ok(confirmation);
    assert.match(confirmation.title, /^PRODUCTION: Pause task "train-llm" \(42\)\?$/);
    assert.match(confirmation.message, /⚠ PRODUCTION profile "Main"/);
    assert.match(confirmation.message, /billing stops/);
  });

  it('stop says the task is deleted and cannot be undone', async () => {
    const confirmation = await confirmTool(findTool('compute_stop_task')!, { task_id: 42 }, context('test'));
    assert.ok(confirmation);
    assert.match(confirmation.message, /task "train-llm" \(42\)/);
    assert.match(confirmation.message, /Stop deletes the task/);
    assert.match(confirmation.message, /cannot be undone/);
  });

  it('change node count compares the new hourly cost with the current one and warns about removed nodes', async () => {
    const confirmation = await confirmTool(findTool('compute_change_node_count')!, { task_id: 42, nodes: 1 }, context('dev'));
    assert.ok(confirmation);
    assert.match(confirmation.message, /1 × RTX 4090 × 2 in 北京一区 ≈ ¥1\.38\/h, was ¥2\.76\/h with 2 node\(s\)/);
    assert.match(confirmation.message, /Removes 1 node/);
  });

  it('still confirms, naming the profile, when the platform cannot be read', async () => {
    const confirmation = await confirmTool(findTool('compute_stop_task')!, { task_id: 42 }, context('prod', fakeClient([], new Error('offline'))));
    assert.ok(confirmation);
    assert.match(confirmation.message, /PRODUCTION profile "Main"/);
    assert.match(confirmation.message, /could not be read first/);
    assert.match(confirmation.message, /cannot be undone/);
  });

  it('read tools need none', async () => {
    assert.equal(await confirmTool(findTool('compute_list_tasks')!, {}, context('prod')), undefined);
  });
});

describe('runTool', () => {
  it('checks the input before calling the platform', async () => {
    const calls: string[] = [];
    const result = await runTool(findTool('compute_stop_task')!, { task_id: -1 }, context('dev', fakeClient(calls)));
    assert.equal(result.isError, true);
    assert.match(result.text, /task_id must be ≥ 1/);
    assert.deepEqual(calls, []);
  });

  it('turns a refusal into text with the diagnosis and a next step', async () => {
    const refusal = new ComputeApiError('C003', 'sign error', 'task.list', { kind: 'token-or-key-unregistered', detail: 'The platform holds another public key.' }, 200, 'List tasks');
    const result = await runTool(findTool('compute_list_tasks')!, {}, context('dev', fakeClient([], refusal)));
    assert.equal(result.isError, true);
    assert.match(result.text, /List tasks failed: C003 sign error/);
    assert.match(result.text, /Diagnosis \(token-or-key-unregistered\): The platform holds another public key\./);
    assert.match(result.text, /Next step: .*do not retry/);
  });

  it('masks secrets a server echoed back', async () => {
    const token = 'tok_0123456789abcdef';
    const echo = new ComputeApiError('C999', `bad token ${token}`, 'task.list', { kind: 'unknown', detail: 'x' }, 200, 'List tasks');
    const result = await runTool(findTool('compute_list_tasks')!, {}, { ...context('dev', fakeClient([], echo)), secrets: [token] });
    assert.ok(!result.text.includes(token));
    assert.match(result.text, /tok_…cdef/);
  });

  it('caps a large result and says what was cut', async () => {
    const many: Device = { ...device, regions: Array.from({ length: 400 }, (_, i) => ({ ...device.regions[0]!, region: `r-${i}`, region_name: `区${i}` })) };
    const client = { call: async () => ({ count: 1, results: [many] }) } as unknown as ComputeClient;
    const result = await runTool(findTool('compute_search_gpus')!, {}, { ...context('dev', client), resultLimitChars: 2000 });
    assert.equal(result.isError, false);
    assert.ok(result.text.length <= 2000, `${result.text.length} chars`);
    assert.match(result.text, /\[cut: \d+ more line\(s\) not shown to fit the context window; add filters/);
  });
});

describe('result helpers', () => {
  it('capLines keeps whole lines and counts the rest', () => {
    const text = capLines(['aaaa', 'bbbb', 'cccc', 'dddd'], 141, 'narrow it');
    assert.equal(text, 'aaaa\nbbbb\n[cut: 2 more line(s) not shown to fit the context window; narrow it]');
  });
  it('tailLines returns the last lines and strips terminal escapes', () => {
    const tail = tailLines('one\ntwo\n\u001b[31mred\u001b[0m\nfour\n', 2, 1000);
    assert.deepEqual(tail, { text: '[31mred[0m\nfour', shown: 2, total: 4 });
  });
  it('tailLines is linear: 32× the log costs about 32× the time, not 1,024×', () => {
    assertLinearTime('tailLines', (n) => flat('x'.repeat(80).concat('\n').repeat(n)), (log) => tailLines(log, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER), { n: 1_000 });
  });
});
