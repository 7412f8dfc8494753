// Running one command across a network group (docs/machines.md): PyTorch's own launcher on every
// machine, given the node count, its rank and the rendezvous address: the first machine's inner IP.

import { ConfigError, coreText } from '../errors';

export interface GroupLaunch {
  /** Inner IPs in rank order (the first is the rendezvous host). */
  innerIps: readonly string[];
  /** GPUs each machine runs a process on. */
  nprocPerNode: number;
  masterPort?: number;
  /** The user's script and its arguments, as separate words. */
  command: readonly string[];
  /** The launcher (default torchrun). */
  launcher?: string;
}

export interface RankLaunch {
  rank: number;
  innerIp: string;
  argv: string[];
  /** The argv as one POSIX shell command (every word quoted). */
  shell: string;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const IPV6 = /^[0-9a-f:]{2,39}$/i;
export const DEFAULT_MASTER_PORT = 29500;

/** One POSIX shell word (single quotes; a quote inside closed and reopened). */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./=:,+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The launcher's argv for every machine of the group, rank 0 first. */
export function groupLaunches(launch: GroupLaunch): RankLaunch[] {
  const nodes = launch.innerIps.length;
  if (nodes < 1) throw new ConfigError(coreText('machines.groupEmpty'));
  for (const ip of launch.innerIps) if (!IPV4.test(ip) && !(ip.includes(':') && IPV6.test(ip))) throw new ConfigError(coreText('machines.groupNoInnerIp'));
  const port = launch.masterPort ?? DEFAULT_MASTER_PORT;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new ConfigError(coreText('machines.rendezvousPort'));
  if (!Number.isInteger(launch.nprocPerNode) || launch.nprocPerNode < 1) throw new ConfigError(coreText('machines.nprocPerNode'));
  if (launch.command.length === 0) throw new ConfigError(coreText('machines.noCommand'));
  const master = launch.innerIps[0] as string;
  return launch.innerIps.map((innerIp, rank) => {
    const argv = [launch.launcher ?? 'torchrun', `--nnodes=${nodes}`, `--node_rank=${rank}`, `--nproc_per_node=${launch.nprocPerNode}`, `--master_addr=${master}`, `--master_port=${port}`, ...launch.command];
    return { rank, innerIp, argv, shell: argv.map(shellWord).join(' ') };
  });
}
