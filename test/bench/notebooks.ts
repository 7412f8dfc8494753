// Notebook kernels (issue 30, docs/notebooks.md) against the sandbox's real Jupyter server behind a Jupyter
// task's public URL; the sandbox runs in a child process (sandboxProcess.ts), so this process holds only
// the client side, as the extension host would:
//   a trivial cell's round trip: RemoteKernel.execute (our client: token header, bounded CellOutputs) vs
//     @jupyterlab/services' KernelConnection alone (its own settings, `ws`), each on a kernel of its own on
//     the same server; goal ≤ 1.2×.
//   100,000 stream lines from one cell: the longest event-loop turn of this process while they arrive, the
//     outputs read every 100 ms as the editor draws them (src/vscode/notebooks/kernelController.ts); goal ≤ 50 ms.
// Needs Debian's jupyter-server and python3-ipykernel (scripts/lib/jupyterDeps.mjs); without them it says so and skips.
// Ratios, not tests: printed, never asserted. Run: node out/test/bench/notebooks.js (or `npm run bench -- notebooks`).

import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { KernelAPI, KernelConnection, ServerConnection } from '@jupyterlab/services';
import WebSocket from 'ws';
import type { ComputeClient } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import { CellOutputs, checkJupyterServer, JupyterConnectionError, RemoteKernel, type JupyterServer } from '../../src/core/notebooks';
import { waitUntil } from '../helpers/eventually';
import { JUPYTER_PYTHON } from '../sandbox/notebooks/jupyterServers';
import { sandboxChild } from './sandboxChild';
import { longestTurn } from './stalls';

const ROUNDS = 30;
const LINES = 100_000;
const STALL_GOAL_MS = 50;
/** How often the editor reads a running cell's outputs (kernelController.ts DRAW_MS). */
const DRAW_MS = 100;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** A Jupyter task on the sandbox (a Jupyter image on port 8888 with its token): its public URL. */
async function jupyterTask(client: ComputeClient, token: string): Promise<string> {
  const devices = await client.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
  const region = devices.results.flatMap((device) => device.regions).find((candidate) => candidate.inventory > 0);
  if (!region) throw new Error('the sandbox offers no region with inventory');
  const { task_id: taskId } = await client.call('task.create', {
    task_name: 'notebook-bench',
    points: 1,
    resources: [{ mark: region.mark.mark, resource: region.mark.resource, region_name: region.region_name }],
    services: [{ service_name: 'jupyter', service_image: 'quay.io/jupyter/pytorch-notebook:cuda12-latest', remote_ports: [{ service_port: 8888 }], env: `JUPYTER_TOKEN=${token}`, start_script_v2: { command: null, args: [] } }],
  });
  return waitUntil('the task URL', async () => (await client.call('task.detail', { task_id: taskId })).services[0]?.remote_ports[0]?.url ?? undefined);
}

export async function runNotebooksBench(): Promise<void> {
  console.log('\nNotebooks (sandbox Jupyter server behind a task URL, sandbox in a child process)');
  const probe = spawnSync(JUPYTER_PYTHON, ['-c', 'import jupyter_server, ipykernel'], { stdio: 'ignore' });
  if (probe.status !== 0) {
    console.log(`  skipped: ${JUPYTER_PYTHON} cannot import jupyter_server and ipykernel (install Debian's jupyter-server python3-ipykernel: node scripts/lib/jupyterDeps.mjs)`);
    return;
  }
  const sandbox = await sandboxChild();
  let ours: RemoteKernel | undefined;
  let raw: KernelConnection | undefined;
  try {
    const client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.token }) });
    const token = randomBytes(24).toString('hex');
    const server: JupyterServer = { baseUrl: await jupyterTask(client, token), token };
    // The gateway answers 503 until the server answers.
    await waitUntil('the Jupyter server', async () => {
      try {
        return await checkJupyterServer(server);
      } catch (error) {
        if (error instanceof JupyterConnectionError && error.problem === 'not-ready') return undefined;
        throw error;
      }
    });
    ours = await RemoteKernel.start(server);
    // The library alone, as its documentation sets it up: its own settings (token appended), `ws` as the WebSocket.
    const baseUrl = server.baseUrl.endsWith('/') ? server.baseUrl : `${server.baseUrl}/`;
    const settings = ServerConnection.makeSettings({ baseUrl, wsUrl: baseUrl.replace(/^http/, 'ws'), token, appendToken: true, WebSocket: WebSocket as unknown as ServerConnection.ISettings['WebSocket'] });
    raw = new KernelConnection({ model: await KernelAPI.startNew({}, settings), serverSettings: settings, handleComms: false });
    await raw.info;

    const oursTimes: number[] = [];
    const rawTimes: number[] = [];
    for (let round = 0; round < ROUNDS + 2; round++) {
      let started = performance.now();
      const outcome = await ours.execute('pass', new CellOutputs(), () => undefined);
      if (outcome.status !== 'ok') throw new Error(`ours: ${outcome.status}`);
      const oursMs = performance.now() - started;
      started = performance.now();
      const reply = await raw.requestExecute({ code: 'pass', stop_on_error: true, allow_stdin: false, store_history: true }).done;
      if (reply.content.status !== 'ok') throw new Error(`raw: ${reply.content.status}`);
      const rawMs = performance.now() - started;
      // The first two rounds warm both paths up.
      if (round < 2) continue;
      oursTimes.push(oursMs);
      rawTimes.push(rawMs);
    }
    const [a, b] = [median(oursTimes), median(rawTimes)];
    console.log(`  a trivial cell's round trip: ours ${a.toFixed(1)} ms, @jupyterlab/services alone ${b.toFixed(1)} ms (medians of ${ROUNDS}; best ${Math.min(...oursTimes).toFixed(1)} / ${Math.min(...rawTimes).toFixed(1)}), ratio ${(a / b).toFixed(2)}× (goal ≤ 1.2)`);

    const kernel = ours;
    const outputs = new CellOutputs();
    let views = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const draw = (): void => {
      timer = undefined;
      outputs.view();
      views++;
    };
    let streamed = 0;
    const turn = await longestTurn(async () => {
      const outcome = await kernel.execute(`for i in range(${LINES}):\n    print(i)`, outputs, () => {
        timer ??= setTimeout(draw, DRAW_MS);
      });
      if (timer !== undefined) clearTimeout(timer);
      draw();
      if (outcome.status !== 'ok') throw new Error(`the ${LINES} lines cell: ${outcome.status}`);
      const stream = outputs.view().outputs.find((output) => output.kind === 'stream');
      streamed = stream?.kind === 'stream' ? stream.droppedLines + stream.text.split('\n').length - 1 : 0;
    });
    // The noise floor: the longest turn while this thread does nothing (a busy machine leaves a ready thread waiting).
    const idle = await longestTurn(() => new Promise<void>((resolve) => setTimeout(resolve, 500)));
    console.log(
      `  ${LINES.toLocaleString('en')} stream lines from one cell (${streamed.toLocaleString('en')} kept or counted, ${views} reads of the outputs): longest event-loop turn ${turn.ticker.toFixed(1)} ms (event-loop delay max ${turn.histogram.toFixed(1)} ms; goal ≤ ${STALL_GOAL_MS} ms; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores; idle 500 ms: ${idle.ticker.toFixed(1)} ms)`,
    );
  } finally {
    await ours?.shutdown().catch(() => undefined);
    if (raw) await raw.shutdown().catch(() => undefined);
    raw?.dispose();
    sandbox.stop();
  }
}

if (require.main === module) {
  runNotebooksBench().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
