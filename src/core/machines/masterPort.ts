// The group run's rendezvous port (docs/machines.md "Network groups"): the port the user's own command line
// names (`--master_port=N`, `--rdzv_endpoint=host:N`, `MASTER_PORT=N`), else the first free port from
// DEFAULT_MASTER_PORT on, asked of the first machine over its open SSH connection: one bounded probe (a fixed
// list of candidates, a time limit), so a busy port is seen before any rank starts.

import { ConfigError, coreText } from '../errors';
import type { SshConnection } from '../ssh/sshConnection';
import { DEFAULT_MASTER_PORT } from './launcher';

/** Ports tried from DEFAULT_MASTER_PORT on, in one probe. */
export const PORT_CANDIDATES = 32;
/** The probe's time limit on the machine. */
export const PROBE_MS = 20_000;

export interface MasterPort {
  port: number;
  /** 'command': named by the user's line; 'free': found free on rank 0; 'unchecked': the machine could not be asked. */
  source: 'command' | 'free' | 'unchecked';
}

const PORT_PATTERNS = [/(?:^|[\s;&|])--master[_-]port(?:=|\s+)["']?(\d{1,5})(?![\w$])/, /(?:^|[\s;&|])--rdzv[_-]endpoint(?:=|\s+)["']?[^\s"':]{1,253}:(\d{1,5})(?![\w$])/, /(?:^|[\s;&|])MASTER_PORT=["']?(\d{1,5})(?![\w$])/];

/** The port the user's command line sets itself (its first mention), if any; a bad number is refused. */
export function commandMasterPort(command: string): number | undefined {
  const line = command.slice(0, 8192);
  let found: { at: number; port: string } | undefined;
  for (const pattern of PORT_PATTERNS) {
    const match = pattern.exec(line);
    if (match && match[1] !== undefined && (found === undefined || match.index < found.at)) found = { at: match.index, port: match[1] };
  }
  if (found === undefined) return undefined;
  const port = Number(found.port);
  if (port < 1 || port > 65535) throw new ConfigError(coreText('machines.rendezvousPort'));
  return port;
}

/**
 * Prints the first of its arguments no listener holds on the machine and exits 0; exits 3 when every one
 * is busy. python3 binds each port (the surest test, one process for all); without it, bash connects.
 */
export const PORT_PROBE = [
  'if command -v python3 >/dev/null 2>&1; then',
  `  exec python3 -c 'import socket,sys
for p in sys.argv[1:]:
  s=socket.socket()
  try: s.bind(("0.0.0.0", int(p)))
  except OSError: continue
  finally: s.close()
  print(p); sys.exit(0)
sys.exit(3)' "$@"`,
  'fi',
  'for p in "$@"; do',
  '  (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; exit 0; }',
  'done',
  'exit 3',
].join('\n');

/** The probe as one command line (bash: /dev/tcp), given the ports to try in order. */
export function portProbeCommand(ports: readonly number[]): string {
  return `bash -c '${PORT_PROBE.replace(/'/g, `'\\''`)}' probe ${ports.map((port) => String(Math.trunc(port))).join(' ')}`;
}

/**
 * The rendezvous port for a group whose rank 0 is `connection`: the user's (checked free), else the first
 * free candidate. A busy user's port, or no free candidate, is a ConfigError before anything starts.
 */
export async function pickMasterPort(connection: Pick<SshConnection, 'exec'>, options: { command?: string; start?: number; signal?: AbortSignal } = {}): Promise<MasterPort> {
  const own = options.command !== undefined ? commandMasterPort(options.command) : undefined;
  const start = options.start ?? DEFAULT_MASTER_PORT;
  const ports = own !== undefined ? [own] : Array.from({ length: PORT_CANDIDATES }, (_, index) => start + index).filter((port) => port <= 65535);
  const limit = AbortSignal.timeout(PROBE_MS);
  const result = await connection.exec(portProbeCommand(ports), { signal: options.signal ? AbortSignal.any([options.signal, limit]) : limit });
  const printed = /^(\d{1,5})\s*$/.exec(result.stdout.slice(0, 64))?.[1];
  if (result.code === 0 && printed !== undefined && ports.includes(Number(printed))) return { port: Number(printed), source: own !== undefined ? 'command' : 'free' };
  if (result.code === 3) throw new ConfigError(own !== undefined ? coreText('machines.masterPortBusy', own) : coreText('machines.noFreePort', ports[0] ?? start, ports.at(-1) ?? start));
  // The machine could not be asked (no bash, a time limit): the run goes on and the rank 0 watch ends it if the port is taken.
  return { port: own ?? start, source: own !== undefined ? 'command' : 'unchecked' };
}
