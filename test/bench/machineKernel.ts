// Time to a ready machine kernel (issue 30, docs/notebooks.md "A kernel on a machine") against the sandbox's
// SSH machine, which runs in a child process (sandboxProcess.ts) and runs its commands on this host:
//   ours: what follows picking "Jupyter on a Machine…" once the key is on the machine (machineKernel.ts
//     without its UI): a key-only connection, the start script (a free port, the server detached, the token
//     by stdin), the tunnel, the looks every MACHINE_READY_PAUSE_MS until the server answers, a kernel
//     started, and `print(1)`'s output back;
//   OpenSSH: `ssh -L` running the same Debian jupyter-server in the foreground with the same key, polled
//     every 50 ms through the forward, then @jupyterlab/services alone starts a kernel and runs the cell;
//   jupyter's own start: the same server started here without SSH, the same client — the floor.
// Ratios, not tests: printed, never asserted. Run: node out/test/bench/machineKernel.js (or `npm run bench -- machine-kernel`).

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KernelAPI, KernelConnection, ServerConnection } from '@jupyterlab/services';
import WebSocket from 'ws';
import { createComputeClient } from '../../src/core/compute/client';
import { connectMachine, type MachineLogin } from '../../src/core/machines';
import { CellOutputs, checkJupyterServer, JupyterConnectionError, MACHINE_READY_PAUSE_MS, MachineTunnel, RemoteKernel, startMachineJupyter, stopMachineJupyter, untilMachineJupyterAnswers, type JupyterServer } from '../../src/core/notebooks';
import { JUPYTER_PYTHON } from '../sandbox/notebooks/jupyterServers';
import { sandboxChild } from './sandboxChild';
import { rentBenchMachine } from './sandboxMachine';

const DEVICE = 9001;
const ROUNDS = 3;
/** How often the OpenSSH and local runs look whether their server answers (a tight loop a user would not beat). */
const THEIR_POLL_MS = 50;

const now = (): number => performance.now();
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Looks every THEIR_POLL_MS until the server answers (a refused or not-yet-forwarded connection is "not yet"). */
async function untilAnswers(server: JupyterServer, process: ChildProcess): Promise<void> {
  let stderr = '';
  process.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-1_000)));
  for (;;) {
    if (process.exitCode !== null) throw new Error(`the server's process exited (${process.exitCode}): ${stderr.trim()}`);
    try {
      await checkJupyterServer(server);
      return;
    } catch (error) {
      if (!(error instanceof JupyterConnectionError) || (error.problem !== 'unreachable' && error.problem !== 'not-ready')) throw error;
    }
    await sleep(THEIR_POLL_MS);
  }
}

/** @jupyterlab/services alone, as its documentation sets it up: a kernel started, `print(1)` run, its output back. */
async function libraryFirstResult(server: JupyterServer): Promise<void> {
  const settings = ServerConnection.makeSettings({ baseUrl: server.baseUrl, wsUrl: server.baseUrl.replace(/^http/, 'ws'), token: server.token, appendToken: true, WebSocket: WebSocket as unknown as ServerConnection.ISettings['WebSocket'] });
  const kernel = new KernelConnection({ model: await KernelAPI.startNew({}, settings), serverSettings: settings, handleComms: false });
  try {
    let printed = '';
    const future = kernel.requestExecute({ code: 'print(1)', stop_on_error: true, allow_stdin: false, store_history: true });
    future.onIOPub = (message) => {
      if (message.header.msg_type === 'stream') printed += (message.content as { text: string }).text;
    };
    await future.done;
    if (printed !== '1\n') throw new Error(`the library's cell printed ${JSON.stringify(printed)}`);
  } finally {
    await kernel.shutdown().catch(() => undefined);
    kernel.dispose();
  }
}

async function stopped(process: ChildProcess): Promise<void> {
  if (process.exitCode !== null || process.signalCode !== null) return;
  const exited = new Promise((resolve) => process.once('exit', resolve));
  process.kill('SIGTERM');
  await exited;
}

/** The same Debian jupyter-server, in the foreground with the token in its environment (as root, as the start script does, with --allow-root; the sandbox machine runs as this user). */
const serverArgs = (port: number): string[] => ['--no-browser', '--ip=127.0.0.1', `--port=${port}`, '--ServerApp.port_retries=0', ...(process.getuid?.() === 0 ? ['--allow-root'] : [])];

