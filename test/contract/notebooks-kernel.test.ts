// The notebook kernel client (src/core/notebooks) against the sandbox's real Jupyter server behind a Jupyter
// task's public URL (test/sandbox/notebooks): streamed outputs, PNG display data, errors with tracebacks,
// interrupt, restart, reconnect after the connection is cut, attach to a running kernel, 100,000 lines kept
// bounded, and the bad cases — a wrong token, an address that is not Jupyter, a URL that does not pass
// WebSockets, a kernel that dies. The task's working folder is where cells run.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ComputeClient, Device, Paged } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import { CellOutputs, checkJupyterServer, JupyterConnectionError, MAX_STREAM_LINES, RemoteKernel, type CellOutput, type JupyterServer } from '../../src/core/notebooks/index';
import { waitUntil } from '../helpers/eventually';
import { jupyterServerOf } from '../sandbox/notebooks/jupyterRule';
import { startSandbox } from '../sandbox/server';
import type { Sandbox } from '../sandbox/types';

/** A 1×1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

async function createJupyterTask(client: ComputeClient, env: string | null): Promise<number> {
  const devices: Paged<Device> = await client.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
  const region = devices.results.flatMap((device) => device.regions).find((candidate) => candidate.inventory > 0);
  assert.ok(region, 'the sandbox offers a region with inventory');
  const { task_id: taskId } = await client.call('task.create', {
    task_name: 'notebook',
    points: 1,
    resources: [{ mark: region.mark.mark, resource: region.mark.resource, region_name: region.region_name }],
    services: [{ service_name: 'jupyter', service_image: 'quay.io/jupyter/pytorch-notebook:cuda12-latest', remote_ports: [{ service_port: 8888 }], env, start_script_v2: { command: null, args: [] } }],
  });
  return taskId;
}

async function taskUrl(client: ComputeClient, taskId: number): Promise<string> {
  return waitUntil('the task URL', async () => (await client.call('task.detail', { task_id: taskId })).services[0]?.remote_ports[0]?.url ?? undefined);
}

/** Waits through the gateway's 503 while the server starts. */
async function whenServing(server: JupyterServer): Promise<void> {
  await waitUntil('the Jupyter server', async () => {
    try {
      return await checkJupyterServer(server);
    } catch (error) {
      if (error instanceof JupyterConnectionError && error.problem === 'not-ready') return undefined;
      throw error;
    }
  });
}

