// Each tool's input is written once, as a zod schema (docs/shapes.md): the type of run()'s input, the
// check and the JSON Schema VS Code's manifest and the MCP server show all derive from it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { ConfigError } from '../../../src/core/errors';
import { findTool, TOOLS } from '../../../src/core/tools/index';
import { jsonSchemaOf } from '../../../src/core/tools/inputJsonSchema';
import * as inputs from '../../../src/core/tools/inputs/index';
import { checkToolInput, inputSchemaOf } from '../../../src/core/tools/run';

const tool = (name: string) => findTool(name)!;

describe('tool input schemas', () => {
  it('every tool takes its input from one zod object, with no JSON Schema written beside it', () => {
    for (const definition of TOOLS) {
      assert.ok(definition.input(inputs) instanceof z.ZodObject, `${definition.name} names a zod object`);
      assert.equal(Object.hasOwn(definition, 'inputSchema'), false, `${definition.name} has no hand-written schema`);
      assert.equal(inputSchemaOf(definition), jsonSchemaOf(definition.input(inputs)), `${definition.name}: derived once and kept`);
    }
  });

  it('the derived JSON Schema is the subset the manifest and MCP clients read: no $schema, no safe-integer bounds', () => {
    for (const definition of TOOLS) {
      const text = JSON.stringify(inputSchemaOf(definition));
      assert.equal(inputSchemaOf(definition).type, 'object');
      assert.equal(inputSchemaOf(definition).additionalProperties, false, `${definition.name} refuses unknown fields`);
      assert.doesNotMatch(text, /"\$schema"|"propertyNames"|9007199254740991/, definition.name);
    }
    assert.deepEqual(inputSchemaOf(tool('compute_get_task')), {
      type: 'object',
      additionalProperties: false,
      required: ['task_id'],
      properties: { task_id: { type: 'integer', minimum: 1, description: 'The task id (from compute_list_tasks).', examples: [1229831] } },
    });
  });

  it('the check returns the typed input: schema defaults applied, null fields read as absent', () => {
    assert.deepEqual(checkToolInput(tool('compute_list_tasks'), { search: 'llama', page: null }), { search: 'llama', page: 1, page_size: 20 });
    assert.deepEqual(checkToolInput(tool('compute_search_gpus'), undefined), { in_stock_only: true });
    const job = checkToolInput(tool('compute_run_job'), { job_name: 'j', device_name: 'd', region: 'r', image: 'i', command: 'c', env: { A: 'b', B: null } });
    assert.deepEqual(job, { job_name: 'j', device_name: 'd', region: 'r', image: 'i', command: 'c', env: { A: 'b' }, spot: true, timeout_sec: 3600, completions: 1, parallelism: 1, indexed: false, retries: 0 });
  });

  it('keeps the worded problems: every wrong field named with what it must be', () => {
    assert.throws(
      () => checkToolInput(tool('compute_create_task'), { task_name: '  ', device_name: 'd', region: 'r', image: 'i', ports: [null, 70000], nodes: '2', colour: 'red' }),
      (error: Error) =>
        error instanceof ConfigError &&
        /^Invalid tool input: /.test(error.message) &&
        /input\.task_name must not be empty/.test(error.message) &&
        /input\.ports\[0\] must be a whole number \(got null\)/.test(error.message) &&
        /input\.ports\[1\] must be ≤ 65535 \(got 70000\)/.test(error.message) &&
        /input\.nodes must be a whole number \(got "2"\)/.test(error.message) &&
        /input\.colour is not a parameter of this tool \(known: task_name, device_name, region, image, ports, nodes, env, start_command\)/.test(error.message),
    );
    assert.throws(() => checkToolInput(tool('compute_rent_machine'), { device_id: 1, billing_type: 'Year' }), /input\.billing_type must be one of "Hour", "Day", "Week", "Month" \(got "Year"\)/);
    assert.throws(() => checkToolInput(tool('compute_nas_read_file'), { storage_id: 1 }), /input\.path is required/);
  });
});
