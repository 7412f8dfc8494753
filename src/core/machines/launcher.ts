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

/** The group's rendezvous port, checked with its inner IPs and GPUs per machine. */
function checkedGroup(launch: Omit<GroupLaunch, 'command' | 'launcher'>): number {
  if (launch.innerIps.length < 1) throw new ConfigError(coreText('machines.groupEmpty'));
  for (const ip of launch.innerIps) if (!IPV4.test(ip) && !(ip.includes(':') && IPV6.test(ip))) throw new ConfigError(coreText('machines.groupNoInnerIp'));
  const port = launch.masterPort ?? DEFAULT_MASTER_PORT;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new ConfigError(coreText('machines.rendezvousPort'));
  if (!Number.isInteger(launch.nprocPerNode) || launch.nprocPerNode < 1) throw new ConfigError(coreText('machines.nprocPerNode'));
  return port;
}

/** The launcher's argv for every machine of the group, rank 0 first. */
export function groupLaunches(launch: GroupLaunch): RankLaunch[] {
  const nodes = launch.innerIps.length;
  const port = checkedGroup(launch);
  if (launch.command.length === 0) throw new ConfigError(coreText('machines.noCommand'));
  const master = launch.innerIps[0] as string;
  return launch.innerIps.map((innerIp, rank) => {
    const argv = [launch.launcher ?? 'torchrun', `--nnodes=${nodes}`, `--node_rank=${rank}`, `--nproc_per_node=${launch.nprocPerNode}`, `--master_addr=${master}`, `--master_port=${port}`, ...launch.command];
    return { rank, innerIp, argv, shell: argv.map(shellWord).join(' ') };
  });
}

/** The variables a user's own command line reads (the default line passes them to torchrun). */
export const GROUP_VARIABLES = ['NNODES', 'NODE_RANK', 'NPROC_PER_NODE', 'MASTER_ADDR', 'MASTER_PORT'] as const;

/** What the editor proposes: torchrun given the group's variables, then the script. */
export function defaultGroupCommand(script: string): string {
  return `torchrun --nnodes=$NNODES --node_rank=$NODE_RANK --nproc_per_node=$NPROC_PER_NODE --master_addr=$MASTER_ADDR --master_port=$MASTER_PORT ${shellWord(script)}`;
}

/** Each machine's variables (GROUP_VARIABLES), rank 0 first: the same checks as groupLaunches. */
export function groupRankEnvs(launch: Omit<GroupLaunch, 'command' | 'launcher'>): { rank: number; innerIp: string; env: { name: string; value: string }[] }[] {
  const port = checkedGroup(launch);
  const master = launch.innerIps[0] as string;
  return launch.innerIps.map((innerIp, rank) => {
    const values = [launch.innerIps.length, rank, launch.nprocPerNode, master, port];
    return { rank, innerIp, env: GROUP_VARIABLES.map((name, index) => ({ name, value: String(values[index]) })) };
  });
}