async function problemOf(promise: Promise<unknown>): Promise<JupyterConnectionError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof JupyterConnectionError, `a JupyterConnectionError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a failure');
}

function streamText(outputs: CellOutput[], name = 'stdout'): string {
  return outputs.map((output) => (output.kind === 'stream' && output.name === name ? output.text : '')).join('');
}

async function run(kernel: RemoteKernel, code: string): Promise<{ status: string; count: number | null; outputs: CellOutput[]; dropped: number }> {
  const outputs = new CellOutputs();
  const outcome = await kernel.execute(code, outputs, () => undefined);
  const view = outputs.view();
  return { status: outcome.status, count: outcome.executionCount, outputs: view.outputs, dropped: view.droppedOutputs };
}

/** The kernel as the server reports it (its REST API, not the WebSocket): its state and open connections. */
async function kernelModel(server: JupyterServer, kernelId: string): Promise<{ execution_state?: string; connections?: number }> {
  const response = await fetch(`${server.baseUrl}/api/kernels/${kernelId}`, { headers: { Authorization: `token ${server.token}` } });
  return (await response.json()) as { execution_state?: string; connections?: number };
}

async function executionState(server: JupyterServer, kernelId: string): Promise<string | undefined> {
  return (await kernelModel(server, kernelId)).execution_state;
}

async function kernelCount(server: JupyterServer): Promise<number> {
  const response = await fetch(`${server.baseUrl}/api/kernels`, { headers: { Authorization: `token ${server.token}` } });
  return ((await response.json()) as unknown[]).length;
}

describe('notebooks: the kernel client against a real Jupyter server behind a task URL', () => {
  let sandbox: Sandbox;
  let client: ComputeClient;
  let taskId: number;
  let server: JupyterServer;
  let kernel: RemoteKernel;
  /** Every change of the kernel link, in order (connected / connecting / disconnected). */
  const links: string[] = [];

  before(async () => {
    sandbox = await startSandbox({ pendingMs: 0 });
    const apiToken = sandbox.credentials.tokenMode.token;
    client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: apiToken }) });
    const token = randomBytes(24).toString('hex');
    taskId = await createJupyterTask(client, `JUPYTER_TOKEN=${token}`);
    server = { baseUrl: await taskUrl(client, taskId), token };
    await whenServing(server);
    kernel = await RemoteKernel.start(server, { onLink: (link) => links.push(link) });
  });
  after(async () => {
    kernel?.dispose();
    await sandbox?.close();
  });

  it('the rule: Jupyter images or `jupyter lab|server|notebook` on an exposed port; the token from JUPYTER_TOKEN', () => {
    const service = (image: string, command: string | null, port = 8888, env: string | null = null) => ({ service_name: 's', service_image: image, remote_ports: [{ service_port: port }], env, start_script_v2: { command, args: [] } });
    assert.deepEqual(jupyterServerOf(service('quay.io/jupyter/pytorch-notebook:cuda12-latest', null, 8888, 'A=1\nJUPYTER_TOKEN=t0k')), { servicePort: 8888, token: 't0k', storageId: undefined });
    assert.equal(jupyterServerOf(service('python:3.12', 'jupyter lab --port=9999', 9999))?.servicePort, 9999);
    assert.equal(jupyterServerOf(service('python:3.12', 'python serve.py')), undefined, 'not Jupyter');
    assert.equal(jupyterServerOf(service('jupyter/base-notebook', null, 8080)), undefined, 'port 8888 not exposed');
  });

  it('prints stream, returns results and PNG display data, raises with a traceback; counts go up', async () => {
    const printed = await run(kernel, 'print("hello from the kernel")\n6 * 7');
    assert.equal(printed.status, 'ok');
    assert.equal(streamText(printed.outputs), 'hello from the kernel\n');
    const result = printed.outputs.find((output) => output.kind === 'rich');
    assert.equal(result?.kind === 'rich' ? result.data['text/plain'] : undefined, '42');

    const image = await run(kernel, `import base64\nfrom IPython.display import Image, display\ndisplay(Image(data=base64.b64decode("${PNG_BASE64}")))`);
    assert.equal(image.status, 'ok');
    const png = image.outputs.find((output) => output.kind === 'rich' && 'image/png' in output.data);
    assert.ok(png?.kind === 'rich');
    assert.equal(String(png.data['image/png']).trim(), PNG_BASE64);

    const raised = await run(kernel, 'def f():\n    raise ValueError("bad value")\nf()');
    assert.equal(raised.status, 'error');
    const error = raised.outputs.find((output) => output.kind === 'error');
    assert.ok(error?.kind === 'error');
    assert.equal(error.ename, 'ValueError');
    assert.equal(error.evalue, 'bad value');
    // IPython colours its tracebacks with ANSI codes (VS Code's error renderer draws them).
    const plain = error.traceback.join('\n').replace(/\u001b\[[0-9;]*m/g, '');
    assert.match(plain, /raise ValueError\("bad value"\)/, 'the traceback shows the line that raised');
    assert.ok(printed.count !== null && raised.count !== null && raised.count > printed.count);
  });

  it('runs in the task working folder (the volume stand-in)', async () => {
    const written = await run(kernel, 'open("from-kernel.txt", "w").write("written by a cell")');
    assert.equal(written.status, 'ok');
    const workDir = sandbox.jupyter.workDir(taskId);
    assert.ok(workDir);
    assert.equal(fs.readFileSync(path.join(workDir, 'from-kernel.txt'), 'utf8'), 'written by a cell');
  });

  it('100,000 lines from one cell: the last lines kept, the rest counted, bounded', async () => {
    const many = await run(kernel, 'for i in range(100000):\n    print(i)');
    assert.equal(many.status, 'ok');
    const text = streamText(many.outputs);
    const stream = many.outputs.find((output) => output.kind === 'stream');
    assert.ok(stream?.kind === 'stream');
    assert.ok(text.endsWith('99999\n'));
    const lines = text.split('\n').length - 1;
    assert.ok(lines <= MAX_STREAM_LINES, `${lines} lines kept`);
    assert.equal(stream.droppedLines + lines, 100_000, 'every line is kept or counted');
  });

  it('interrupts a long cell (KeyboardInterrupt), then runs the next one', async () => {
    const outputs = new CellOutputs();
    const running = kernel.execute('import time\nprint("started", flush=True)\ntime.sleep(600)', outputs, () => undefined);
    await waitUntil('the cell to start', () => streamText(outputs.view().outputs).includes('started'));
    await kernel.interrupt();
    const outcome = await running;
    assert.equal(outcome.status, 'error');
    assert.ok(outputs.view().outputs.some((output) => output.kind === 'error' && output.ename === 'KeyboardInterrupt'));
    assert.equal((await run(kernel, 'print("next")')).outputs.length, 1);
  });

  it('a cut connection: the kernel and its running cell survive, reconnect() brings the rest of the output', async () => {
    const outputs = new CellOutputs();
    const running = kernel.execute('import os, time\nprint("waiting", flush=True)\nwhile not os.path.exists("go"):\n    time.sleep(0.05)\nprint("after the cut")', outputs, () => undefined);
    await waitUntil('the cell to start', () => streamText(outputs.view().outputs).includes('waiting'));
    const before = links.length;
    // The server keeps what it sends for a session whose WebSocket closed and replays it when the session
    // comes back — if it saw the close first: a reconnect that beats the close loses what comes meanwhile
    // (the "lost" case below). So the URL refuses WebSockets until the server counts no connection.
    sandbox.jupyter.setWebSockets(false);
    assert.ok(sandbox.jupyter.cutConnections(taskId) > 0);
    // The library reconnects by itself at once: watch the link's changes, not its state at a poll.
    await waitUntil('the link to drop', () => links.slice(before).some((link) => link !== 'connected'));
    await waitUntil('the server to see the close', async () => ((await kernelModel(server, kernel.id)).connections === 0 ? true : undefined));
    sandbox.jupyter.setWebSockets(true);
    await kernel.reconnect();
    await waitUntil('the link to come back', () => kernel.link === 'connected');
    fs.writeFileSync(path.join(sandbox.jupyter.workDir(taskId) ?? assert.fail('no work dir'), 'go'), '');
    assert.equal((await running).status, 'ok');
    assert.match(streamText(outputs.view().outputs), /waiting\n[\s\S]*after the cut\n/);
  });

  it('a cell whose end is lost in flight when the link drops ends "lost" once the kernel is idle, instead of running forever', { timeout: 180_000 }, async () => {
    const outputs = new CellOutputs();
    const running = kernel.execute('import os, time\nprint("waiting", flush=True)\nwhile not os.path.exists("go-unheard"):\n    time.sleep(0.05)\nprint("unheard")', outputs, () => undefined);
    await waitUntil('the cell to start', () => streamText(outputs.view().outputs).includes('waiting'));
    // The server's next messages on this WebSocket (the rest of the output, the reply, idle) go nowhere.
    assert.ok(sandbox.jupyter.swallowServerData(taskId) > 0);
    fs.writeFileSync(path.join(sandbox.jupyter.workDir(taskId) ?? assert.fail('no work dir'), 'go-unheard'), '');
    await waitUntil('the kernel to finish the cell', async () => ((await executionState(server, kernel.id)) === 'idle' ? true : undefined));
    assert.ok(sandbox.jupyter.cutConnections(taskId) > 0);
    const outcome = await running;
    assert.equal(outcome.status, 'lost');
    assert.doesNotMatch(streamText(outputs.view().outputs), /unheard/, 'what was swallowed never arrived');
    await waitUntil('the link to come back', () => kernel.link === 'connected');
    assert.equal((await run(kernel, 'print("next")')).status, 'ok', 'the kernel goes on');
  });

  it('restart clears the kernel state; attaching by id (an editor restart) keeps it', async () => {
    await run(kernel, 'kept = 41');
    const again = await RemoteKernel.connect(server, kernel.id);
    try {
      assert.equal(streamText((await run(again, 'print(kept + 1)')).outputs), '42\n');
    } finally {
      again.dispose();
    }
    await kernel.restart();
    const after = await run(kernel, 'kept');
    assert.equal(after.status, 'error');
    assert.ok(after.outputs.some((output) => output.kind === 'error' && output.ename === 'NameError'));
  });

  it('a kernel that dies mid-cell: the run ends aborted and the server restarts it', async () => {
    const died = await run(kernel, 'import os\nos._exit(1)');
    assert.equal(died.status, 'aborted');
    await waitUntil('the kernel to come back', async () => (await run(kernel, 'print("alive")')).status === 'ok');
  });

  it('a wrong token, an address that is not Jupyter: clear problems, the token never in the message', async () => {
    const wrong = await problemOf(RemoteKernel.start({ baseUrl: server.baseUrl, token: 'wrong-token-value' }));
    assert.equal(wrong.problem, 'wrong-token');
    assert.doesNotMatch(wrong.message, /wrong-token-value/);
    const notJupyter = await problemOf(RemoteKernel.start({ baseUrl: sandbox.computeBaseUrl, token: server.token }));
    assert.equal(notJupyter.problem, 'not-jupyter');
    assert.ok(!notJupyter.message.includes(server.token));
    const nobody = await problemOf(RemoteKernel.start({ baseUrl: 'http://127.0.0.1:9', token: server.token }));
    assert.equal(nobody.problem, 'unreachable');
  });

  it('a URL that does not pass WebSockets: detected as no-websockets, and the kernel it started is shut down', async () => {
    const before = await kernelCount(server);
    sandbox.jupyter.setWebSockets(false);
    try {
      const blocked = await problemOf(RemoteKernel.start(server));
      assert.equal(blocked.problem, 'no-websockets');
      assert.equal(blocked.status, 400);
      assert.ok(!blocked.message.includes(server.token));
    } finally {
      sandbox.jupyter.setWebSockets(true);
    }
    assert.equal(await kernelCount(server), before);
  });

  it('pausing the task stops the server: its URL refuses', async () => {
    const token = randomBytes(24).toString('hex');
    const other = await createJupyterTask(client, `JUPYTER_TOKEN=${token}`);
    const otherServer = { baseUrl: await taskUrl(client, other), token };
    await whenServing(otherServer);
    await client.call('task.pause', { task_id: other });
    assert.equal((await problemOf(checkJupyterServer(otherServer))).problem, 'unreachable');
    assert.equal(sandbox.jupyter.workDir(other), undefined);
  });
});
