// Time to a ready kernel with and without image preheat (issue 30, docs/notebooks.md "Faster starts"): a
// Jupyter task created on the sandbox, from task.create to the first cell's result through our kernel client
// (RemoteKernel), for an image no preheat cached ("cold") and for one a finished cluster preheat cached in
// every preheat region ("preheated"), taking turns. The sandbox models the pull: a task whose image is not
// cached in its region stays Pending PULL_MS longer (test/sandbox/preheat/preheats.ts, docs/sandbox-rules.md),
// a figure of this benchmark, not the platform's (real pulls of a CUDA Jupyter image take minutes). What the
// ratio shows is that the extension's path (preheatAndFollow, then the start) gets the whole pull back and
// adds nothing of its own; the preheat's own time is printed apart (it runs ahead of the start).
// Ratios, not tests: printed, never asserted. Run: node out/test/bench/preheatStart.js (or `npm run bench -- preheat-start`).

import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import type { ComputeClient } from '../../src/core/compute/api';
import { createComputeClient } from '../../src/core/compute/client';
import { CellOutputs, checkJupyterServer, JupyterConnectionError, RemoteKernel, type JupyterServer } from '../../src/core/notebooks';
import { preheatAndFollow } from '../../src/core/preheat/preheatFollow';
import { ImagePreheatService } from '../../src/core/preheat/preheatService';
import { waitUntil } from '../helpers/eventually';
import { JUPYTER_PYTHON } from '../sandbox/notebooks/jupyterServers';
import { sandboxChild } from './sandboxChild';

/** The modelled image pull of an image no preheat cached (ms). */
const PULL_MS = 8_000;
/** How long the sandbox takes to fill a region's cache once the preheat runs (ms). */
const SYNC_MS = 3_000;
const ROUNDS = 3;
const COLD_IMAGE = 'quay.io/jupyter/pytorch-notebook:cuda12-2026-11-01';
const PREHEATED_IMAGE = 'quay.io/jupyter/pytorch-notebook:cuda12-latest';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** From task.create to the first cell's result on a new Jupyter task of `image`; the task is stopped after. */
async function timeToReadyKernel(client: ComputeClient, image: string, round: number): Promise<number> {
  const token = randomBytes(24).toString('hex');
  const devices = await client.call('resource.search', { task_type: 'Deployment', device_type: 'GpuDevice' });
  const region = devices.results.flatMap((device) => device.regions).find((candidate) => candidate.inventory > 0);
  if (!region) throw new Error('the sandbox offers no region with inventory');
  const started = performance.now();
  const { task_id: taskId } = await client.call('task.create', {
    task_name: `preheat-bench-${round}`,
    points: 1,
    resources: [{ mark: region.mark.mark, resource: region.mark.resource, region_name: region.region_name }],
    services: [{ service_name: 'jupyter', service_image: image, remote_ports: [{ service_port: 8888 }], env: `JUPYTER_TOKEN=${token}`, start_script_v2: { command: null, args: [] } }],
  });
  let kernel: RemoteKernel | undefined;
  try {
    const baseUrl = await waitUntil('the task URL', async () => (await client.call('task.detail', { task_id: taskId })).services[0]?.remote_ports[0]?.url ?? undefined, { timeoutMs: 120_000 });
    const server: JupyterServer = { baseUrl, token };
    // The gateway answers 503 until the task runs and its server answers.
    await waitUntil(
      'the Jupyter server',
      async () => {
        try {
          return await checkJupyterServer(server);
        } catch (error) {
          if (error instanceof JupyterConnectionError && error.problem === 'not-ready') return undefined;
          throw error;
        }
      },
      { timeoutMs: 180_000, everyMs: 100 },
    );
    kernel = await RemoteKernel.start(server);
    const outcome = await kernel.execute('1 + 1', new CellOutputs(), () => undefined);
    if (outcome.status !== 'ok') throw new Error(`the first cell: ${outcome.status}`);
    return performance.now() - started;
  } finally {
    await kernel?.shutdown().catch(() => undefined);
    await client.call('task.stop', { task_id: taskId }).catch(() => undefined);
  }
}

export async function runPreheatStartBench(): Promise<void> {
  console.log(`\nTime to a ready kernel, with and without image preheat (sandbox: a modelled pull of ${PULL_MS / 1000} s, caches filled in ${SYNC_MS / 1000} s)`);
  const probe = spawnSync(JUPYTER_PYTHON, ['-c', 'import jupyter_server, ipykernel'], { stdio: 'ignore' });
  if (probe.status !== 0) {
    console.log(`  skipped: ${JUPYTER_PYTHON} cannot import jupyter_server and ipykernel (install Debian's jupyter-server python3-ipykernel: node scripts/lib/jupyterDeps.mjs)`);
    return;
  }
  const sandbox = await sandboxChild('preheat');
  try {
    const control = await fetch(`${sandbox.url}/__sandbox/preheat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ imagePullMs: PULL_MS, syncMs: SYNC_MS }) });
    if (!control.ok) throw new Error(`the sandbox refused the pull settings: ${control.status}`);
    const client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.token }) });
    // The extension's path (New GPU Kernel…'s Preheat): every preheat region when the start's is not one.
    // Looks every 250 ms instead of the platform's 10 s floor: the benchmark times the start, not the polling.
    const preheatStarted = performance.now();
    const followed = await preheatAndFollow(new ImagePreheatService(() => client), PREHEATED_IMAGE, { wait: (_ms, signal) => new Promise((resolve) => setTimeout(resolve, signal?.aborted ? 0 : 250)) });
    if (!followed.done) throw new Error('the preheat did not finish');
    const preheatMs = performance.now() - preheatStarted;
    const cold: number[] = [];
    const preheated: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      cold.push(await timeToReadyKernel(client, COLD_IMAGE, round));
      preheated.push(await timeToReadyKernel(client, PREHEATED_IMAGE, round));
    }
    const [c, p] = [median(cold), median(preheated)];
    console.log(
      `  time to a ready kernel (task.create → first cell's result, median of ${ROUNDS}): cold ${(c / 1000).toFixed(1)} s, preheated ${(p / 1000).toFixed(1)} s, ratio ${(p / c).toFixed(2)}× ` +
        `(saved ${((c - p) / 1000).toFixed(1)} s of the ${PULL_MS / 1000} s pull); the preheat itself took ${(preheatMs / 1000).toFixed(1)} s, ahead of the start (load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores)`,
    );
  } finally {
    sandbox.stop();
  }
}

if (require.main === module) {
  runPreheatStartBench().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
