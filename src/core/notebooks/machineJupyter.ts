// A Jupyter server on a rented machine, reached through an SSH port forward (docs/notebooks.md, "A kernel on a
// machine"). The token the extension made reaches the server only through the exec's stdin and a pipe from a
// shell builtin: never an argument (visible in `ps`), never a file, never the log (Jupyter prints "..." for a
// token it did not generate), and it leaves the environment before any kernel starts. The server listens on a
// free port on 127.0.0.1, runs detached (it outlives the SSH connection) and writes no server-info or
// browser-open file (both would hold the token). Plain Node over the SSH layer's connection.

import type { SshConnection } from '../ssh/sshConnection';
import { checkJupyterServer, type JupyterServer } from './connection';
import { JupyterConnectionError } from './errors';

/** What went wrong starting a machine's Jupyter server; the editor words it. */
export type MachineJupyterProblem = 'missing' | 'folder' | 'start';

export class MachineJupyterError extends Error {
  override readonly name = 'MachineJupyterError';

  constructor(
    readonly problem: MachineJupyterProblem,
    /** 'missing': what to install (space-separated); 'start': the end of the server's log, shortened. */
    readonly detail: string,
  ) {
    super(`Jupyter on the machine: ${problem}${detail ? ` (${detail})` : ''}`);
  }
}

export interface MachineJupyter {
  /** The server's port on the machine's 127.0.0.1. */
  remotePort: number;
  /** The server's process id on the machine. */
  pid: number;
}

const MAX_FOLDER = 1_024;
const MAX_LOG_TAIL = 1_500;

// The server, with the token read from stdin into the environment only while the app reads its settings.
const SERVER_PY = [
  'import os, sys',
  'from jupyter_server.serverapp import ServerApp',
  'class App(ServerApp):',
  '    def write_server_info_file(self): pass',
  '    def write_browser_open_files(self): pass',
  '    def write_browser_open_file(self): pass',
  'os.environ["JUPYTER_TOKEN"] = sys.stdin.readline().strip()',
  'sys.stdin = open(os.devnull)',
  'app = App.instance()',
  'app.initialize(sys.argv[1:])',
  'ip = getattr(app, "identity_provider", None)',
  'if ip is not None: ip.token',
  'else: app.token',
  'os.environ.pop("JUPYTER_TOKEN", None)',
  'app.start()',
].join('\n');