export async function runMachineKernelBench(): Promise<void> {
  console.log('\nMachine kernel: time to a ready kernel (sandbox SSH machine in a child process; Debian jupyter-server)');
  const probe = spawnSync(JUPYTER_PYTHON, ['-c', 'import jupyter_server, ipykernel'], { stdio: 'ignore' });
  if (probe.status !== 0 || spawnSync('jupyter-server', ['--version'], { stdio: 'ignore' }).status !== 0) {
    console.log(`  skipped: jupyter-server with ipykernel is not installed here (Debian's jupyter-server python3-ipykernel: node scripts/lib/jupyterDeps.mjs)`);
    return;
  }
  // The library logs every WebSocket start and kernel status with console.debug (the extension's vendor file drops those calls).
  const debug = console.debug;
  console.debug = () => undefined;
  const sandbox = await sandboxChild();
  const work = await mkdtemp(join(tmpdir(), 'machine-kernel-bench-'));
  try {
    const client = createComputeClient({ baseUrl: sandbox.computeBaseUrl, credentials: async () => ({ mode: 'token', token: sandbox.token }) });
    const machine = await rentBenchMachine(client, DEVICE, work);
    const { store } = machine;
    // The kernel's start is key-only: the key went on the machine with the first connect.
    const login: MachineLogin = { ...machine.login, password: null };
    const sshArgs = [...machine.sshArgs, '-o', 'ExitOnForwardFailure=yes'];
    const connect = async () => (await connectMachine({ deviceId: DEVICE, login, store, chooseKey: async () => ({ kind: 'generate' }) })).connection;

    const ours: number[] = [];
    const openSsh: number[] = [];
    const local: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Ours, as machineKernel.ts runs it after the pick.
      const token = randomBytes(24).toString('hex');
      let started = now();
      const ssh = await connect();
      const server = await startMachineJupyter(ssh, token, undefined).finally(() => ssh.close());
      const tunnel = await MachineTunnel.open({ connect: () => connect(), remotePort: server.remotePort });
      let kernel: RemoteKernel | undefined;
      try {
        const reached = { baseUrl: tunnel.baseUrl, token };
        await untilMachineJupyterAnswers(reached, () => tunnel.ssh(), server, { looks: 240, pause: () => sleep(MACHINE_READY_PAUSE_MS) });
        kernel = await RemoteKernel.start(reached);
        const outputs = new CellOutputs();
        const outcome = await kernel.execute('print(1)', outputs, () => undefined);
        const stream = outputs.view().outputs.find((output) => output.kind === 'stream');
        if (outcome.status !== 'ok' || stream?.kind !== 'stream' || stream.text !== '1\n') throw new Error(`ours: ${outcome.status}`);
        ours.push(now() - started);
      } finally {
        await kernel?.shutdown().catch(() => undefined);
        await stopMachineJupyter(await tunnel.ssh(), server).catch(() => undefined);
        tunnel.close();
      }

      // OpenSSH: the same server over `ssh -L`, in the foreground.
      const [remotePort, localPort] = [await freePort(), await freePort()];
      started = now();
      const viaSsh = spawn('ssh', [...sshArgs, '-L', `${localPort}:127.0.0.1:${remotePort}`, login.host, `echo "pid $$"; JUPYTER_TOKEN=${token} exec jupyter-server ${serverArgs(remotePort).join(' ')}`], { stdio: ['ignore', 'pipe', 'pipe'] });
      let remotePid = '';
      viaSsh.stdout.on('data', (chunk: Buffer) => (remotePid ||= /^pid (\d+)/.exec(chunk.toString('utf8'))?.[1] ?? ''));
      try {
        const reached = { baseUrl: `http://127.0.0.1:${localPort}/`, token };
        await untilAnswers(reached, viaSsh);
        await libraryFirstResult(reached);
        openSsh.push(now() - started);
      } finally {
        await stopped(viaSsh);
        // The machine may keep a command whose client went away: stop the server by its pid.
        if (remotePid) {
          const cleanup = await connect();
          await cleanup.exec(`kill -TERM ${remotePid} 2>/dev/null`).finally(() => cleanup.close());
        }
      }

      // Jupyter's own start, no SSH.
      const port = await freePort();
      started = now();
      const here = spawn('jupyter-server', serverArgs(port), { stdio: ['ignore', 'ignore', 'pipe'], cwd: work, env: { ...process.env, JUPYTER_TOKEN: token } });
      try {
        const reached = { baseUrl: `http://127.0.0.1:${port}/`, token };
        await untilAnswers(reached, here);
        await libraryFirstResult(reached);
        local.push(now() - started);
      } finally {
        await stopped(here);
      }
    }
    const [a, b, c] = [median(ours), median(openSsh), median(local)];
    const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
    console.log(`  pick to first cell result: ours ${seconds(a)}, OpenSSH ssh -L + the library ${seconds(b)}, jupyter-server here + the library ${seconds(c)} (medians of ${ROUNDS}; best ${seconds(Math.min(...ours))} / ${seconds(Math.min(...openSsh))} / ${seconds(Math.min(...local))})`);
    console.log(`    ratio ours / OpenSSH ${(a / b).toFixed(2)}×, ours / jupyter's own start ${(a / c).toFixed(2)}× (ours looks every ${MACHINE_READY_PAUSE_MS} ms, theirs every ${THEIR_POLL_MS} ms)`);
  } finally {
    console.debug = debug;
    sandbox.stop();
    await rm(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  runMachineKernelBench().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
