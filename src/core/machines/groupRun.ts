// One command across a network group (docs/machines.md "Network groups"): the launcher (torchrun by
// default) started on every machine over its own SSH connection with its rank, the node count and the
// first machine's inner IP as the rendezvous address (launcher.ts); output comes back line by line
// tagged with the rank, in the order it arrives; stop() sends Ctrl+C to every machine and then closes
// each channel (its pty hangs the process up). Each machine's exit code is reported. startGroupCommand runs
// the user's own line instead (from the editor), in the synced folder, with the rank's variables exported.
// Rank 0 holds the rendezvous: when it fails (a port taken after the check, a crash) while others still run,
// they would wait for it until torchrun's own long timeout, so they are stopped after a short grace.

import type { ClientChannel } from 'ssh2';
import type { SshConnection } from '../ssh/sshConnection';
import { followChannelLines } from './channelLines';
import { groupLaunches, groupRankEnvs, shellWord, type GroupLaunch } from './launcher';
import { machineCommandLine } from './machineRun';
import { RANK_ZERO_GRACE_MS } from './rankZeroGrace';

export { RANK_ZERO_GRACE_MS };

export interface GroupMachine {
  deviceId: number;
  innerIp: string;
  connection: SshConnection;
}

export interface GroupRunOptions {
  /** In rank order: the first machine is the rendezvous host. */
  machines: readonly GroupMachine[];
  launch: Omit<GroupLaunch, 'innerIps'>;
  /** The folder the command runs in on every machine (default: the login's home). */
  cwd?: string;
  onLine: (rank: number, line: string) => void;
  rankZero?: RankZeroWatch;
}

/** What happens when rank 0 ends with a failure before the others. */
export interface RankZeroWatch {
  /** How long the other ranks may still end by themselves (default RANK_ZERO_GRACE_MS; the editor passes the setting). */
  graceMs?: number;
  /** Told once the others are being stopped, with rank 0's exit code. */
  onStopping?: (code: number | null) => void;
}

export interface RankResult {
  rank: number;
  deviceId: number;
  /** null: ended by a signal or a lost connection. */
  code: number | null;
}

export interface GroupRun {
  done: Promise<RankResult[]>;
  stop(): void;
}

/** One rank's output as lines (tagged by the caller; the group's own carriage returns dropped) and its exit code. */
async function follow(channel: ClientChannel, rank: number, machine: GroupMachine, onLine: (rank: number, line: string) => void): Promise<RankResult> {
  const code = await followChannelLines(channel, machine.connection, (line) => onLine(rank, line.replace(/\r/g, '')));
  return { rank, deviceId: machine.deviceId, code };
}

export async function startGroupRun(options: GroupRunOptions): Promise<GroupRun> {
  const launches = groupLaunches({ ...options.launch, innerIps: options.machines.map((machine) => machine.innerIp) });
  const prefix = options.cwd !== undefined ? `cd ${shellWord(options.cwd)} && ` : '';
  return startRanks(options.machines, launches.map((launch) => `${prefix}exec ${launch.shell}`), options.onLine, options.rankZero);
}

export interface GroupCommandOptions {
  /** In rank order: the first machine is the rendezvous host. */
  machines: readonly GroupMachine[];
  nprocPerNode: number;
  masterPort?: number;
  /** The folder under the login's home the command runs in (the synced folder). */
  remoteDir: string;
  /** The user's shell line (torchrun or their own launcher), reading the group's variables (GROUP_VARIABLES). */
  command: string;
  env: readonly { name: string; value: string }[];
  onLine: (rank: number, line: string) => void;
  rankZero?: RankZeroWatch;
}

/** The user's command line on every machine, in the synced folder, with its rank's variables exported. */
export async function startGroupCommand(options: GroupCommandOptions): Promise<GroupRun> {
  const ranks = groupRankEnvs({ innerIps: options.machines.map((machine) => machine.innerIp), nprocPerNode: options.nprocPerNode, ...(options.masterPort !== undefined ? { masterPort: options.masterPort } : {}) });
  return startRanks(options.machines, ranks.map((rank) => machineCommandLine(options.remoteDir, [...options.env, ...rank.env], options.command)), options.onLine, options.rankZero);
}

/** One exec channel per machine (line i on machine i), each followed at once. */
async function startRanks(machines: readonly GroupMachine[], lines: readonly string[], onLine: (rank: number, line: string) => void, watch: RankZeroWatch = {}): Promise<GroupRun> {
  const channels: ClientChannel[] = [];
  const results: Promise<RankResult>[] = [];
  try {
    for (const [rank, line] of lines.entries()) {
      const machine = machines[rank] as GroupMachine;
      const channel = await machine.connection.execChannel(line, { rows: 40, cols: 200, term: 'dumb' });
      channels.push(channel);
      // Listened to at once: a quick rank may end while the next machine's channel is still opening.
      results.push(follow(channel, rank, machine, onLine));
    }
  } catch (error) {
    for (const channel of channels) channel.close();
    throw error;
  }
  let stopped = false;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    for (const channel of channels) channel.write('\x03');
    for (const channel of channels) channel.close();
  };
  let grace: ReturnType<typeof setTimeout> | undefined;
  let settled = false;
  const done = Promise.all(results).finally(() => {
    settled = true;
    clearTimeout(grace);
  });
  void results[0]?.then((first) => {
    if (first.code === 0 || stopped || settled || results.length < 2) return;
    grace = setTimeout(() => {
      if (stopped || settled) return;
      watch.onStopping?.(first.code);
      stop();
    }, watch.graceMs ?? RANK_ZERO_GRACE_MS);
  });
  return { done, stop };
}