/** A word for a POSIX shell, single-quoted. */
function quoted(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The folder the server starts in: the home (undefined) or an absolute path without `..`. */
export function checkedFolder(folder: string | undefined): string | undefined {
  if (folder === undefined || folder.trim() === '' || folder.trim() === '~') return undefined;
  const trimmed = folder.trim();
  if (trimmed.length > MAX_FOLDER || !/^\/[^\0\r\n]*$/.test(trimmed) || trimmed.split('/').includes('..')) throw new MachineJupyterError('folder', '');
  return trimmed;
}

/** The log of the server on `port` (under the home, owner-only). */
const LOG = (port: string): string => `"$HOME/.compute-toolkit/jupyter-${port}.log"`;

// Finds the Python that has jupyter_server (the one `jupyter-server` runs with, else python3), says what is
// missing (exit 42), then starts the server detached and prints "started <port> <pid>".
export function startScript(folder: string | undefined): string {
  return [
    'umask 077',
    'PY=; J=$(command -v jupyter-server 2>/dev/null)',
    '[ -n "$J" ] && [ -f "$J" ] && PY=$(sed -n "1s/^#![[:space:]]*//p" "$J")',
    '[ -n "$PY" ] || PY=python3',
    'M=; $PY -c "import jupyter_server" >/dev/null 2>&1 || M="jupyter-server"',
    '$PY -c "import ipykernel" >/dev/null 2>&1 || M="$M ipykernel"',
    '[ -z "$M" ] || { printf "missing:%s\\n" "$M"; exit 42; }',
    `D=${folder === undefined ? '"$HOME"' : quoted(folder)}`,
    'cd "$D" 2>/dev/null || exit 43',
    'P=$($PY -c "import socket; s = socket.socket(); s.bind((\'127.0.0.1\', 0)); print(s.getsockname()[1])") || exit 44',
    'mkdir -p "$HOME/.compute-toolkit" || exit 44',
    'R=; [ "$(id -u)" = 0 ] && R=--allow-root',
    'IFS= read -r T',
    `printf '%s\\n' "$T" | nohup setsid $PY -c ${quoted(SERVER_PY)} --no-browser --ip=127.0.0.1 --port="$P" --ServerApp.port_retries=0 --ServerApp.root_dir="$D" $R >${LOG('$P')} 2>&1 &`,
    'T=',
    'printf "started %s %s\\n" "$P" "$!"',
  ].join('\n');
}

/** Starts the server in `folder` (the home when undefined) with `token`; its port and pid. */
export async function startMachineJupyter(connection: SshConnection, token: string, folder: string | undefined, signal?: AbortSignal): Promise<MachineJupyter> {
  if (!/^[A-Za-z0-9]{16,256}$/.test(token)) throw new MachineJupyterError('start', 'bad token');
  const result = await connection.exec(startScript(checkedFolder(folder)), { stdin: `${token}\n`, ...(signal ? { signal } : {}) });
  const missing = /^missing:([a-z -]{1,80})$/m.exec(result.stdout);
  if (result.code === 42 || missing) throw new MachineJupyterError('missing', (missing?.[1] ?? 'jupyter-server ipykernel').trim());
  if (result.code === 43) throw new MachineJupyterError('folder', folder ?? '');
  const started = /^started (\d{1,5}) (\d{1,10})$/m.exec(result.stdout);
  if (result.code !== 0 || !started) throw new MachineJupyterError('start', shortened(`${result.stdout}\n${result.stderr}`));
  return { remotePort: Number(started[1]), pid: Number(started[2]) };
}

/**
 * Whether the server (its pid) still runs on the machine: 'gone' only when the machine said so. A look that
 * did not finish (a channel cut or killed under load: no word printed) is 'unknown', never a dead server.
 */
export async function machineJupyterRuns(connection: SshConnection, server: MachineJupyter, signal?: AbortSignal): Promise<'runs' | 'gone' | 'unknown'> {
  const result = await connection.exec(`if kill -0 ${server.pid} 2>/dev/null; then echo runs; else echo gone; fi`, signal ? { signal } : {});
  const said = result.code === 0 ? result.stdout.trim() : '';
  return said === 'runs' || said === 'gone' ? said : 'unknown';
}

/** The end of the server's log (it never holds the token), for a failed start. */
export async function machineJupyterLog(connection: SshConnection, server: MachineJupyter): Promise<string> {
  const result = await connection.exec(`tail -n 15 ${LOG(String(server.remotePort))} 2>/dev/null`);
  return shortened(result.stdout);
}

/** Stops the server (Jupyter shuts its kernels down on SIGTERM) and removes its log. */
export async function stopMachineJupyter(connection: SshConnection, server: MachineJupyter): Promise<void> {
  await connection.exec(`kill -TERM ${server.pid} 2>/dev/null; rm -f ${LOG(String(server.remotePort))}`);
}

/** How long the editor waits between looks at a starting server (the time-to-ready bench uses the same). */
export const MACHINE_READY_PAUSE_MS = 500;

export interface ReadyOptions {
  /** Waits between looks (the editor: a timer; tests: their own). */
  pause: (signal?: AbortSignal) => Promise<void>;
  /** Gives up after this many looks. */
  looks: number;
  signal?: AbortSignal;
}

/**
 * Waits until the server answers through the tunnel (`local`): while it does not, the process must still
 * run — a server that exited is a 'start' failure with the end of its log; no answer after `looks` too.
 */
export async function untilMachineJupyterAnswers(local: JupyterServer, connection: () => Promise<SshConnection>, server: MachineJupyter, options: ReadyOptions): Promise<void> {
  for (let look = 1; ; look++) {
    try {
      await checkJupyterServer(local, options.signal);
      return;
    } catch (error) {
      if (!(error instanceof JupyterConnectionError) || (error.problem !== 'unreachable' && error.problem !== 'not-ready')) throw error;
    }
    const ssh = await connection();
    if ((await machineJupyterRuns(ssh, server, options.signal)) === 'gone' || look >= options.looks) throw new MachineJupyterError('start', await machineJupyterLog(ssh, server));
    await options.pause(options.signal);
  }
}

/** Printable text, bounded. */
function shortened(text: string): string {
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '').trim().slice(-MAX_LOG_TAIL);
}
