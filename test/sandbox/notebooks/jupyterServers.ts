// The public URLs of Jupyter tasks (rule: ./jupyterRule.ts): when a task's nodes start, a real Jupyter
// server (Debian's jupyter-server and python3-ipykernel under /usr/bin/python3, scripts/lib/jupyterDeps.mjs)
// is spawned on loopback with the task's token in its environment (never on its command line) and the volume
// (or a temporary folder) as its working folder; the task's public URL is a small gateway in front of it
// (./gateway.ts) that answers 503 until the server answers, can refuse WebSockets (to test detection) and
// can cut every connection (to test reconnects). Pausing or stopping the task stops the server and its kernels.

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { ServiceSpec } from '../../../src/core/compute/api';
import { JupyterGateway } from './gateway';
import type { JupyterControl } from './jupyterControl';
import { jupyterServerOf, type JupyterServerSpec } from './jupyterRule';

const LOOPBACK = '127.0.0.1';
export const JUPYTER_PYTHON = '/usr/bin/python3';

interface Hosted {
  spec: JupyterServerSpec;
  process: ChildProcess;
  exited: Promise<void>;
  gateway: JupyterGateway;
  /** Folders this server made (removed when it stops); the volume's own folder is never removed. */
  scratch: string;
  workDir: string;
}

export interface JupyterServersOptions {
  /** A NAS volume's local folder, for a task that mounts one. */
  volumeDirectory?: (storageId: number) => string | undefined;
  /** false: the gateway refuses WebSocket upgrades, as a proxy that does not pass them would. */
  webSockets?: boolean;
}

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export class JupyterServers implements JupyterControl {
  private readonly hosted = new Map<number, Hosted>();
  private readonly starting = new Set<Promise<void>>();
  private webSockets: boolean;

  constructor(private readonly options: JupyterServersOptions = {}) {
    this.webSockets = options.webSockets ?? process.env['SANDBOX_JUPYTER_WEBSOCKETS'] !== '0';
  }

  /** Whether the public URLs pass WebSockets (all gateways, now and later). */
  setWebSockets(pass: boolean): void {
    this.webSockets = pass;
    for (const hosted of this.hosted.values()) hosted.gateway.webSockets = pass;
  }

  /** Drops every open connection to a task's URL (HTTP keep-alive and kernel WebSockets); the server keeps running. */
  cutConnections(taskId: number): number {
    return this.hosted.get(taskId)?.gateway.cutConnections() ?? 0;
  }

  /** What the server sends on a task's open WebSockets goes nowhere from now on; a cut ends it. */
  swallowServerData(taskId: number): number {
    return this.hosted.get(taskId)?.gateway.swallowServerData() ?? 0;
  }

  /** The folder the task's kernels run in (tests check what a cell wrote). */
  workDir(taskId: number): string | undefined {
    return this.hosted.get(taskId)?.workDir;
  }

  activated(taskId: number, services: readonly ServiceSpec[]): void {
    const spec = services.map(jupyterServerOf).find((found) => found !== undefined);
    if (spec === undefined || this.hosted.has(taskId)) return;
    const start = this.start(taskId, spec).catch((error: unknown) => console.error('[sandbox] Jupyter server could not start:', error));
    this.starting.add(start);
    void start.finally(() => this.starting.delete(start));
  }

  deactivated(taskId: number): void {
    const hosted = this.hosted.get(taskId);
    if (!hosted) return;
    this.hosted.delete(taskId);
    void this.stop(hosted);
  }

  /** The gateway's URL, null while it binds, undefined when this port is not a Jupyter server's. */
  publicUrl(taskId: number, servicePort: number): string | null | undefined {
    const hosted = this.hosted.get(taskId);
    if (!hosted || hosted.spec.servicePort !== servicePort) return undefined;
    return hosted.gateway.url ?? null;
  }

  /** Jupyter's start-up lines, the token masked as the platform's log view would show it. */
  logLines(taskId: number, service: ServiceSpec, nodeReadyAt: number, format: (realMs: number) => string): string[] | undefined {
    const hosted = this.hosted.get(taskId);
    if (!hosted || jupyterServerOf(service) === undefined) return undefined;
    const at = format(nodeReadyAt);
    return [
      `${at} Pulling image "${service.service_image}"`,
      `${at} Started container ${service.service_name}`,
      `${at} [I ServerApp] Serving notebooks from local directory: /home/jovyan/work`,
      `${at} [I ServerApp] Jupyter Server is running at http://127.0.0.1:${hosted.spec.servicePort}/?token=...`,
    ];
  }

  async close(): Promise<void> {
    await Promise.all([...this.starting]);
    const all = [...this.hosted.values()];
    this.hosted.clear();
    await Promise.all(all.map((hosted) => this.stop(hosted)));
  }

  private async start(taskId: number, spec: JupyterServerSpec): Promise<void> {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `sandbox-jupyter-${taskId}-`));
    const volume = spec.storageId !== undefined ? this.options.volumeDirectory?.(spec.storageId) : undefined;
    const workDir = volume ?? path.join(scratch, 'work');
    fs.mkdirSync(workDir, { recursive: true });
    const port = await freePort();
    const jupyterDirs = { JUPYTER_CONFIG_DIR: 'config', JUPYTER_DATA_DIR: 'data', JUPYTER_RUNTIME_DIR: 'runtime', IPYTHONDIR: 'ipython' };
    // PYDEVD_…: ipykernel's debugger otherwise warns on every kernel start.
    const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: scratch, LANG: 'C.UTF-8', PYDEVD_DISABLE_FILE_VALIDATION: '1' };
    for (const [name, folder] of Object.entries(jupyterDirs)) env[name] = path.join(scratch, folder);
    // A task without JUPYTER_TOKEN still gets a token, one nobody knows (the images print theirs in the log).
    env['JUPYTER_TOKEN'] = spec.token ?? randomBytes(24).toString('hex');
    const args = ['-m', 'jupyter_server', '--no-browser', `--ip=${LOOPBACK}`, `--port=${port}`, '--ServerApp.port_retries=0', `--ServerApp.root_dir=${workDir}`];
    // CI machines run as root, which Jupyter refuses without this.
    if (typeof process.getuid === 'function' && process.getuid() === 0) args.push('--allow-root');
    const child = spawn(JUPYTER_PYTHON, args, { cwd: workDir, env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    // Its log names the token; keep the last lines in memory only for a failure message.
    let tail = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-4_000);
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.once('error', (error) => console.error('[sandbox] Jupyter server:', error.message));
    const gateway = new JupyterGateway({ upstreamPort: port, webSockets: this.webSockets });
    const hosted: Hosted = { spec, process: child, exited, gateway, scratch, workDir };
    this.hosted.set(taskId, hosted);
    await gateway.listen();
    void exited.then(() => {
      if (this.hosted.get(taskId) === hosted && !/Shutting down/.test(tail)) console.error(`[sandbox] Jupyter server of task ${taskId} exited`);
    });
  }

  private async stop(hosted: Hosted): Promise<void> {
    await hosted.gateway.close();
    const pid = hosted.process.pid;
    if (pid !== undefined && hosted.process.exitCode === null && hosted.process.signalCode === null) {
      // Its own process group: the kernels it started go with it.
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        // already gone
      }
      const killLater = setTimeout(() => {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 5_000);
      await hosted.exited;
      clearTimeout(killLater);
    }
    fs.rmSync(hosted.scratch, { recursive: true, force: true });
  }
}
