// The kinds' services against the strict sandbox (issue 28): a change sends its one operation and wakes
// the store exactly once (never when the platform refused); the agent tools' pause and stop go through
// the same service and wake the host's store through the tool context.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ComputeClient } from '../../src/core/compute/api';
import { JobService } from '../../src/core/jobs/jobService';
import { TaskService } from '../../src/core/tasks/taskService';
import { runTool } from '../../src/core/tools/run';
import { pauseTask } from '../../src/core/tools/writeTools';
import { stopJob } from '../../src/core/tools/jobTools';
import { buildJobBody } from '../../src/core/jobs/jobBody';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';
import { createTasks, requestCounter, sandboxClient } from '../helpers/statePolling';

const PAUSE_PATH = '/api/deployment/task/pause';
const RECOVER_PATH = '/api/deployment/task/recover';
const JOB_CREATE_PATH = '/api/task/job/create';
const JOB_STOP_PATH = '/api/task/job/stop';
const profile = { label: 'sandbox', environment: 'sandbox' };

describe('kind services against the sandbox', () => {
  let sandbox: Sandbox;
  let client: ComputeClient;
  let count: (prefix: string) => number;

  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0, jobPendingMs: 30 });
    client = sandboxClient(sandbox);
    count = requestCounter(sandbox);
  });
  after(() => sandbox.close());

  it('TaskService.lifecycle sends pause, then recover, once each and wakes the store once after each', async () => {
    const [taskId] = await createTasks(client, 1, 'service');
    assert.ok(taskId);
    let wakes = 0;
    const tasks = new TaskService(() => client, () => void wakes++);
    count('');
    await tasks.lifecycle('pause', taskId);
    assert.equal(count(PAUSE_PATH), 1);
    assert.equal(wakes, 1);
    assert.equal((await tasks.detail(taskId)).status, 'Paused');
    assert.equal(wakes, 1, 'a read does not wake the store');
    count('');
    await tasks.lifecycle('recover', taskId);
    assert.equal(count(RECOVER_PATH), 1);
    assert.equal(wakes, 2);
  });

  it('does not wake the store when the platform refuses the change', async () => {
    let wakes = 0;
    const tasks = new TaskService(() => client, () => void wakes++);
    await assert.rejects(tasks.lifecycle('pause', 999_999_999));
    assert.equal(wakes, 0);
  });

  it('the pause tool goes through TaskService.lifecycle: one task.pause, one wake of the host store', async () => {
    const [taskId] = await createTasks(client, 1, 'tool');
    assert.ok(taskId);
    let wakes = 0;
    count('');
    const result = await runTool(pauseTask, { task_id: taskId }, { client, profile, wake: () => void wakes++ });
    assert.equal(result.isError, false, result.text);
    assert.equal(count(PAUSE_PATH), 1);
    assert.equal(wakes, 1);
  });

  it('JobService create and stop, and the stop tool, each send their operation once and wake once', async () => {
    const devices = await client.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
    const region = devices.results.filter((device) => device.gpu_count === 1).flatMap((device) => device.regions).find((candidate) => candidate.inventory > 0);
    assert.ok(region);
    const resource = { resource: region.mark.resource, region_name: region.region_name, mark: region.mark.mark };
    const body = (name: string) => buildJobBody({ name, resource, image: 'img', command: 'sleep 600', spot: false, timeoutSec: 900, completions: 1, parallelism: 1, indexed: false, retries: 0, env: [] });
    let wakes = 0;
    const jobs = new JobService(() => client, () => void wakes++);
    count('');
    const first = await jobs.create(body('service-a'));
    assert.equal(count(JOB_CREATE_PATH), 1);
    assert.equal(wakes, 1);
    await jobs.stop(first);
    assert.equal(count(JOB_STOP_PATH), 1);
    assert.equal(wakes, 2);

    const second = await jobs.create(body('service-b'));
    let toolWakes = 0;
    count('');
    const result = await runTool(stopJob, { task_id: second }, { client, profile, wake: () => void toolWakes++ });
    assert.equal(result.isError, false, result.text);
    assert.equal(count(JOB_STOP_PATH), 1);
    assert.equal(toolWakes, 1);
  });
});
