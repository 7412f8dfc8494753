// The Tasks view against the sandbox: seeded tasks, a full lifecycle through the wizard's code path,
// and a failing platform shown as a view message that clears after a refresh.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ComputeApi, RegionChoice, TreeRow } from '../../../src/vscode/views/index';
import { clearFaults, injectFault } from '../sandboxInfo';
import { computeWithSandbox, extensionApi, findRow, refreshUntil } from './computeTestApi';

function taskRow(rows: readonly TreeRow[], taskId: number): TreeRow | undefined {
  return rows.find((row) => row.id === `task/${taskId}`);
}

async function inStockRegion(compute: ComputeApi): Promise<RegionChoice> {
  const choice = (await compute.searchRegions()).find(({ region }) => region.inventory > 0 && region.discount_price !== null);
  assert.ok(choice, 'the sandbox has a region in stock');
  return choice;
}

describe('compute: Tasks tree', () => {
  let compute: ComputeApi;

  before(async () => {
    compute = await computeWithSandbox();
    await compute.refresh('tasks');
  });

  afterEach(async () => {
    await clearFaults();
  });

  it('lists the seeded tasks with status icons and context values', async () => {
    const { rows, message } = await compute.snapshot('tasks');
    assert.equal(message, undefined, `unexpected view message: ${message}`);
    const serving = rows.find((row) => row.label === 'qwen3-32b-serving');
    assert.ok(serving, `seeded running task missing from ${rows.map((row) => row.label).join(', ')}`);
    // task.<status>, then tags for the menus (unhealthy while fewer nodes run than asked for).
    assert.match(serving.contextValue ?? '', /^task\.Running(\.unhealthy)?$/);
    assert.equal(serving.icon, 'pass');
    assert.match(serving.description ?? '', /^Running · \d+\/2 nodes · ¥\d+\.\d{2} billed$/);
    const paused = rows.find((row) => row.label === 'comfyui-测试');
    assert.ok(paused, 'seeded paused task missing');
    assert.equal(paused.contextValue, 'task.Paused');
    assert.equal(paused.icon, 'debug-pause');
  });

  it('expands a running task to its service with a public URL and to its nodes', async () => {
    const { rows } = await compute.snapshot('tasks', { depth: 3 });
    const serving = rows.find((row) => row.label === 'qwen3-32b-serving');
    assert.ok(serving?.children, 'the running task expands');
    const service = serving.children.find((row) => row.contextValue === 'service');
    assert.equal(service?.label, 'vllm');
    const url = findRow(service?.children ?? [], (row) => row.contextValue === 'serviceUrl');
    assert.ok(url, 'a Running task has a public URL');
    assert.match(url.label, /^https:\/\/\S+/);
    const nodes = serving.children.find((row) => row.contextValue === 'nodes');
    assert.ok(nodes?.children && nodes.children.length > 0, 'the Nodes group lists nodes');
    for (const node of nodes.children) {
      assert.equal(node.contextValue, 'node');
      assert.match(node.description ?? '', /^Running · /);
      // The node list's counts are strings (the sandbox sends them so, as the documents type them): read as numbers.
      assert.match(node.tooltip ?? '', /× \d+, \d+ CPU/, node.tooltip);
    }
  });

  it('create → shown at once → Running → pause → Paused → recover → Running → stop → End', async function () {
    this.timeout(180_000);
    const region = await inStockRegion(compute);
    const name = `it-lifecycle-${Date.now()}`;
    const secretValue = `hf-it-${Math.random().toString(36).slice(2)}-${Date.now()}`;
    const taskId = await compute.createTask({
      name,
      region: region.region,
      image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0',
      ports: [6688],
      points: 1,
      env: { LOG_LEVEL: 'info', HF_TOKEN: secretValue },
      startCommand: '',
    });
    assert.ok(Number.isInteger(taskId) && taskId > 0, `task id ${taskId}`);

    // No refresh here: the row must be there straight after the create.
    const immediately = taskRow((await compute.snapshot('tasks')).rows, taskId);
    assert.ok(immediately, 'the new task is listed at once');
    assert.equal(immediately.label, name);
    assert.match(immediately.contextValue ?? '', /^task\.(Pending|Running)(\.|$)/);

    const isStatus = (status: string) => (snapshot: { rows: TreeRow[] }) => (taskRow(snapshot.rows, taskId)?.contextValue ?? '').split('.')[1] === status;
    await refreshUntil(compute, 'tasks', isStatus('Running'), { what: 'the new task runs' });

    await compute.pauseTask(taskId);
    await refreshUntil(compute, 'tasks', isStatus('Paused'), { what: 'the task is paused' });
    assert.equal(taskRow((await compute.snapshot('tasks')).rows, taskId)?.icon, 'debug-pause');

    await compute.recoverTask(taskId);
    await refreshUntil(compute, 'tasks', isStatus('Running'), { what: 'the recovered task runs again' });

    await compute.stopTask(taskId);
    // An ended task leaves the active rows for the collapsed Ended group (depth 2 expands it).
    const endedRow = (snapshot: { rows: TreeRow[] }) => findRow(snapshot.rows, (row) => row.id === `task/${taskId}`);
    const ended = await refreshUntil(compute, 'tasks', (snapshot) => endedRow(snapshot)?.contextValue === 'task.End', { what: 'the stopped task ends', depth: 2 });
    assert.equal(endedRow(ended)?.icon, 'circle-slash');
    assert.equal(taskRow(ended.rows, taskId), undefined, 'no longer among the active rows');
    assert.ok(ended.rows.find((row) => row.id === 'tasks/ended')?.children?.some((row) => row.id === `task/${taskId}`), 'inside the Ended group');
    // Env values can be secrets: the create must not have written them to the log channel.
    assert.ok(!(await extensionApi()).surface.logText().includes(secretValue), 'an env value reached the log');
  });

  it('a command on a task whose row trails the platform acts on what the platform says (the held row is read again)', async function () {
    this.timeout(180_000);
    const region = await inStockRegion(compute);
    const taskId = await compute.createTask({ name: `it-stale-${Date.now()}`, region: region.region, image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0', ports: [6688], points: 1, env: {}, startCommand: '' });
    const isStatus = (status: string) => (snapshot: { rows: TreeRow[] }) => (taskRow(snapshot.rows, taskId)?.contextValue ?? '').split('.')[1] === status;
    await refreshUntil(compute, 'tasks', isStatus('Running'), { what: 'the new task runs' });
    // Paused elsewhere (the console, another window): the view still holds it as Running.
    const client = (await extensionApi()).services.computeClient();
    await client.call('task.pause', { task_id: taskId });
    assert.equal((await client.call('task.detail', { task_id: taskId })).status, 'Paused');
    assert.match(taskRow((await compute.snapshot('tasks')).rows, taskId)?.contextValue ?? '', /^task\.Running/, 'the held row trails the platform');
    // Recover needs a Paused task: refused on the held row alone, it would do nothing.
    await vscode.commands.executeCommand('computeToolkit.tasks.recover', taskId);
    assert.match((await client.call('task.detail', { task_id: taskId })).status, /^(Pending|Running)$/, 'the recover was sent (it passes through Pending)');
    await compute.stopTask(taskId);
  });

  it('creates with an encrypted body on an RSA profile, and stops it', async function () {
    this.timeout(180_000);
    const region = await inStockRegion(compute);
    const name = `it-encrypted-${Date.now()}`;
    const taskId = await compute.createTask({ name, region: region.region, image: 'harbor.suanleme.cn/public-hub/dailyhot:1.0', ports: [6688, 80], points: 1, encrypt: true });
    assert.ok(taskRow((await compute.snapshot('tasks')).rows, taskId), 'the encrypted create is listed at once');
    await compute.stopTask(taskId);
    await refreshUntil(compute, 'tasks', (snapshot) => findRow(snapshot.rows, (row) => row.id === `task/${taskId}`)?.contextValue === 'task.End', {
      what: 'the task ends',
      depth: 2,
    });
  });

  it('a failing platform (HTTP 503) shows a short view message (the whole story once, as a notification), and recovers after a refresh', async function () {
    this.timeout(180_000);
    // More failures than the client's retries, so the refresh itself fails.
    await injectFault({ target: 'compute', kind: 'status', status: 503, pathPrefix: '/api/deployment/task/search', count: 50 });
    await compute.refresh('tasks');
    const failed = await compute.snapshot('tasks');
    assert.match(failed.message ?? '', /503/, `message: ${failed.message}`);
    // The rows loaded before the failure stay on screen, and the message says they are stale.
    assert.ok(failed.rows.some((row) => row.label === 'qwen3-32b-serving'), 'stale rows are kept');
    assert.match(failed.message ?? '', /Showing tasks from/);

    await clearFaults();
    await compute.refresh('tasks');
    const recovered = await compute.snapshot('tasks');
    assert.equal(recovered.message, undefined);
    assert.ok(recovered.rows.some((row) => row.label === 'qwen3-32b-serving'));
  });
});
