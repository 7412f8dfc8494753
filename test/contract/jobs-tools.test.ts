// The batch job tools (shared by VS Code's agent tools and the MCP server) against the sandbox: run
// confirms with the profile, rate and cap; status and bounded logs read the real run; stop confirms as
// destructive and ends the job.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createComputeClient } from '../../src/core/compute/client';
import { findTool, type ToolContext } from '../../src/core/tools/index';
import { confirmTool, runTool } from '../../src/core/tools/run';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';
import { waitUntil } from '../helpers/eventually';

describe('batch job tools against the sandbox', () => {
  let sandbox: Sandbox;
  let context: ToolContext;

  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0, jobPendingMs: 20, nas: { creatingMs: 0 } });
    const client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.credentials.tokenMode.token }) });
    context = { client, profile: { label: 'Main', environment: 'prod' }, resultLimitChars: 4000 };
  });
  after(() => sandbox.close());

  const tool = (name: string) => {
    const found = findTool(name);
    assert.ok(found, name);
    return found;
  };

  async function waitEnded(id: number): Promise<string> {
    return waitUntil('the job to end', async () => {
      const status = await runTool(tool('compute_get_job'), { task_id: id }, context);
      return status.text.includes('(ended)') ? status.text : undefined;
    });
  }

  it('run: confirmation names the profile, the rate and the cap; the job runs and its logs are bounded and plain', async () => {
    const input = { job_name: 'tool-job', device_name: 'RTX 4090 x 1', region: 'beijing-jxq-p1', image: 'img:1', command: 'for i in 1 2 3 4 5; do printf "\\033[31mline $i\\033[0m\\n"; done', timeout_sec: 600, estimated_sec: 60, parallelism: 2, completions: 2 };
    const confirmation = await confirmTool(tool('compute_run_job'), input, context);
    assert.ok(confirmation);
    assert.match(confirmation.title, /^PRODUCTION: Run job "tool-job"/);
    assert.match(confirmation.message, /2 pod\(s\) at once of RTX 4090 × 1 in 北京一区/);
    assert.match(confirmation.message, /Cost: ¥\d+\.\d{2,4}\/h while running; at most ¥\d+\.\d\d \(timeout 10 min\)/);
    const created = await runTool(tool('compute_run_job'), input, context);
    assert.equal(created.isError, false, created.text);
    const id = Number(/Created job (\d+)/.exec(created.text)?.[1]);
    assert.ok(id > 0);
    assert.match(await waitEnded(id), /succeeded \(ended\)[\s\S]*2 succeeded, 0 failed/);
    const logs = await runTool(tool('compute_job_logs'), { task_id: id, lines: 2 }, context);
    assert.equal(logs.isError, false, logs.text);
    assert.equal(logs.text.match(/last 2 of 5 line\(s\):\nline 4\nline 5/g)?.length, 2, logs.text);
    assert.doesNotMatch(logs.text, /\x1b/);
  });

  it('run: a NAS volume of another region is refused with a clear message before the confirmation and before sending', async () => {
    const other = await context.client.call('nas.create', { name: 'shanghai', nas_config_id: 103, total_size: 1024 ** 3 });
    const input = { job_name: 'mount-job', device_name: 'RTX 4090 x 1', region: 'beijing-jxq-p1', image: 'img:1', command: 'ls', storage_id: other.storage_id, target_dir: '/mnt/nas' };
    const seen = new Set(sandbox.requests);
    const confirmation = await confirmTool(tool('compute_run_job'), input, context);
    assert.match(confirmation?.message ?? '', /NAS volume \d+ is in 上海一区, the task runs in 北京一区/, 'the confirmation says why it cannot run');
    const result = await runTool(tool('compute_run_job'), input, context);
    assert.equal(result.isError, true);
    assert.match(result.text, /is in 上海一区, the task runs in 北京一区: a volume mounts only in its own region/);
    assert.deepEqual(sandbox.requests.filter((request) => !seen.has(request) && request.path.startsWith('/api/task/job/create')), [], 'nothing was sent');
  });

  it('stop: destructive confirmation, then the job is stopped', async () => {
    const created = await runTool(tool('compute_run_job'), { job_name: 'long', device_name: 'RTX 4090 x 1', region: 'beijing-jxq-p1', image: 'img:1', command: 'sleep 30', spot: false }, context);
    const id = Number(/Created job (\d+)/.exec(created.text)?.[1]);
    const confirmation = await confirmTool(tool('compute_stop_job'), { task_id: id }, context);
    assert.match(confirmation?.message ?? '', /This cannot be undone/);
    const stopped = await runTool(tool('compute_stop_job'), { task_id: id }, context);
    assert.equal(stopped.isError, false, stopped.text);
    assert.match(await waitEnded(id), /stopped \(ended\)/);
  });
});
